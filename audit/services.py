"""Recording audit events: the one way in (`record_event`)."""

from __future__ import annotations

import hashlib
import json
import logging
import struct
from dataclasses import dataclass
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.utils import timezone

from audit.chain import GENESIS_HASH, ChainBreak, content_hash, first_break, keyed_link
from audit.checkpoints import (
    UPSERT_SQL,
    StoredCheckpoint,
    chain_name,
    checkpoint_problem,
    checkpoint_row,
    head_problem,
)
from audit.models import AuditEvent, ChainCheckpoint, Outcome

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Actor:
    """Who did something: a user (by e-mail) and the API key used, if any."""

    label: str
    user_id: int | None = None
    ip: str | None = None
    # The prefix of the API key used (never the secret): what another organization's trail
    # may show of this actor (`record_foreign_attempt`).
    key_prefix: str | None = None


FOREIGN_ACTOR = "member of another organization"


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


def event_content(
    *,
    organization_id: Any | None,
    actor: Actor,
    action: str,
    outcome: str,
    object_type: str,
    object_id: Any,
    details: dict[str, Any] | None,
) -> dict[str, Any]:
    """The hashed fields of a new event, cleaned and cut to their columns' lengths."""
    return {
        "organization_id": str(organization_id) if organization_id else None,
        "at": timezone.now(),
        "actor": _clean(actor.label)[:255],
        "action": _clean(action)[:64],
        "object_type": _clean(object_type)[:64],
        "object_id": _clean(str(object_id or ""))[:64],
        "outcome": str(outcome),
        "ip": actor.ip,
        "details": _clean(details or {}),
    }


HEAD_SQL = "SELECT * FROM audit_chain_head(%s, %s, %s)"
INSERT_SQL = (
    "INSERT INTO audit_auditevent (id, organization_id, at, actor, actor_user_id, action, "
    "object_type, object_id, outcome, ip, details, previous_hash, hash, link_key_id) "
    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s::inet, %s::jsonb, %s, %s, %s)"
)
# The event and its signed head in one statement: one round trip after the head was read.
INSERT_AND_SIGN_SQL = "WITH event AS (" + INSERT_SQL + " RETURNING id) " + UPSERT_SQL


