"""A register change marks documents stale through a Celery task: the receiver only enqueues.

The end-to-end behaviour (which documents, the API, the admin) is in test_register_documents.py
and tests/admin/test_stale_documents.py; here: the receiver and the task on their own.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from kombu.exceptions import OperationalError as KombuOperationalError

from legal_documents.models import LegalDocument
from legal_documents.tasks import mark_stale_task
from register.models import Vendor
from tests.legal_documents.test_register_documents import _save, create, seed_register
from tests.webhooks.factories import WebhookEndpointFactory
from webhooks.models import WebhookDelivery

pytestmark = pytest.mark.django_db


@pytest.fixture
def enqueued(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """The arguments of each `mark_stale_task` sent to the broker, kept here instead."""
    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(mark_stale_task, "delay", lambda *args: calls.append(args))
    return calls


def stale_ids() -> set[str]:
    return {
        str(pk)
        for pk in LegalDocument.objects.filter(stale_since__isnull=False).values_list(
            "pk", flat=True
        )
    }


def test_a_register_write_only_enqueues_the_marking_with_string_ids(
    dpo, enqueued, django_capture_on_commit_callbacks
):
    register = seed_register(dpo.organization)
    WebhookEndpointFactory(organization=dpo.organization, events=["document.stale"])
    create(dpo, "DATA_PROCESSING_AGREEMENT", vendorId=str(register["lohncloud"].pk))
    create(dpo, "RECORD_OF_PROCESSING")

    with django_capture_on_commit_callbacks(execute=True):
        _save(register["lohncloud"], country="Switzerland")

    # One task, its arguments as they travel (JSON), the vendor's linked activity included.
    assert json.loads(json.dumps(enqueued)) == [
        [str(dpo.organization.pk), [str(register["payroll"].pk)], [str(register["lohncloud"].pk)]]
    ]
    # Nothing was marked, and no event queued, by the request that wrote the register.
    assert stale_ids() == set()
    assert not WebhookDelivery.objects.filter(event="document.stale").exists()


def test_the_task_marks_once_and_a_second_run_changes_nothing(
    dpo, enqueued, django_capture_on_commit_callbacks
):
    register = seed_register(dpo.organization)
    WebhookEndpointFactory(organization=dpo.organization, events=["document.stale"])
    dpa = create(dpo, "DATA_PROCESSING_AGREEMENT", vendorId=str(register["lohncloud"].pk))
    whole = create(dpo, "RECORD_OF_PROCESSING")
    fresh = create(dpo, "DATA_PROCESSING_AGREEMENT", vendorId=str(register["crm"].pk))
    with django_capture_on_commit_callbacks(execute=True):
        _save(register["lohncloud"], country="Switzerland")
    (arguments,) = json.loads(json.dumps(enqueued))

    with django_capture_on_commit_callbacks(execute=True):
        assert mark_stale_task.apply(args=arguments, throw=True).get() == 2
    assert stale_ids() == {str(dpa.pk), str(whole.pk)}
    first = LegalDocument.objects.get(pk=dpa.pk).stale_since
    deliveries = WebhookDelivery.objects.filter(event="document.stale")
    assert sorted(d.payload["documentId"] for d in deliveries) == sorted(
        [str(dpa.pk), str(whole.pk)]
    )

    # Delivered twice (a redelivery after a lost worker): the first stale_since, no 2nd event.
    with django_capture_on_commit_callbacks(execute=True):
        assert mark_stale_task.apply(args=arguments, throw=True).get() == 0
    assert LegalDocument.objects.get(pk=dpa.pk).stale_since == first
    assert deliveries.count() == 2
    assert LegalDocument.objects.get(pk=fresh.pk).stale_since is None


def test_a_broker_that_refuses_the_task_never_fails_the_register_write(
    dpo, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    def broker_down(*args: Any) -> None:
        raise KombuOperationalError("Error 111 connecting to localhost:6379. Connection refused.")

    register = seed_register(dpo.organization)
    create(dpo, "DATA_PROCESSING_AGREEMENT", vendorId=str(register["lohncloud"].pk))
    monkeypatch.setattr(mark_stale_task, "delay", broker_down)
    revision = Vendor.objects.get(pk=register["lohncloud"].pk).revision

    with (
        caplog.at_level(logging.ERROR, logger="legal_documents.staleness"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        _save(register["lohncloud"], country="Switzerland")

    assert Vendor.objects.get(pk=register["lohncloud"].pk).revision == revision + 1
    assert Vendor.objects.get(pk=register["lohncloud"].pk).country == "Switzerland"
    assert "could not enqueue marking the documents" in caplog.text
    assert stale_ids() == set()


def test_an_import_of_many_rows_enqueues_one_marking_for_all_of_them(
    dpo, enqueued, django_capture_on_commit_callbacks
):
    # One task per written row flooded the queue every tenant's webhooks share (issue 25,
    # item 10): an import is one change set, one task.
    from audit.services import Actor
    from register.importing import import_register

    csv = "Vendor;Country\n" + "".join(f"Vendor {n} GmbH;Germany\n" for n in range(30))
    with django_capture_on_commit_callbacks(execute=True):
        import_register(
            organization=dpo.organization, content=csv.encode(), file_name="vendors.csv",
            actor=Actor(label="t"), dry_run=False,
        )  # fmt: skip

    (arguments,) = json.loads(json.dumps(enqueued))
    organization_id, activity_ids, vendor_ids = arguments
    assert organization_id == str(dpo.organization.pk)
    assert activity_ids == []
    written = Vendor.objects.values_list("pk", flat=True)
    assert sorted(vendor_ids) == sorted(str(pk) for pk in written)
    assert len(vendor_ids) == 30


def test_the_marking_has_a_queue_of_its_own():
    from config.celery import app

    def queue_of(task_name: str) -> str:
        return str(app.amqp.router.route({}, task_name)["queue"].name)

    staleness = queue_of(mark_stale_task.name)
    assert staleness not in {"webhooks", "generation", "ingestion", "packages"}
    assert queue_of("webhooks.tasks.deliver_webhook_task") == "webhooks"
