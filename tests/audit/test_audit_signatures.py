"""The head of each audit chain is signed with a key outside the database.

Someone with database access can disable the append-only trigger, change an event and
recompute every hash after it: the SHA-256 chain is then consistent again. The signed head
is what they cannot recompute.
"""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, transaction

from audit.chain import hash_of_stored_event
from audit.models import AuditEvent, ChainCheckpoint
from audit.services import Actor, record_event, verify_chain
from tests.factories import OrganizationFactory

pytestmark = pytest.mark.django_db

ACTOR = Actor(label="dpo@example.com", ip="127.0.0.1")
OLD_KEY = "the-key-before-the-rotation-0123456789abcdef"
NEW_KEY = "the-key-after-the-rotation-fedcba9876543210"


def _record(organization, number: int) -> AuditEvent:  # type: ignore[no-untyped-def]
    return record_event(
        organization=organization, actor=ACTOR, action="document.read",
        object_type="document", object_id=f"doc-{number}", details={"n": number},
    )  # fmt: skip


def _as_superuser(statements: list[tuple[str, list]]) -> None:
    """What a database superuser can do: run SQL with the audit table's triggers disabled."""
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("ALTER TABLE audit_auditevent DISABLE TRIGGER USER")
        for sql, params in statements:
            cursor.execute(sql, params)
        cursor.execute("ALTER TABLE audit_auditevent ENABLE TRIGGER USER")


def _rewrite_consistently(organization, event_id: int, **changes) -> None:  # type: ignore[no-untyped-def]
    """Change one event, then recompute the hash and link of it and of every later event."""
    events = list(AuditEvent.objects.filter(organization=organization).order_by("id"))
    statements = []
    previous_hash = None
    for event in events:
        if event.id == event_id:
            for field, value in changes.items():
                setattr(event, field, value)
        if event.id < event_id:
            previous_hash = event.hash
            continue
        event.previous_hash = previous_hash or "0" * 64
        event.hash = hash_of_stored_event(event)
        previous_hash = event.hash
        statements.append((
            "UPDATE audit_auditevent SET actor = %s, action = %s, outcome = %s, "
            "previous_hash = %s, hash = %s WHERE id = %s",
            [event.actor, event.action, event.outcome, event.previous_hash, event.hash, event.id],
        ))  # fmt: skip
    # Unique hashes: clear them first so the rewritten values never collide midway.
    statements.insert(
        0,
        (
            "UPDATE audit_auditevent SET hash = 'tmp-' || id WHERE organization_id = %s "
            "AND id >= %s",
            [organization.pk, event_id],
        ),
    )
    _as_superuser(statements)


def test_every_append_leaves_a_signed_checkpoint_of_the_head():
    organization = OrganizationFactory()
    events = [_record(organization, n) for n in range(3)]
    checkpoint = ChainCheckpoint.objects.get(chain=str(organization.pk))
    assert checkpoint.head_event_id == events[-1].id
    assert checkpoint.head_hash == events[-1].hash
    assert checkpoint.key_id and len(checkpoint.signature) == 64
    assert verify_chain(organization_id=organization.pk) is None
    _record(None, 1)
    assert verify_chain(organization_id=None) is None


def test_a_consistently_rewritten_chain_is_detected_by_its_signed_head():
    organization = OrganizationFactory()
    events = [_record(organization, n) for n in range(5)]
    _rewrite_consistently(organization, events[2].id, actor="someone else", outcome="allowed")
    stored = list(AuditEvent.objects.filter(organization=organization).order_by("id"))
    assert stored[2].actor == "someone else"
    assert all(hash_of_stored_event(event) == event.hash for event in stored)  # consistent
    chain_break = verify_chain(organization_id=organization.pk)
    assert chain_break is not None
    assert "signed" in chain_break.reason


def test_the_command_fails_on_a_consistently_rewritten_chain():
    organization = OrganizationFactory(slug="rewritten")
    events = [_record(organization, n) for n in range(3)]
    call_command("verify_audit_chain", "--org", "rewritten")
    _rewrite_consistently(organization, events[0].id, action="document.export")
    with pytest.raises(CommandError):
        call_command("verify_audit_chain", "--org", "rewritten")


def test_removing_the_newest_events_is_detected():
    organization = OrganizationFactory()
    events = [_record(organization, n) for n in range(4)]
    _as_superuser([("DELETE FROM audit_auditevent WHERE id >= %s", [events[2].id])])
    chain_break = verify_chain(organization_id=organization.pk)
    assert chain_break is not None
    assert "signed head" in chain_break.reason


def test_a_chain_whose_checkpoint_was_deleted_is_not_valid():
    organization = OrganizationFactory()
    _record(organization, 1)
    ChainCheckpoint.objects.filter(chain=str(organization.pk)).delete()
    chain_break = verify_chain(organization_id=organization.pk)
    assert chain_break is not None
    assert "not signed" in chain_break.reason


def test_a_forged_checkpoint_signature_is_not_valid():
    organization = OrganizationFactory()
    events = [_record(organization, n) for n in range(3)]
    _rewrite_consistently(organization, events[1].id, actor="forger")
    head = AuditEvent.objects.filter(organization=organization).order_by("-id").first()
    ChainCheckpoint.objects.filter(chain=str(organization.pk)).update(head_hash=head.hash)
    chain_break = verify_chain(organization_id=organization.pk)
    assert chain_break is not None
    assert "signature does not match" in chain_break.reason


def test_a_wrong_key_fails_verification(settings):
    organization = OrganizationFactory()
    _record(organization, 1)
    settings.EVIDENCE_SIGNING_KEY = NEW_KEY
    chain_break = verify_chain(organization_id=organization.pk)
    assert chain_break is not None
    assert "unknown key" in chain_break.reason


def test_after_a_rotation_the_old_key_still_verifies_and_new_events_use_the_new_key(settings):
    settings.EVIDENCE_SIGNING_KEY = OLD_KEY
    organization = OrganizationFactory()
    _record(organization, 1)
    old_key_id = ChainCheckpoint.objects.get(chain=str(organization.pk)).key_id
    settings.EVIDENCE_SIGNING_KEY = NEW_KEY
    settings.EVIDENCE_SIGNING_OLD_KEYS = [OLD_KEY]
    assert verify_chain(organization_id=organization.pk) is None
    _record(organization, 2)
    assert ChainCheckpoint.objects.get(chain=str(organization.pk)).key_id != old_key_id
    # The first event's link is keyed with the old key: it must stay configured to verify.
    settings.EVIDENCE_SIGNING_OLD_KEYS = []
    chain_break = verify_chain(organization_id=organization.pk)
    assert chain_break is not None
    assert "unknown key" in chain_break.reason


def test_the_audit_table_cannot_be_truncated():
    _record(OrganizationFactory(), 1)
    with (
        pytest.raises(Exception, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no pending FK checks first
        cursor.execute("TRUNCATE audit_auditevent CASCADE")
    assert AuditEvent.objects.exists()
