"""Signed checkpoints: the head of each audit chain, signed with the evidence key.

Why after every append, in Python: the key stays outside the database, so `audit_append`
cannot sign; the caller signs the head that `audit_append` returns and upserts it in a
second statement of the same transaction (measured in bench/bench_audit_append.py), while
the chain's advisory lock is still held. The upsert only ever moves a checkpoint forward
all the same (event ids grow along a chain, since they are drawn under that lock).

Before it signs a new head, the append checks that the chain still ends in the signed one
(`head_problem`): a chain rewritten or cut at its tail in SQL is then not signed over (the
checkpoint stays where it was, so `verify_audit_chain` keeps reporting the break), and the
refusal is logged as an error for the operator.

What a checkpoint cannot show: that events after it were removed together with a rollback
of the checkpoint row to an older signed value kept by the attacker, or that events were
inserted at the tail in SQL before the next legitimate append signed over them. Detecting
those needs the head kept outside the database (an RFC 3161 time-stamp, an export).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from common.evidence import AUDIT_CHECKPOINT, Signature, sign, signature_problem

UNATTRIBUTED = "unattributed"

UPSERT_SQL = """
INSERT INTO audit_chaincheckpoint AS c
    (chain, head_event_id, head_hash, signed_at, key_id, signature)
VALUES (%s, %s, %s, %s, %s, %s)
ON CONFLICT (chain) DO UPDATE SET
    head_event_id = EXCLUDED.head_event_id, head_hash = EXCLUDED.head_hash,
    signed_at = EXCLUDED.signed_at, key_id = EXCLUDED.key_id, signature = EXCLUDED.signature
WHERE c.head_event_id < EXCLUDED.head_event_id
"""


def chain_name(organization_id: Any | None) -> str:
    return str(organization_id) if organization_id else UNATTRIBUTED


def _payload(
    *, chain: str, head_event_id: int, head_hash: str, signed_at: datetime
) -> dict[str, Any]:
    return {
        "chain": chain,
        "headEventId": head_event_id,
        "headHash": head_hash,
        "signedAt": signed_at.isoformat(),
    }


def checkpoint_row(
    *, chain: str, head_event_id: int, head_hash: str, signed_at: datetime
) -> list[Any]:
    """The parameters of `UPSERT_SQL`: the head and its signature by the current key."""
    signature = sign(
        purpose=AUDIT_CHECKPOINT,
        payload=_payload(
            chain=chain, head_event_id=head_event_id, head_hash=head_hash, signed_at=signed_at
        ),
    )
    return [chain, head_event_id, head_hash, signed_at, signature.key_id, signature.value]


def checkpoint_problem(checkpoint: Any | None) -> str | None:
    """None when the checkpoint row carries a valid signature of its own head."""
    if checkpoint is None:
        return "the chain is not signed: its signed checkpoint is missing"
    problem = signature_problem(
        purpose=AUDIT_CHECKPOINT,
        payload=_payload(
            chain=checkpoint.chain,
            head_event_id=checkpoint.head_event_id,
            head_hash=checkpoint.head_hash,
            signed_at=checkpoint.signed_at,
        ),
        signature=Signature(key_id=checkpoint.key_id, value=checkpoint.signature),
    )
    return f"signed checkpoint: {problem}" if problem else None


@dataclass(frozen=True)
class StoredCheckpoint:
    """A checkpoint row as `audit_chain_head` returns it (the fields `checkpoint_problem` reads)."""

    chain: str
    head_event_id: int
    head_hash: str
    signed_at: datetime
    key_id: str
    signature: str


def head_problem(
    *,
    head_event_id: int | None,
    head_hash: str | None,
    checkpoint: StoredCheckpoint | None,
) -> str | None:
    """None when the chain ends in its validly signed checkpoint (or is empty and unsigned).

    Read under the chain's lock just before a new head is signed: anything else means the
    chain was changed below the service since the last append.
    """
    if head_event_id is None:
        if checkpoint is None:
            return None
        return "the chain is empty but has a signed head: its events were removed"
    problem = checkpoint_problem(checkpoint)
    if problem is not None:
        return problem
    assert checkpoint is not None  # checkpoint_problem reports a missing one
    if checkpoint.head_event_id != head_event_id or checkpoint.head_hash != head_hash:
        return (
            f"the chain ends in event {head_event_id}, not in its signed head "
            f"(event {checkpoint.head_event_id}): events were removed or rewritten"
        )
    return None
