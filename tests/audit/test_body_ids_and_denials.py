"""Ids of another organization's objects given in a request BODY are recorded in the owner's
trail (as ids in a path already are), and permission denials are throttled."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from tests.register.factories import ProcessingActivityFactory, VendorFactory

pytestmark = pytest.mark.django_db

DOCUMENTS = "/api/v1/legal-documents"
ACTIVITIES = "/api/v1/processing-activities"
ANONYMISED = "member of another organization"


def owner_trail(organization, object_id) -> list[AuditEvent]:  # type: ignore[no-untyped-def]
    return list(
        AuditEvent.objects.filter(
            organization=organization, outcome="denied", object_id=str(object_id)
        )
    )


def test_a_vendor_id_of_another_organization_in_a_document_body_is_in_the_owners_trail(
    dpo, outsider
):
    vendor = VendorFactory(organization=dpo.organization)
    response = outsider.client.post(
        DOCUMENTS,
        {"documentType": "DATA_PROCESSING_AGREEMENT", "companyName": "Acme",
         "vendorId": str(vendor.pk)},
        format="json",
    )  # fmt: skip
    assert response.status_code == 400
    [event] = owner_trail(dpo.organization, vendor.pk)
    assert event.actor.startswith(ANONYMISED)
    assert event.object_type == "vendor"
    assert outsider.membership.user.email not in str(event.details)
    assert AuditEvent.objects.filter(
        organization=outsider.organization, outcome="denied", object_id=str(vendor.pk)
    ).exists()


def test_activity_ids_of_another_organization_in_a_document_body_are_in_the_owners_trail(
    dpo, outsider
):
    activity = ProcessingActivityFactory(organization=dpo.organization)
    own = ProcessingActivityFactory(organization=outsider.organization)
    response = outsider.client.post(
        DOCUMENTS,
        {"documentType": "PRIVACY_POLICY", "companyName": "Acme",
         "processingActivityIds": [str(own.pk), str(activity.pk)]},
        format="json",
    )  # fmt: skip
    assert response.status_code == 400
    [event] = owner_trail(dpo.organization, activity.pk)
    assert event.actor.startswith(ANONYMISED)
    assert not owner_trail(dpo.organization, own.pk)


def test_a_vendor_id_of_another_organization_in_a_register_body_is_in_the_owners_trail(
    dpo, outsider
):
    vendor = VendorFactory(organization=dpo.organization)
    response = outsider.client.post(
        ACTIVITIES,
        {"name": "Payroll", "purposes": ["Payroll"], "vendorIds": [str(vendor.pk)]},
        format="json",
    )
    assert response.status_code == 400
    [event] = owner_trail(dpo.organization, vendor.pk)
    assert event.actor.startswith(ANONYMISED)


def test_an_unknown_id_in_a_body_records_nothing_in_any_other_trail(dpo, outsider):
    before = AuditEvent.objects.filter(organization=dpo.organization).count()
    response = outsider.client.post(
        ACTIVITIES,
        {"name": "Payroll", "vendorIds": ["9b2f9a56-4a53-4c43-9d6e-3f1d2b1a0c11"]},
        format="json",
    )
    assert response.status_code == 400
    assert AuditEvent.objects.filter(organization=dpo.organization).count() == before


def test_permission_denials_are_throttled_and_stop_growing_the_trail(auditor, settings):
    settings.PERMISSION_DENIALS_PER_MINUTE = 3
    codes = [
        auditor.client.post(ACTIVITIES, {"name": f"x{n}"}, format="json").status_code
        for n in range(8)
    ]
    assert codes == [403, 403, 403, 429, 429, 429, 429, 429]
    denied = AuditEvent.objects.filter(
        organization=auditor.organization, outcome="denied", action__endswith=".post"
    )
    assert denied.count() == 3
    # Reads are not denials: the auditor still reads.
    assert auditor.client.get(ACTIVITIES).status_code == 200
