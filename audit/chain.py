"""How an audit event is hashed, and how a chain is checked.

An event's `hash` links it to its predecessor: HMAC-SHA256, with the evidence key
(common.evidence, purpose AUDIT_LINK), of its predecessor's hash and the SHA-256 of its own
content (canonical JSON of every field but the hashes); `link_key_id` names the key. The
key never reaches the database, so whoever can rewrite rows there cannot recompute a link:
an edited event is reported where it was edited, even if every later hash was recomputed.
A plain SHA-256 chain could be recomputed by anyone with database access, and the next
append would then have signed the forged head.

Events written before links were keyed (`link_key_id` empty) keep their SHA-256 link
(`link_hash`, the twin of the SQL of migration 0003), so their stored hashes stay valid.
They are accepted only as the oldest part of a chain: the first keyed event covers their
last hash, so from then on they cannot be rewritten either; an unkeyed event after a keyed
one is a forgery.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from common.canonical import canonical_sha256
from common.evidence import AUDIT_LINK, Signature, sign, signature_by

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


def _link_payload(previous_hash: str, own_content_hash: str) -> dict[str, str]:
    return {"previousHash": previous_hash, "contentHash": own_content_hash}


def keyed_link(previous_hash: str, own_content_hash: str) -> Signature:
    """The hash of a new event (and the id of the key that made it), with the current key."""
    return sign(purpose=AUDIT_LINK, payload=_link_payload(previous_hash, own_content_hash))


def hash_of_stored_event(event: Any) -> str | None:
    """The hash `event` must carry given its content and predecessor; None when the key
    named by its `link_key_id` is not configured (neither current nor old)."""
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
    key_id = getattr(event, "link_key_id", "")
    if not key_id:
        return link_hash(event.previous_hash, own)
    return signature_by(
        purpose=AUDIT_LINK, payload=_link_payload(event.previous_hash, own), key_id=key_id
    )


@dataclass(frozen=True)
class ChainBreak:
    event_id: int | None  # None: no event to point at (a chain with no signed head)
    reason: str


def first_break(events: Iterable[Any]) -> ChainBreak | None:
    """Walk one organization's events oldest first; return the first broken link, if any.

    An edited event no longer matches its own hash; a deleted event leaves the next one
    pointing at a hash that is not its predecessor's. Since links are keyed, recomputing
    the hashes after an edit does not hide it.
    """
    expected_previous = GENESIS_HASH
    keyed = False
    for event in events:
        if event.previous_hash != expected_previous:
            return ChainBreak(
                event.id,
                "previous hash does not match: an event before it was removed or changed",
            )
        if event.link_key_id:
            keyed = True
        elif keyed:
            return ChainBreak(event.id, "unkeyed hash after keyed ones: the event was rewritten")
        expected = hash_of_stored_event(event)
        if expected is None:
            return ChainBreak(
                event.id,
                f"its hash is keyed with an unknown key ({event.link_key_id}): "
                "add the key to EVIDENCE_SIGNING_OLD_KEYS",
            )
        if expected != event.hash:
            return ChainBreak(event.id, "content does not match its hash: the event was edited")
        expected_previous = event.hash
    return None
