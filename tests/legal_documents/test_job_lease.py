"""A document's job under the one lease (common.background): refused sends, superseded
tasks, and jobs the lease ends, never a document left `processing` for good."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from kombu.exceptions import OperationalError as KombuOperationalError

from common.background import leases, sweeper
from common.background.fields import LeaseState
from legal_documents.models import DocumentIteration, LegalDocument, Status
from legal_documents.tasks import generate_document_task, iterate_document_task
from legal_documents.work import DOCUMENT_JOB
from tests.legal_documents.samples import FULL_INPUTS
from tests.support.flow import URL, GroupListener, completed_document, run_job

pytestmark = pytest.mark.django_db


def broker_down(*args: Any, **kwargs: Any) -> None:
    raise KombuOperationalError("Error 111 connecting to localhost:6379. Connection refused.")


def create_while_the_broker_is_down(caller, monkeypatch, capture) -> LegalDocument:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(generate_document_task, "apply_async", broker_down)
    body = {"documentType": "DPIA", **FULL_INPUTS["DPIA"]}
    with capture(execute=True):
        response = caller.client.post(URL, body, format="json")
    assert response.status_code == 201, response.content
    return LegalDocument.objects.get(pk=response.json()["id"])


def due_seconds_ago(document: LegalDocument, seconds: float) -> None:
    LegalDocument.objects.filter(pk=document.pk).update(
        due_at=timezone.now() - timedelta(seconds=seconds)
    )


def test_a_job_the_broker_refused_stays_queued_and_the_sweeper_sends_it_again(
    dpo, monkeypatch, django_capture_on_commit_callbacks
):
    document = create_while_the_broker_is_down(dpo, monkeypatch, django_capture_on_commit_callbacks)
    assert (document.status, document.lease_state, document.error_code) == (
        Status.PROCESSING, LeaseState.QUEUED, "",
    )  # fmt: skip

    due_seconds_ago(document, DOCUMENT_JOB.resend_after_seconds + 1)
    sent: list[tuple[str, ...]] = []
    monkeypatch.setattr(generate_document_task, "apply_async", lambda args, **_: sent.append(args))
    assert sweeper.sweep(DOCUMENT_JOB) == {"requeued": 0, "failed": 0, "resent": 1}
    assert sent == [(str(document.pk), str(document.job_id))]

    generate_document_task.apply(args=sent[0])
    document.refresh_from_db()
    assert (document.status, document.version, document.lease_state) == (
        Status.COMPLETED, 1, LeaseState.IDLE,
    )  # fmt: skip


def test_a_job_no_worker_ever_took_ends_service_unavailable_not_processing_for_good(
    dpo, monkeypatch, django_capture_on_commit_callbacks
):
    document = create_while_the_broker_is_down(dpo, monkeypatch, django_capture_on_commit_callbacks)
    due_seconds_ago(document, DOCUMENT_JOB.max_queued_seconds + 1)

    assert sweeper.sweep(DOCUMENT_JOB)["failed"] == 1

    body = dpo.client.get(f"{URL}/{document.pk}").json()
    assert body["status"] == "failed"
    assert body["error"]["code"] == "SERVICE_UNAVAILABLE"
    assert LegalDocument.objects.get(pk=document.pk).lease_state == LeaseState.IDLE


def test_a_task_sent_for_an_earlier_job_does_nothing_once_the_document_runs_another(dpo):
    body = {"documentType": "DPIA", **FULL_INPUTS["DPIA"]}
    created = dpo.client.post(URL, body, format="json").json()
    first_job = str(LegalDocument.objects.get(pk=created["id"]).job_id)
    document = run_job(created["id"])
    assert dpo.client.post(f"{URL}/{document.pk}/draft").status_code == 202
    drafting = LegalDocument.objects.get(pk=document.pk)
    assert str(drafting.job_id) != first_job

    generate_document_task.apply(args=[str(document.pk), first_job])

    after = LegalDocument.objects.get(pk=document.pk)
    assert (after.status, after.job_id, after.version) == (
        Status.PROCESSING, drafting.job_id, document.version,
    )  # fmt: skip
    assert (after.lease_state, after.attempts) == (LeaseState.QUEUED, 0)
    assert run_job(str(document.pk)).status == Status.COMPLETED


def test_an_edit_whose_workers_were_all_lost_fails_and_finishes_its_thread(
    dpo, django_capture_on_commit_callbacks
):
    document = completed_document(dpo)
    response = dpo.client.post(f"{URL}/{document.pk}/iterate", {"message": "Shorten it."})
    assert response.status_code == 202
    iteration = DocumentIteration.objects.get(pk=response.json()["iterationId"])
    job_id = LegalDocument.objects.get(pk=document.pk).job_id
    listener = GroupListener(document.pk)

    for _ in range(DOCUMENT_JOB.max_attempts):  # each worker died holding the job
        assert leases.claim(DOCUMENT_JOB, document.pk, job_id=job_id)
        LegalDocument.objects.filter(pk=document.pk).update(
            lease_expires_at=timezone.now() - timedelta(seconds=1)
        )
        with django_capture_on_commit_callbacks(execute=True):
            counts = sweeper.sweep(DOCUMENT_JOB)
    assert counts["failed"] == 1

    edited = LegalDocument.objects.get(pk=document.pk)
    # The last good version stays readable; the failed edit is recorded.
    assert (edited.status, edited.version, edited.error_code) == (
        Status.COMPLETED, document.version, "GENERATION_TIMEOUT",
    )  # fmt: skip
    iteration.refresh_from_db()
    assert iteration.status == Status.FAILED
    assert iteration.response.startswith("The edit failed (GENERATION_TIMEOUT)")
    events = listener.collect()
    assert events[-1]["event"].endswith(".message-response-finished")


def test_the_sweeper_sends_an_edit_again_with_its_iteration(
    dpo, monkeypatch, django_capture_on_commit_callbacks
):
    document = completed_document(dpo)
    monkeypatch.setattr(iterate_document_task, "apply_async", broker_down)
    with django_capture_on_commit_callbacks(execute=True):
        response = dpo.client.post(f"{URL}/{document.pk}/iterate", {"message": "Shorten it."})
    assert response.status_code == 202
    job_id = str(LegalDocument.objects.get(pk=document.pk).job_id)
    sent: list[tuple[str, ...]] = []
    monkeypatch.setattr(iterate_document_task, "apply_async", lambda args, **_: sent.append(args))
    due_seconds_ago(document, DOCUMENT_JOB.resend_after_seconds + 1)

    assert sweeper.sweep(DOCUMENT_JOB)["resent"] == 1

    assert sent == [(str(document.pk), job_id, response.json()["iterationId"])]
