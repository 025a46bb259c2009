"""Generation jobs: providers, the checklist guard, and every failure path ending in `failed`."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from celery.signals import task_retry
from django.utils import timezone

from common.background import leases, sweeper
from legal_documents.models import LegalDocument, Status
from legal_documents.services import jobs
from legal_documents.services.documents import run_generation
from legal_documents.tasks import generate_document_task
from legal_documents.work import DOCUMENT_JOB
from tests.legal_documents.samples import FULL_INPUTS
from tests.support.fake_openai import echo_user_message, fake_openai_server

pytestmark = pytest.mark.django_db

URL = "/api/v1/legal-documents"


def create(caller, document_type: str = "RECORD_OF_PROCESSING") -> LegalDocument:  # type: ignore[no-untyped-def]
    body = {"documentType": document_type, **FULL_INPUTS[document_type]}
    response = caller.client.post(URL, body, format="json")
    assert response.status_code == 201, response.content
    return LegalDocument.objects.get(pk=response.json()["id"])


@pytest.fixture
def openai_settings(settings):  # type: ignore[no-untyped-def]
    """Point the openai provider at a loopback OpenAI-compatible server."""
    with fake_openai_server() as server:
        settings.GENERATION_PROVIDER = "openai"
        settings.OPENAI_API_KEY = "sk-test"
        settings.OPENAI_BASE_URL = server.base_url
        settings.LLM_TIMEOUT_SECONDS = 2
        yield server


def test_the_provider_is_template_by_default_and_openai_when_configured(dpo, openai_settings):
    document = create(dpo)
    assert document.provider == "openai"


def test_the_openai_provider_writes_each_section_through_the_real_client(dpo, openai_settings):
    openai_settings.behaviour = lambda body: echo_user_message(body).replace(
        "Customer relationship management", "CRM (reviewed by the model)"
    )
    document = create(dpo)
    run_generation(document_id=str(document.pk), job_id=str(document.job_id))
    document.refresh_from_db()
    assert document.status == Status.COMPLETED
    assert "CRM (reviewed by the model)" in document.content_markdown
    chat_calls = [r for r in openai_settings.requests if r["path"].endswith("/chat/completions")]
    assert chat_calls and all(call["body"]["stream"] for call in chat_calls)


def test_a_model_that_drops_a_mandatory_item_gets_it_back_from_the_template(dpo, openai_settings):
    def drop_purposes(body):  # type: ignore[no-untyped-def]
        text = echo_user_message(body)
        return "\n".join(line for line in text.splitlines() if "{#b-purposes}" not in line)

    openai_settings.behaviour = drop_purposes
    document = create(dpo)
    run_generation(document_id=str(document.pk), job_id=str(document.job_id))
    document.refresh_from_db()
    assert "{#b-purposes}" in document.content_markdown
    report = dpo.client.get(f"{URL}/{document.pk}/compliance").json()
    assert report["complete"] is True


def test_a_refusing_model_fails_the_document_with_its_reason(dpo, openai_settings):
    openai_settings.status = 400
    document = create(dpo)
    generate_document_task.apply(args=[str(document.pk), str(document.job_id)])
    document.refresh_from_db()
    assert document.status == Status.FAILED
    assert document.error_code == "PROVIDER_ERROR"
    body = dpo.client.get(f"{URL}/{document.pk}").json()
    assert body["error"]["code"] == "PROVIDER_ERROR"


def test_an_unavailable_model_is_retried_then_fails_cleanly(dpo, openai_settings):
    openai_settings.status = 503
    document = create(dpo)
    # Celery's eager apply runs the retries in-process, one after another.
    generate_document_task.apply(args=[str(document.pk), str(document.job_id)])
    document.refresh_from_db()
    chat_calls = [r for r in openai_settings.requests if r["path"].endswith("/chat/completions")]
    assert len(chat_calls) == 1 + generate_document_task.max_retries
    assert document.status == Status.FAILED
    assert document.error_code == "PROVIDER_UNAVAILABLE"


def test_an_unavailable_model_is_retried_after_jittered_bounded_delays(dpo, openai_settings):
    openai_settings.status = 503
    delays: list[float] = []

    def record(sender, reason, **kwargs):  # type: ignore[no-untyped-def]
        delays.append(reason.when)

    task_retry.connect(record, weak=False)
    try:
        for _ in range(3):
            document = create(dpo)
            generate_document_task.apply(args=[str(document.pk), str(document.job_id)])
    finally:
        task_retry.disconnect(record)

    ceilings = [2, 4, 8] * 3  # doubling from 2 s, at most 60 s
    assert len(delays) == len(ceilings)
    assert all(0 <= delay <= ceiling for delay, ceiling in zip(delays, ceilings, strict=True))
    # Full jitter: the chance that all nine delays hit their ceiling is 1 in 135**3.
    assert delays != ceilings


def test_a_model_that_times_out_fails_after_the_retries(dpo, openai_settings):
    openai_settings.delay_seconds = 3  # longer than LLM_TIMEOUT_SECONDS
    document = create(dpo)
    task = generate_document_task
    with mock.patch.object(task, "max_retries", 0):
        task.apply(args=[str(document.pk), str(document.job_id)])
    document.refresh_from_db()
    assert document.status == Status.FAILED
    assert document.error_code == "PROVIDER_UNAVAILABLE"


def test_an_unexpected_provider_crash_fails_the_document(dpo):
    document = create(dpo)
    with mock.patch(
        "legal_documents.providers.template.TemplateProvider.write_document",
        side_effect=ZeroDivisionError("bug"),
    ):
        generate_document_task.apply(args=[str(document.pk), str(document.job_id)])
    document.refresh_from_db()
    assert document.status == Status.FAILED
    assert document.error_code == "GENERATION_FAILED"
    assert "bug" not in document.error_message  # no internals to clients


def test_a_redelivered_task_changes_nothing(dpo):
    document = create(dpo)
    job_id = str(document.job_id)
    generate_document_task.apply(args=[str(document.pk), job_id])
    generate_document_task.apply(args=[str(document.pk), job_id])  # e.g. after a worker crash
    document.refresh_from_db()
    assert document.status == Status.COMPLETED
    assert document.version == 1
    assert document.versions.count() == 1


def test_a_job_stuck_after_a_worker_crash_is_failed_by_the_sweep(dpo):
    document = create(dpo)
    # Each worker that claimed the job "died": its lease expires, the sweep queues it again,
    # until the job's attempts are spent.
    for _ in range(DOCUMENT_JOB.max_attempts):
        assert leases.claim(DOCUMENT_JOB, document.pk, job_id=document.job_id)
        LegalDocument.objects.filter(pk=document.pk).update(
            lease_expires_at=timezone.now() - timedelta(seconds=1)
        )
        counts = sweeper.sweep(DOCUMENT_JOB)
    assert counts["failed"] == 1
    document.refresh_from_db()
    assert document.status == Status.FAILED
    assert document.error_code == "GENERATION_TIMEOUT"
    # the late task, if it ever runs, leaves the failed document alone
    generate_document_task.apply(args=[str(document.pk), str(document.job_id)])
    document.refresh_from_db()
    assert document.status == Status.FAILED


def test_generated_content_over_the_limit_fails_with_content_too_long(dpo):
    document = create(dpo)
    with mock.patch(
        "legal_documents.providers.template.TemplateProvider.write_document",
        return_value="# Too long\n\n" + "x" * 100_001,
    ):
        run_generation(document_id=str(document.pk), job_id=str(document.job_id))
    document.refresh_from_db()
    assert document.status == Status.FAILED
    assert document.error_code == "CONTENT_TOO_LONG"


def test_the_estimate_follows_measured_durations(dpo):
    jobs.remember_duration("template", 4.0)
    estimate = jobs.expected_duration("template")
    assert 1.0 < estimate <= 4.0


def test_webhooks_hear_of_creation_and_of_the_finished_draft(
    dpo, django_capture_on_commit_callbacks
):
    from tests.webhooks.factories import WebhookEndpointFactory
    from webhooks.models import WebhookDelivery

    WebhookEndpointFactory(organization=dpo.organization)
    with mock.patch("webhooks.tasks.deliver_webhook_task.apply_async"):
        with django_capture_on_commit_callbacks(execute=True):
            document = create(dpo)
        with django_capture_on_commit_callbacks(execute=True):
            run_generation(document_id=str(document.pk), job_id=str(document.job_id))
    events = list(WebhookDelivery.objects.order_by("created_at").values_list("event", flat=True))
    assert events == ["document.created", "document.drafted"]
    payload = WebhookDelivery.objects.get(event="document.drafted").payload
    assert payload["documentId"] == str(document.pk)
    assert payload["data"]["documentType"] == "RECORD_OF_PROCESSING"
    assert payload["data"]["status"] == "completed"


def test_the_text_streamed_while_the_model_writes_carries_the_document_id_as_thread_id(
    dpo, openai_settings
):
    from legal_documents import events
    from tests.support.flow import GroupListener

    document = create(dpo)
    listener = GroupListener(document.pk)
    run_generation(document_id=str(document.pk), job_id=str(document.job_id))
    # The generation stream has no finished frame of its own: this one ends the listening.
    events.send_message_finished(document_id=document.pk)
    streamed = [e["data"] for e in listener.collect() if e["event"].endswith(".message-response")]
    assert streamed
    assert {frame["threadId"] for frame in streamed} == {str(document.pk)}
