"""Structured logs: JSON lines carrying the request id and, once known, the organization."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.test import Client

from config.logging import logging_config


@contextmanager
def _capture() -> Iterator[list[dict]]:
    """The JSON log lines written inside the block, formatted as production writes them."""
    formatter_config = dict(
        logging_config(level="INFO", json_lines=True)["formatters"]["structured"]
    )
    formatter = formatter_config.pop("()")(**formatter_config)
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter)
    root = logging.getLogger()
    previous_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    lines: list[dict] = []
    try:
        yield lines
    finally:
        root.removeHandler(handler)
        root.setLevel(previous_level)
        lines.extend(json.loads(line) for line in stream.getvalue().splitlines())


def _finished(lines: list[dict]) -> dict:
    (line,) = [line for line in lines if line["event"] == "request.finished"]
    return line


@pytest.mark.django_db
def test_the_request_id_sent_by_the_caller_is_logged_and_returned():
    with _capture() as lines:
        response = Client().get("/api/v1/audit-events", HTTP_X_REQUEST_ID="trace-42.a")
    assert response["X-Request-ID"] == "trace-42.a"
    line = _finished(lines)
    assert line["request_id"] == "trace-42.a"
    assert line["status"] == 401
    assert line["path"] == "/api/v1/audit-events"
    assert line["level"] == "info" and line["timestamp"].endswith("Z")


@pytest.mark.django_db
def test_a_request_without_an_id_gets_a_generated_one():
    with _capture() as lines:
        response = Client().get("/api/v1/audit-events")
    generated = response["X-Request-ID"]
    assert len(generated) == 32
    assert _finished(lines)["request_id"] == generated


@pytest.mark.django_db
def test_an_unsafe_request_id_is_replaced():
    with _capture() as lines:
        response = Client().get("/api/v1/audit-events", HTTP_X_REQUEST_ID='x" injected\nline')
    assert response["X-Request-ID"] != 'x" injected\nline'
    assert "injected" not in json.dumps(lines)


def test_lines_of_the_organization_carry_its_id(auditor):
    with _capture() as lines:
        response = auditor.client.get("/api/v1/audit-events")
    assert response.status_code == 200
    assert _finished(lines)["organization_id"] == str(auditor.organization.id)


@pytest.mark.django_db
def test_every_line_written_during_a_request_carries_its_id():
    # A 404 on an API path is logged by Django itself ("Not Found"), inside the request.
    with _capture() as lines:
        Client().get("/api/v1/no-such-thing", HTTP_X_REQUEST_ID="req-404")
    django_lines = [line for line in lines if line.get("logger") == "django.request"]
    assert django_lines
    assert {line["request_id"] for line in lines} == {"req-404"}


def test_context_does_not_leak_from_one_request_to_the_next(db):  # type: ignore[no-untyped-def]
    client = Client()
    client.get("/healthz", HTTP_X_REQUEST_ID="first")
    with _capture() as lines:
        logging.getLogger("legaldocs.test").info("outside any request")
    assert "request_id" not in lines[0]


def test_a_task_enqueued_during_a_request_carries_its_request_id(settings):
    import uuid

    import redis

    from common.log_context import bind_context, clear_context
    from config.celery import app

    queue = f"deploy-test-{uuid.uuid4().hex}"
    bind_context(request_id="req-for-task")
    try:
        app.send_task("legal_documents.tasks.not_a_real_task", queue=queue)
    finally:
        clear_context()
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        (message,) = client.lrange(queue, 0, -1)
    finally:
        client.delete(queue)
        client.close()
    assert json.loads(message)["headers"]["request_id"] == "req-for-task"
