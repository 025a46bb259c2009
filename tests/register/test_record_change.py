"""register.services.record_change: revision, audit event, and the change announced on commit."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from audit.services import Actor
from register.models import ProcessingActivity, Vendor
from register.services import record_change
from register.signals import register_changed
from tests.factories import OrganizationFactory

pytestmark = pytest.mark.django_db(transaction=True)
ACTOR = Actor(label="dpo@example.com")


@pytest.fixture
def announced():
    received: list[dict] = []

    def receiver(**kwargs):
        received.append(kwargs)

    register_changed.connect(receiver, dispatch_uid="test-announced")
    yield received
    register_changed.disconnect(dispatch_uid="test-announced")


def test_a_change_moves_the_revision_is_audited_and_announced(announced) -> None:
    organization = OrganizationFactory()
    activity = ProcessingActivity.objects.create(organization=organization, name="Payroll")

    record_change(entry=activity, actor=ACTOR, action="updated", changed_fields=["purposes"])

    assert activity.revision == 2
    event = AuditEvent.objects.get(action="processing_activity.updated")
    assert event.object_id == str(activity.pk)
    assert event.details["fields"] == ["purposes"]
    assert announced[0]["activity_ids"] == {activity.pk}
    assert announced[0]["vendor_ids"] == frozenset()


def test_a_vendor_change_concerns_the_activities_linked_to_it(announced) -> None:
    organization = OrganizationFactory()
    vendor = Vendor.objects.create(organization=organization, name="Payroll Cloud GmbH")
    linked = ProcessingActivity.objects.create(organization=organization, name="Payroll")
    ProcessingActivity.objects.create(organization=organization, name="CCTV")
    linked.vendors.add(vendor)

    record_change(entry=vendor, actor=ACTOR, action="updated", changed_fields=["country"])

    assert announced[0]["vendor_ids"] == {vendor.pk}
    assert announced[0]["activity_ids"] == {linked.pk}


def test_nothing_is_announced_when_the_transaction_rolls_back(announced) -> None:
    from django.db import transaction

    organization = OrganizationFactory()
    activity = ProcessingActivity.objects.create(organization=organization, name="Payroll")
    with pytest.raises(RuntimeError), transaction.atomic():
        record_change(entry=activity, actor=ACTOR, action="updated")
        raise RuntimeError("the caller's write failed")

    assert announced == []
    activity.refresh_from_db()
    assert activity.revision == 1