def append_to_chain(
    cursor: Any,
    *,
    content: dict[str, Any],
    organization_id: Any | None,
    actor: Actor,
    sign_head: bool = False,
) -> tuple[int, str, str, str]:
    """Append one event with a keyed link: (event id, previous hash, hash, link key id).

    Two statements, to be run in one transaction (the chain's advisory lock, taken by the
    first, is held until it ends): `audit_chain_head` locks the chain and reads its head
    and signed checkpoint; the event, its link keyed in Python (audit.chain), is inserted
    by the second. With `sign_head`, the second also signs the new head, unless the chain
    no longer ends in its signed checkpoint: then the event is still recorded, the head is
    left unsigned (so the break stays visible to `verify_audit_chain`) and an error is
    logged; refusing the request would not undo the rewrite, and would let it silence the
    trail.
    """
    chain = chain_name(organization_id)
    cursor.execute(HEAD_SQL, [content["organization_id"], _chain_lock_key(organization_id), chain])
    (
        event_id, head_event_id, head_hash,
        checkpoint_event_id, checkpoint_hash, signed_at, key_id, signature,
    ) = cursor.fetchone()  # fmt: skip
    previous_hash = head_hash or GENESIS_HASH
    link = keyed_link(previous_hash, content_hash(**content))
    parameters = [
        event_id,
        content["organization_id"],
        content["at"],
        content["actor"],
        actor.user_id,
        content["action"],
        content["object_type"],
        content["object_id"],
        content["outcome"],
        actor.ip,
        json.dumps(content["details"], cls=DjangoJSONEncoder),
        previous_hash,
        link.value,
        link.key_id,
    ]
    problem = None
    if sign_head:
        checkpoint = None
        if checkpoint_event_id is not None:
            checkpoint = StoredCheckpoint(
                chain=chain, head_event_id=checkpoint_event_id, head_hash=checkpoint_hash,
                signed_at=signed_at, key_id=key_id, signature=signature,
            )  # fmt: skip
        problem = head_problem(
            head_event_id=head_event_id, head_hash=head_hash, checkpoint=checkpoint
        )
        if problem is not None:
            logger.error(
                "audit chain %s: not signing its new head (event %s): %s",
                chain, event_id, problem,
            )  # fmt: skip
    if sign_head and problem is None:
        cursor.execute(
            INSERT_AND_SIGN_SQL,
            parameters
            + checkpoint_row(
                chain=chain, head_event_id=event_id, head_hash=link.value,
                signed_at=content["at"],
            ),
        )  # fmt: skip
    else:
        cursor.execute(INSERT_SQL, parameters)
    return event_id, previous_hash, link.value, link.key_id


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

    `audit_chain_head` takes a PostgreSQL advisory lock per organization, held until the
    transaction ends, which serializes writers of one chain, so two concurrent events can
    never claim the same predecessor; the event is inserted with its keyed link and the
    chain's new head, signed with the evidence key (audit.checkpoints), in a second
    statement of the same transaction (see `append_to_chain` for a chain found rewritten).
    Inside a caller's transaction the event is written or rolled back with it.
    """
    organization_id = getattr(organization, "pk", None)
    content = event_content(
        organization_id=organization_id,
        actor=actor,
        action=action,
        outcome=outcome,
        object_type=object_type,
        object_id=object_id,
        details=details,
    )
    # One transaction for the event and its signed head: one commit (a WAL flush) instead
    # of two, and the chain's advisory lock covers both. No savepoint inside a caller's
    # transaction: a failure aborts that transaction either way.
    with transaction.atomic(savepoint=False), connection.cursor() as cursor:
        event_id, previous_hash, event_hash, link_key_id = append_to_chain(
            cursor,
            content=content,
            organization_id=organization_id,
            actor=actor,
            sign_head=True,
        )
    event = AuditEvent(
        id=event_id,
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
        hash=event_hash,
        link_key_id=link_key_id,
    )
    event._state.adding = False  # it is stored; saving it again would be an update
    return event


@dataclass(frozen=True)
class _OrganizationRef:
    pk: Any


def foreign_actor(actor: Actor) -> Actor:
    """`actor` as the owner of the object may see them: no e-mail, user id or address."""
    credential = f"key {actor.key_prefix}" if actor.key_prefix else "session"
    return Actor(label=f"{FOREIGN_ACTOR} ({credential})", key_prefix=actor.key_prefix)


def record_foreign_attempt(
    *,
    owner_organization_id: Any,
    actor: Actor,
    action: str,
    object_type: str,
    object_id: Any,
    details: dict[str, Any] | None = None,
) -> AuditEvent:
    """Append a member of another organization's denied attempt to the OWNER's chain.

    The caller's own chain records the attempt with the full actor (`record_event`); the
    owner's auditors see it here with the actor anonymised (`foreign_actor`: the API key
    prefix, never the e-mail or the key), outcome `denied`. Chains are per organization,
    so this is a second event in a second chain, written in the caller's transaction.
    """
    return record_event(
        organization=_OrganizationRef(owner_organization_id),
        actor=foreign_actor(actor),
        action=action,
        outcome=Outcome.DENIED,
        object_type=object_type,
        object_id=object_id,
        details={"reason": "attempt by a member of another organization", **(details or {})},
    )


def verify_chain(*, organization_id: Any | None) -> ChainBreak | None:
    """Check one organization's chain (None: the unattributed events).

    The SHA-256 links first, then the signed checkpoint: its signature must hold with a
    configured key, and the event it names must still be in the chain with the signed
    hash. Events appended after the checkpoint was read are not covered by it (they are
    by the next one); the checkpoint is read first so that its head is always among the
    events read after it.
    """
    checkpoint = ChainCheckpoint.objects.filter(chain=chain_name(organization_id)).first()
    events = AuditEvent.objects.filter(organization_id=organization_id).order_by("id")
    chain_break = first_break(events.iterator(chunk_size=2000))
    if chain_break is not None:
        return chain_break
    if checkpoint is None and not events.exists():
        return None  # an empty chain has nothing to sign
    problem = checkpoint_problem(checkpoint)
    if problem is not None:
        return ChainBreak(checkpoint.head_event_id if checkpoint else None, problem)
    head = events.filter(id=checkpoint.head_event_id).values_list("hash", flat=True).first()
    if head is None:
        return ChainBreak(
            checkpoint.head_event_id, "the signed head event is missing: events were removed"
        )
    if head != checkpoint.head_hash:
        return ChainBreak(
            checkpoint.head_event_id,
            "the chain does not end in its signed head hash: events were rewritten",
        )
    return None
