"""A rewrite of the trail by someone with database access (but not the evidence key).

They disable the append-only trigger, change an event, recompute its hash and every later
one as plain SHA-256 (all they can compute), and re-enable the trigger. The next audited
request of that organization must not bless the forged chain with a fresh signature:
`verify_audit_chain` reports the chain broken at the forged event.
"""

from __future__ import annotations

import hashlib
import logging

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.utils import timezone

from audit.chain import content_hash
from audit.checkpoints import checkpoint_row
from audit.models import AuditEvent, ChainCheckpoint
from audit.services import Actor, record_event, verify_chain
from tests.assets.factories import AssetFactory
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


def _plain_hash(event: AuditEvent) -> str:
    """What an attacker without the key computes: SHA-256(previous || content hash)."""
    own = content_hash(
        organization_id=str(event.organization_id) if event.organization_id else None,
        at=event.at, actor=event.actor, action=event.action, object_type=event.object_type,
        object_id=event.object_id, outcome=event.outcome, ip=event.ip, details=event.details,
    )  # fmt: skip
    return hashlib.sha256((event.previous_hash + own).encode()).hexdigest()


def _forge(organization, event_id: int, **changes) -> None:  # type: ignore[no-untyped-def]
    """Disable the trigger, change one event, recompute its hash and every later one."""
    events = list(AuditEvent.objects.filter(organization=organization).order_by("id"))
    previous_hash = "0" * 64
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("ALTER TABLE audit_auditevent DISABLE TRIGGER audit_event_append_only")
        cursor.execute(
            "UPDATE audit_auditevent SET hash = 'tmp-' || id WHERE organization_id = %s "
            "AND id >= %s",
            [organization.pk, event_id],
        )
        for event in events:
            if event.id < event_id:
                previous_hash = event.hash
                continue
            for field, value in (changes if event.id == event_id else {}).items():
                setattr(event, field, value)
            event.previous_hash = previous_hash
            event.hash = _plain_hash(event)
            previous_hash = event.hash
            cursor.execute(
                "UPDATE audit_auditevent SET actor = %s, outcome = %s, previous_hash = %s, "
                "hash = %s WHERE id = %s",
                [event.actor, event.outcome, event.previous_hash, event.hash, event.id],
            )
        cursor.execute("ALTER TABLE audit_auditevent ENABLE TRIGGER audit_event_append_only")


def test_a_rewrite_followed_by_an_audited_request_is_reported_at_the_forged_event(dpo, caplog):
    organization = dpo.organization
    asset = AssetFactory(organization=organization)
    events = [_record(organization, n) for n in range(4)]
    _forge(organization, events[1].id, actor="someone else", outcome="allowed")

    before = AuditEvent.objects.filter(organization=organization).count()
    with caplog.at_level(logging.ERROR, logger="audit"):
        response = dpo.client.get(f"/api/v1/assets/{asset.pk}")  # the next audited request
    assert response.status_code == 200
    assert AuditEvent.objects.filter(organization=organization).count() > before

    chain_break = verify_chain(organization_id=organization.pk)
    assert chain_break is not None
    assert chain_break.event_id == events[1].id
    assert any("audit chain" in record.getMessage() for record in caplog.records)
    with pytest.raises(CommandError):
        call_command("verify_audit_chain", "--org", organization.slug)


def test_a_forged_chain_is_not_signed_by_the_next_append():
    organization = OrganizationFactory()
    events = [_record(organization, n) for n in range(3)]
    signed_before = ChainCheckpoint.objects.get(chain=str(organization.pk))
    _forge(organization, events[0].id, actor="forger")
    _record(organization, 99)
    checkpoint = ChainCheckpoint.objects.get(chain=str(organization.pk))
    assert (checkpoint.head_event_id, checkpoint.head_hash) == (
        signed_before.head_event_id,
        signed_before.head_hash,
    )
    assert verify_chain(organization_id=organization.pk) is not None


