"""Recording audit events: the one way in (`record_event`)."""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from audit.chain import GENESIS_HASH, ChainBreak, event_hash, first_break
from audit.models import AuditEvent, Outcome


@dataclass(frozen=True)
class Actor:
    """Who did something: a user (by e-mail) and the API key used, if any."""

    label: str
    user_id: int | None = None
    ip: str | None = None


def _clean(value: Any) -> Any:
    """PostgreSQL text and jsonb refuse NUL characters; a hostile path or id must not make
    the record of a denied attempt fail."""
    if isinstance(value, str):
        return value.replace("\x00", "\ufffd")
    if isinstance(value, dict):
        return {_clean(key): _clean(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(item) for item in value]
    return value


def _chain_lock_key(organization_id: Any) -> int:
    digest = hashlib.sha256(f"audit-chain:{organization_id}".encode()).digest()
    return struct.unpack(">q", digest[:8])[0]


@transaction.atomic
def record_event(
    *,
    organization: Any | None,
    actor: Actor,
    action: str,
    outcome: str = Outcome.ALLOWED,
    object_type: str = "",
    object_id: Any = "",
    details: dict[str, Any] | None = None,
) -> AuditEvent:
    """Append one event to the organization's chain (or to the chain of unattributed events).

    A PostgreSQL advisory lock per organization, held until the transaction ends, serializes
    writers of one chain: two concurrent events can never claim the same predecessor.
    """
    organization_id = getattr(organization, "pk", None)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_chain_lock_key(organization_id)])
    last = (
        AuditEvent.objects.filter(organization_id=organization_id)
        .order_by("-id")
        .values_list("hash", flat=True)
        .first()
    )
    previous_hash = last or GENESIS_HASH
    content = {
        "organization_id": str(organization_id) if organization_id else None,
        "at": timezone.now(),
        "actor": _clean(actor.label)[:255],
        "action": _clean(action)[:64],
        "object_type": _clean(object_type)[:64],
        "object_id": _clean(str(object_id or ""))[:64],
        "outcome": str(outcome),
        "ip": actor.ip,
        "details": _clean(details or {}),
        "previous_hash": previous_hash,
    }
    return AuditEvent.objects.create(
        organization_id=organization_id,
        actor_user_id=actor.user_id,
        at=content["at"],
        actor=content["actor"],
        action=content["action"],
        object_type=content["object_type"],
        object_id=content["object_id"],
        outcome=content["outcome"],
        ip=actor.ip,
        details=content["details"],
        previous_hash=previous_hash,
        hash=event_hash(**content),
    )


def verify_chain(*, organization_id: Any | None) -> ChainBreak | None:
    """Check one organization's chain (None: the unattributed events)."""
    events = AuditEvent.objects.filter(organization_id=organization_id).order_by("id")
    return first_break(events.iterator(chunk_size=2000))
