"""The audit trail is append-only and hash-chained; tampering is detected."""

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, connections, transaction

from audit.models import AppendOnlyError, AuditEvent
from audit.services import Actor, record_event, verify_chain
from tests.factories import OrganizationFactory

ACTOR = Actor(label="dpo@example.com", ip="127.0.0.1")


def _record(organization, number: int) -> AuditEvent:  # type: ignore[no-untyped-def]
    return record_event(
        organization=organization, actor=ACTOR, action="document.read",
        object_type="document", object_id=f"doc-{number}", details={"n": number},
    )  # fmt: skip


def _tamper(sql: str, params: list) -> None:
    """What someone with direct database access could do: bypass the append-only trigger."""
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no pending FK checks before ALTER
        cursor.execute("ALTER TABLE audit_auditevent DISABLE TRIGGER audit_event_append_only")
        cursor.execute(sql, params)
        cursor.execute("ALTER TABLE audit_auditevent ENABLE TRIGGER audit_event_append_only")


@pytest.mark.django_db
def test_events_link_to_their_predecessor():
    organization = OrganizationFactory()
    first, second = _record(organization, 1), _record(organization, 2)
    assert first.previous_hash == "0" * 64
    assert second.previous_hash == first.hash
    assert verify_chain(organization_id=organization.pk) is None


@pytest.mark.django_db
def test_it_detects_an_edited_event():
    organization = OrganizationFactory()
    events = [_record(organization, n) for n in range(5)]
    _tamper("UPDATE audit_auditevent SET actor = 'someone else' WHERE id = %s", [events[2].id])
    chain_break = verify_chain(organization_id=organization.pk)
    assert chain_break is not None
    assert chain_break.event_id == events[2].id
    assert "edited" in chain_break.reason


@pytest.mark.django_db
def test_it_detects_a_deleted_event():
    organization = OrganizationFactory()
    events = [_record(organization, n) for n in range(5)]
    _tamper("DELETE FROM audit_auditevent WHERE id = %s", [events[2].id])
    chain_break = verify_chain(organization_id=organization.pk)
    assert chain_break is not None
    assert chain_break.event_id == events[3].id


@pytest.mark.django_db
def test_the_command_reports_the_first_broken_link():
    organization = OrganizationFactory(slug="tampered")
    events = [_record(organization, n) for n in range(3)]
    call_command("verify_audit_chain", "--org", "tampered")
    _tamper(
        "UPDATE audit_auditevent SET outcome = 'allowed', action = 'x' WHERE id = %s",
        [events[1].id],
    )
    with pytest.raises(CommandError):
        call_command("verify_audit_chain", "--org", "tampered")


@pytest.mark.django_db
def test_events_cannot_be_changed_or_deleted_through_django_or_sql():
    event = _record(OrganizationFactory(), 1)
    event.actor = "changed"
    with pytest.raises(AppendOnlyError):
        event.save()
    with pytest.raises(AppendOnlyError):
        event.delete()
    with pytest.raises(AppendOnlyError):
        AuditEvent.objects.all().delete()
    with (
        pytest.raises(Exception, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("DELETE FROM audit_auditevent")


@pytest.mark.django_db(transaction=True)
def test_200_concurrent_writes_leave_a_chain_that_verifies():
    organization = OrganizationFactory()

    def write(number: int) -> None:
        try:
            _record(organization, number)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(write, range(200)))

    assert AuditEvent.objects.filter(organization=organization).count() == 200
    assert verify_chain(organization_id=organization.pk) is None
    hashes = AuditEvent.objects.filter(organization=organization).values_list(
        "previous_hash", flat=True
    )
    assert len(set(hashes)) == 200  # no two events claim the same predecessor


@pytest.mark.django_db
def test_the_api_lists_events_with_filters(auditor, dpo):
    dpo.client.get("/api/v1/client-companies")
    dpo.client.post("/api/v1/client-companies", {"name": "Acme"}, format="json")
    events = auditor.client.get("/api/v1/audit-events?action=client_company.create").json()
    assert events["totalCount"] == 1
    event = events["events"][0]
    assert set(event) == {
        "id", "at", "actor", "organizationId", "action", "objectType", "objectId",
        "outcome", "ip", "hash", "previousHash",
    }  # fmt: skip
    assert event["organizationId"] == str(dpo.organization.pk)
    assert auditor.client.get("/api/v1/audit-events?outcome=maybe").status_code == 400