def test_removing_the_newest_events_then_appending_is_still_reported():
    organization = OrganizationFactory()
    events = [_record(organization, n) for n in range(4)]
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("ALTER TABLE audit_auditevent DISABLE TRIGGER audit_event_append_only")
        cursor.execute("DELETE FROM audit_auditevent WHERE id >= %s", [events[2].id])
        cursor.execute("ALTER TABLE audit_auditevent ENABLE TRIGGER audit_event_append_only")
    _record(organization, 99)
    assert verify_chain(organization_id=organization.pk) is not None


def test_every_link_is_keyed_so_an_edit_is_reported_where_it_happened():
    organization = OrganizationFactory()
    events = [_record(organization, n) for n in range(5)]
    _forge(organization, events[3].id, outcome="allowed", actor="x")
    chain_break = verify_chain(organization_id=organization.pk)
    assert chain_break is not None
    assert chain_break.event_id == events[3].id


def test_links_keyed_before_a_rotation_verify_with_the_old_key(settings):
    settings.EVIDENCE_SIGNING_KEY = OLD_KEY
    organization = OrganizationFactory()
    _record(organization, 1)
    settings.EVIDENCE_SIGNING_KEY = NEW_KEY
    settings.EVIDENCE_SIGNING_OLD_KEYS = [OLD_KEY]
    _record(organization, 2)
    assert verify_chain(organization_id=organization.pk) is None
    settings.EVIDENCE_SIGNING_OLD_KEYS = []
    chain_break = verify_chain(organization_id=organization.pk)
    assert chain_break is not None
    assert "unknown key" in chain_break.reason


def _insert_legacy_events(organization, count: int) -> list[AuditEvent]:  # type: ignore[no-untyped-def]
    """Events as written before links were keyed: plain SHA-256, no link key, signed head."""
    previous_hash = "0" * 64
    for number in range(count):
        event = AuditEvent(
            organization=organization, at=timezone.now(), actor="legacy@example.com",
            action="document.read", object_type="document", object_id=f"old-{number}",
            outcome="allowed", ip=None, details={"n": number}, previous_hash=previous_hash,
        )  # fmt: skip
        event.hash = _plain_hash(event)
        event.save()
        previous_hash = event.hash
    row = checkpoint_row(
        chain=str(organization.pk), head_event_id=event.id, head_hash=event.hash,
        signed_at=timezone.now(),
    )  # fmt: skip
    fields = ("chain", "head_event_id", "head_hash", "signed_at", "key_id", "signature")
    ChainCheckpoint.objects.create(**dict(zip(fields, row, strict=True)))
    return list(AuditEvent.objects.filter(organization=organization).order_by("id"))


def test_events_from_before_keyed_links_still_verify_and_are_covered_by_the_first_keyed_one():
    organization = OrganizationFactory()
    legacy = _insert_legacy_events(organization, 3)
    keyed = _record(organization, 1)
    assert keyed.link_key_id and not legacy[0].link_key_id
    assert keyed.previous_hash == legacy[-1].hash
    assert verify_chain(organization_id=organization.pk) is None

    _forge(organization, legacy[1].id, actor="someone else")
    chain_break = verify_chain(organization_id=organization.pk)
    assert chain_break is not None
    assert chain_break.event_id == keyed.id  # the first keyed link no longer holds


def test_a_keyed_event_rewritten_as_an_unkeyed_one_is_reported():
    organization = OrganizationFactory()
    events = [_record(organization, n) for n in range(3)]
    _forge(organization, events[1].id, actor="forger")
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE audit_auditevent DISABLE TRIGGER audit_event_append_only")
        cursor.execute(
            "UPDATE audit_auditevent SET link_key_id = '' WHERE organization_id = %s AND id >= %s",
            [organization.pk, events[1].id],
        )
        cursor.execute("ALTER TABLE audit_auditevent ENABLE TRIGGER audit_event_append_only")
    chain_break = verify_chain(organization_id=organization.pk)
    assert chain_break is not None
    assert chain_break.event_id == events[1].id
