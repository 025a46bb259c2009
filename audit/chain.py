"""How an audit event is hashed, and how a chain is checked."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

GENESIS_HASH = "0" * 64


def canonical_content(
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
    previous_hash: str,
) -> bytes:
    """The exact bytes hashed for an event: sorted-key JSON, so the hash is reproducible."""
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
        "previousHash": previous_hash,
    }
    return json.dumps(content, sort_keys=True, separators=(",", ":"), default=str).encode()


def event_hash(**content: Any) -> str:
    return hashlib.sha256(canonical_content(**content)).hexdigest()


def hash_of_stored_event(event: Any) -> str:
    return event_hash(
        organization_id=str(event.organization_id) if event.organization_id else None,
        at=event.at,
        actor=event.actor,
        action=event.action,
        object_type=event.object_type,
        object_id=event.object_id,
        outcome=event.outcome,
        ip=event.ip,
        details=event.details,
        previous_hash=event.previous_hash,
    )


@dataclass(frozen=True)
class ChainBreak:
    event_id: int
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
                event.id, "previous hash does not match: an event before it was removed or changed"
            )
        if hash_of_stored_event(event) != event.hash:
            return ChainBreak(event.id, "content does not match its hash: the event was edited")
        expected_previous = event.hash
    return None
