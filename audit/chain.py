"""How an audit event is hashed, and how a chain is checked.

An event's `hash` is SHA-256 over its predecessor's hash followed by the SHA-256 of its own
content (canonical JSON of every field but the hashes). The content hash is computed here;
the link is computed by the database function `audit_append` (see the migration), which
reads the predecessor under a lock and inserts in one statement. Both sides must agree:
`link_hash` is the Python twin of that SQL expression.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from common.canonical import canonical_sha256

GENESIS_HASH = "0" * 64


def content_hash(
    *,
    organization_id: str | None,
    at: datetime,
    actor: str,
    action: str,
    object_type: str,
    object_id: str,
    outcome: str,
    ip: str | None,
    details: dict[str, Any],
) -> str:
    """SHA-256 of the event's content as sorted-key JSON, so the hash is reproducible."""
    content = {
        "organizationId": organization_id,
        "at": at.isoformat(),
        "actor": actor,
        "action": action,
        "objectType": object_type,
        "objectId": object_id,
        "outcome": outcome,
        "ip": ip,
        "details": details,
    }
    return canonical_sha256(content, ascii_only=True)


def link_hash(previous_hash: str, own_content_hash: str) -> str:
    """`encode(sha256(convert_to(previous || content, 'UTF8')), 'hex')` in the database."""
    return hashlib.sha256((previous_hash + own_content_hash).encode()).hexdigest()


def hash_of_stored_event(event: Any) -> str:
    own = content_hash(
        organization_id=str(event.organization_id) if event.organization_id else None,
        at=event.at,
        actor=event.actor,
        action=event.action,
        object_type=event.object_type,
        object_id=event.object_id,
        outcome=event.outcome,
        ip=event.ip,
        details=event.details,
    )
    return link_hash(event.previous_hash, own)


@dataclass(frozen=True)
class ChainBreak:
    event_id: int | None  # None: no event to point at (a chain with no signed head)
    reason: str


def first_break(events: Iterable[Any]) -> ChainBreak | None:
    """Walk one organization's events oldest first; return the first broken link, if any.

    An edited event no longer matches its own hash; a deleted event leaves the next one
    pointing at a hash that is not its predecessor's.
    """
    expected_previous = GENESIS_HASH
    for event in events:
        if event.previous_hash != expected_previous:
            return ChainBreak(
                event.id,
                "previous hash does not match: an event before it was removed or changed",
            )
        if hash_of_stored_event(event) != event.hash:
            return ChainBreak(event.id, "content does not match its hash: the event was edited")
        expected_previous = event.hash
    return None
