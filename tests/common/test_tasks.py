"""ServiceTask, the base of every task: jittered bounded retries, one final-failure hook."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from celery import Task, shared_task
from celery.signals import task_retry
from django.db import OperationalError
from django.utils import timezone

from assets.tasks import delete_asset_files_task, process_asset_task
from common.background.leases import LeaseHeldError
from common.tasks import ServiceTask
from legal_documents.tasks import (
    build_documentation_package_task,
    generate_document_task,
    iterate_document_task,
    mark_stale_task,
)
from webhooks.tasks import deliver_webhook_task

BACKOFF = 100
BACKOFF_MAX = 250
# What the flaky task raises next; the test fills it.
planned_errors: list[BaseException] = []
calls: list[str] = []
given_up: list[tuple[BaseException, str]] = []


def _record_give_up(task: Task, error: BaseException, item_id: str) -> None:
    given_up.append((error, item_id))


@shared_task(
    base=ServiceTask,
    bind=True,
    max_retries=3,
    retry_backoff=BACKOFF,
    retry_backoff_max=BACKOFF_MAX,
    give_up=_record_give_up,
)
def flaky_task(self: Task, item_id: str) -> str:
    calls.append(item_id)
    if planned_errors:
        raise planned_errors.pop(0)
    return "done"


@pytest.fixture(autouse=True)
def clean_records() -> Iterator[None]:
    """Empty the module's records before and after each test."""
    for record in (planned_errors, calls, given_up):
        record.clear()
    yield
    for record in (planned_errors, calls, given_up):
        record.clear()


@pytest.fixture
def countdowns() -> Iterator[list[float]]:
    """The delay of every retry scheduled while the test runs, in order."""
    delays: list[float] = []

    def record(sender: Any, reason: Any, **kwargs: Any) -> None:
        delays.append(reason.when)

    task_retry.connect(record, weak=False)
    yield delays
    task_retry.disconnect(record)


def test_a_transient_error_is_retried_with_bounded_backoff_then_given_up_once(countdowns):
    planned_errors.extend(OperationalError("the database restarts") for _ in range(10))

    result = flaky_task.apply(args=("a1",))

    assert result.failed()
    assert calls == ["a1"] * 4  # the first attempt and max_retries retries
    assert len(countdowns) == 3
    for attempt, delay in enumerate(countdowns):
        assert 0 <= delay <= min(BACKOFF_MAX, BACKOFF * 2**attempt)
    [(error, item_id)] = given_up
    assert isinstance(error, OperationalError)
    assert item_id == "a1"


def test_the_backoff_is_jittered(countdowns):
    for _ in range(5):
        planned_errors.extend(OperationalError("down") for _ in range(4))
        flaky_task.apply(args=("a1",))

    # Without jitter every first retry would wait exactly BACKOFF seconds; with full jitter
    # all 5 doing so (or all 15 delays being equal) has a probability below 1e-10.
    first_retries = countdowns[::3]
    assert len(countdowns) == 15
    assert first_retries != [BACKOFF] * 5
    assert len(set(countdowns)) > 1


def test_a_transient_error_that_clears_is_not_given_up(countdowns):
    planned_errors.append(OperationalError("a dropped connection"))

    result = flaky_task.apply(args=("a1",))

    assert result.successful()
    assert result.result == "done"
    assert calls == ["a1", "a1"]
    assert len(countdowns) == 1
    assert given_up == []


def test_an_error_that_is_not_transient_fails_at_once_without_a_retry(countdowns):
    planned_errors.append(ValueError("a bug"))

    result = flaky_task.apply(args=("a1",))

    assert result.failed()
    assert calls == ["a1"]
    assert countdowns == []
    [(error, item_id)] = given_up
    assert isinstance(error, ValueError)
    assert item_id == "a1"


def test_the_soft_time_limits_are_read_from_the_settings_when_used(settings):
    settings.GENERATION_TIMEOUT_SECONDS = 42
    settings.ASSET_PROCESSING_TIMEOUT_SECONDS = 43

    assert generate_document_task.soft_time_limit == 42
    assert iterate_document_task.soft_time_limit == 42
    assert process_asset_task.soft_time_limit == 43
    # No setting named: Celery's own default (CELERY_TASK_SOFT_TIME_LIMIT, unset: none).
    assert build_documentation_package_task.soft_time_limit is None


def test_every_task_that_retries_uses_the_base_class_with_jitter():
    for task in (
        generate_document_task,
        iterate_document_task,
        build_documentation_package_task,
        mark_stale_task,
        process_asset_task,
        delete_asset_files_task,
        deliver_webhook_task,
    ):
        assert isinstance(task, ServiceTask), task.name
        assert task.retry_jitter is True, task.name
        assert task.acks_late is True, task.name
        assert task.reject_on_worker_lost is True, task.name


@pytest.fixture
def sent_again(monkeypatch: pytest.MonkeyPatch) -> list[tuple[tuple[Any, ...], float]]:
    """What flaky_task sent of itself (the broker is the edge: nothing is published)."""
    sent: list[tuple[tuple[Any, ...], float]] = []

    def record(args: tuple[Any, ...], kwargs: Any = None, **options: Any) -> None:
        sent.append((tuple(args), options["countdown"]))

    monkeypatch.setattr(flaky_task, "apply_async", record)
    return sent


def test_a_task_whose_lease_is_held_looks_again_once_it_expires_as_a_fresh_task(
    countdowns, sent_again
):
    # At its last retry: a Celery retry here would exceed max_retries and give up work
    # another attempt is doing well.
    planned_errors.append(LeaseHeldError("chore", "item-1", 42.0))

    flaky_task.apply(args=("item-1",), retries=3)

    assert given_up == []
    assert countdowns == []  # not a retry: the retries are left for real errors
    ((args, countdown),) = sent_again
    assert args == ("item-1",)
    assert 42.0 <= countdown <= 43.0


@pytest.mark.django_db
def test_a_document_job_whose_lease_is_held_at_its_last_retry_is_not_failed(monkeypatch):
    from legal_documents.models import LegalDocument, Status
    from legal_documents.tasks import MAX_RETRIES
    from tests.factories import LegalDocumentFactory

    document = LegalDocumentFactory(status=Status.PROCESSING)
    LegalDocument.objects.filter(pk=document.pk).update(
        job_id=uuid.uuid4(),
        lease_state="leased",
        lease_token=uuid.uuid4(),
        lease_expires_at=timezone.now() + timedelta(seconds=60),
    )
    document.refresh_from_db()
    sent: list[tuple[Any, ...]] = []
    monkeypatch.setattr(
        generate_document_task, "apply_async", lambda args, kwargs=None, **_: sent.append(args)
    )

    generate_document_task.apply(args=(str(document.pk), str(document.job_id)), retries=MAX_RETRIES)

    document.refresh_from_db()
    assert (document.status, document.error_code) == (Status.PROCESSING, "")
    assert sent == [(str(document.pk), str(document.job_id))]
