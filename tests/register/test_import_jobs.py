"""A register import is a job: 202 at once, run by a worker, bounded, announced, cleaned up.

Issue 25, items 2 and 11: the import ran in the web process (dry runs included), and the
admin's previews sat in Redis. Here the job's life: queued by the POST, a broker refusal,
the lease, the limits (running imports, imports kept, the size of a stored plan), the file
deleted once the import ran, and organization isolation of the GET.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.files.storage import storages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from kombu.exceptions import OperationalError as KombuOperationalError

from audit.models import AuditEvent
from common.background import sweeper
from common.background.leases import LeaseHeldError
from register.importing import jobs
from register.models import ImportStatus, ProcessingActivity, RegisterImport
from register.work import KIND
from tests.conftest import Caller, make_caller
from tests.webhooks.factories import WebhookEndpointFactory
from webhooks.models import WebhookDelivery

pytestmark = pytest.mark.django_db

URL = "/api/v1/processing-activities/import"
STATUS_URL = "/api/v1/processing-activities/imports"
CSV = (
    b"Processing activity;Purpose;Legal basis\n"
    b"Payroll;Salary payment;Art. 6(1)(b)\n"
    b"Recruiting;Hiring;Art. 6(1)(b)\n"
)


def post(caller: Caller, content: bytes = CSV, **fields: Any) -> Any:
    upload = SimpleUploadedFile("register.csv", content, content_type="text/csv")
    return caller.client.post(URL, {"file": upload, **fields}, format="multipart")


def stored(key: str) -> bool:
    return bool(key) and storages["default"].exists(key)


def test_the_post_answers_202_with_a_queued_import_and_does_no_work(dpo):
    response = post(dpo, dryRun=True)

    assert response.status_code == 202, response.content
    body = response.json()
    assert (body["status"], body["dryRun"], body["fileName"]) == ("queued", True, "register.csv")
    assert body["result"] is None and body["error"] is None
    register_import = RegisterImport.objects.get(pk=body["id"])
    assert stored(register_import.file_key)  # kept for the worker
    assert not AuditEvent.objects.filter(action="processing_activity.import_previewed").exists()
    got = dpo.client.get(f"{STATUS_URL}/{body['id']}").json()
    assert got["status"] == "queued"


def test_a_broker_refusal_leaves_the_import_queued_until_the_sweeper_gives_up(
    dpo, monkeypatch, django_capture_on_commit_callbacks
):
    """One policy for every kind of background work (issue 27): a refused send is logged,
    the import stays queued (the sweeper sends it again), and once it waited
    MAX_QUEUED_SECONDS it fails with SERVICE_UNAVAILABLE and its file is deleted."""
    from register.tasks import run_register_import_task

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise KombuOperationalError("connection refused")

    monkeypatch.setattr(run_register_import_task, "apply_async", refuse)
    with django_capture_on_commit_callbacks(execute=True):
        body = post(dpo).json()

    assert body["status"] == "queued"
    register_import = RegisterImport.objects.get(pk=body["id"])
    assert stored(register_import.file_key)
    assert sweeper.sweep(KIND)["resent"] == 0  # not due for a new send yet
    RegisterImport.objects.filter(pk=body["id"]).update(
        due_at=timezone.now() - timedelta(seconds=KIND.max_queued_seconds + 1)
    )

    assert sweeper.sweep(KIND)["failed"] == 1

    got = dpo.client.get(f"{STATUS_URL}/{body['id']}").json()
    assert got["status"] == "failed"
    assert got["error"]["code"] == "SERVICE_UNAVAILABLE"
    assert RegisterImport.objects.get(pk=body["id"]).file_key == ""
    assert not list(storages["default"].listdir(f"register-imports/{dpo.organization.pk}")[1])


@pytest.mark.usefixtures("register_imports_here")
def test_the_file_is_deleted_once_the_import_ran(dpo):
    body = post(dpo).json()

    assert body["status"] == "completed"
    assert body["result"]["totals"]["created"] == 2
    assert RegisterImport.objects.get(pk=body["id"]).file_key == ""
    assert not list(storages["default"].listdir(f"register-imports/{dpo.organization.pk}")[1])


def test_another_organizations_import_is_not_found_and_recorded(dpo):
    import_id = post(dpo, dryRun=True).json()["id"]
    outsider = make_caller()

    response = outsider.client.get(f"{STATUS_URL}/{import_id}")

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "NOT_FOUND"
    assert AuditEvent.objects.filter(
        organization=dpo.organization, outcome="denied", object_id=import_id
    ).exists()


def test_imports_past_the_running_limit_are_refused_with_import_limit(dpo, settings):
    settings.REGISTER_IMPORT_MAX_RUNNING = 2
    assert post(dpo, dryRun=True).status_code == 202
    assert post(dpo, dryRun=True).status_code == 202

    response = post(dpo, dryRun=True)

    assert response.status_code == 429
    assert response.json()["error"]["code"] == "IMPORT_LIMIT"
    assert RegisterImport.objects.count() == 2


@pytest.mark.usefixtures("register_imports_here")
def test_only_the_newest_finished_imports_are_kept(dpo, settings):
    settings.REGISTER_IMPORTS_KEPT = 2
    ids = [post(dpo, dryRun=True).json()["id"] for _ in range(4)]

    # Pruned when an import starts: the 2 newest finished ones, and the one starting.
    kept = {str(pk) for pk in RegisterImport.objects.values_list("pk", flat=True)}
    assert kept == set(ids[1:])


@pytest.mark.usefixtures("register_imports_here")
def test_a_plan_past_the_result_bound_lists_what_fits_and_counts_the_rest(dpo, settings):
    settings.REGISTER_IMPORT_RESULT_MAX_BYTES = 16 * 1024
    rows = "".join(f"Activity {n};Purpose {n};Art. 6(1)(b)\n" for n in range(300))
    content = ("Processing activity;Purpose;Legal basis\n" + rows).encode()

    result = post(dpo, content, dryRun=True).json()["result"]

    assert result["totals"]["created"] == 300
    assert 0 < len(result["rows"]) < 300
    assert result["omittedRows"] == 300 - len(result["rows"])
    stored_plan = RegisterImport.objects.get().result
    assert len(str(stored_plan).encode()) < 2 * settings.REGISTER_IMPORT_RESULT_MAX_BYTES


@pytest.mark.usefixtures("register_imports_here")
def test_the_end_of_an_import_is_a_webhook_event(dpo, django_capture_on_commit_callbacks):
    WebhookEndpointFactory(
        organization=dpo.organization,
        events=["register_import.completed", "register_import.failed"],
    )
    with django_capture_on_commit_callbacks(execute=True):
        done = post(dpo).json()
    with django_capture_on_commit_callbacks(execute=True):
        failed = post(dpo, b"Kunde;Umsatz\nMeier;100\n").json()

    deliveries = {d.event: d.payload for d in WebhookDelivery.objects.all()}
    completed = deliveries["register_import.completed"]
    assert (completed["importId"], completed["data"]["status"]) == (done["id"], "completed")
    assert completed["data"]["totals"]["created"] == 2
    refused = deliveries["register_import.failed"]
    assert refused["importId"] == failed["id"]
    assert refused["data"]["error"]["code"] == "VALIDATION_ERROR"


def test_a_file_over_the_import_limit_is_refused_with_413(dpo, settings):
    settings.REGISTER_IMPORT_MAX_BYTES = 1024

    response = post(dpo, CSV + b"x;y;z\n" * 400)

    assert response.status_code == 413
    assert response.json()["error"]["code"] == "FILE_TOO_LARGE"
    assert not RegisterImport.objects.exists()


def test_a_claimed_import_is_not_run_twice_while_its_lease_holds(dpo):
    import_id = post(dpo).json()["id"]

    first = jobs.claim(import_id=import_id)
    with pytest.raises(LeaseHeldError):
        jobs.claim(import_id=import_id)

    assert first is not None
    assert RegisterImport.objects.get(pk=import_id).attempts == 1


def test_the_sweep_requeues_an_expired_lease_then_fails_it_after_the_last_attempt(
    dpo, monkeypatch, django_capture_on_commit_callbacks
):
    from register.tasks import run_register_import_task

    sent: list[str] = []
    monkeypatch.setattr(
        run_register_import_task, "apply_async", lambda args, **options: sent.append(args[0])
    )
    with django_capture_on_commit_callbacks(execute=True):
        import_id = post(dpo).json()["id"]
    sent.clear()
    for attempt in range(1, KIND.max_attempts + 1):
        assert jobs.claim(import_id=import_id) is not None
        RegisterImport.objects.filter(pk=import_id).update(lease_expires_at=timezone.now())
        with django_capture_on_commit_callbacks(execute=True):
            sweeper.sweep(KIND)
        status = RegisterImport.objects.get(pk=import_id).status
        assert status == (ImportStatus.QUEUED if attempt < KIND.max_attempts else "failed")

    register_import = RegisterImport.objects.get(pk=import_id)
    assert register_import.error_code == "IMPORT_INTERRUPTED"
    assert register_import.file_key == ""
    assert sent == [import_id] * (KIND.max_attempts - 1)
    assert not ProcessingActivity.objects.exists()
