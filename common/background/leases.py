"""Queue, claim, end and hand back the lease of a row of background work (see __init__)."""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from common.background.fields import LEASE_FIELDS, LeasedWork, LeaseState
from common.background.kinds import WorkKind

logger = logging.getLogger(__name__)


class LeaseHeldError(Exception):
    """Another attempt holds the lease; look again once it expires."""

    def __init__(self, kind: str, pk: Any, seconds_left: float) -> None:
        super().__init__(f"{kind} {pk} is being worked on elsewhere ({seconds_left:.0f} s left).")
        self.seconds_left = seconds_left


@dataclass(frozen=True)
class Lease:
    """A claimed attempt: the row as claimed and the token that proves the claim."""

    row: Any
    token: str


def queue(
    kind: WorkKind, row: LeasedWork, *, fresh: bool = True, delay: float = 0, send: bool = True
) -> None:
    """Mark `row` queued and send its task once the caller's transaction commits.

    Call it inside the transaction that saves the row's new work (the row is saved here,
    lease columns only, unless it is new). `fresh`: new work, its attempts start again.
    `delay`: seconds until the work is due (the task is sent with that countdown).
    `send=False`: the task is on its way already (a retry the task scheduled itself): the
    row only waits for it, and the sweeper sends it again if it is lost.
    """
    row.lease_state = LeaseState.QUEUED
    row.lease_token = None
    row.lease_expires_at = None
    row.due_at = timezone.now() + timedelta(seconds=max(delay, 0))
    row.last_error = ""
    if fresh:
        row.attempts = 0
    if row._state.adding:
        row.save()
    else:
        row.save(update_fields=list(LEASE_FIELDS))
    if send:
        send_on_commit(kind, row.pk, delay=delay)


def send_on_commit(kind: WorkKind, pk: Any, *, delay: float = 0) -> None:
    key = str(pk)
    transaction.on_commit(lambda: send(kind, key, delay=delay))


def send(kind: WorkKind, pk: str, *, delay: float = 0) -> bool:
    """Hand the task to the broker; a refusal is logged and the row stays queued (swept)."""
    try:
        kind.send(pk, max(delay, 0))
    except Exception:
        logger.warning(
            "the broker refused the task of %s %s; the sweeper sends it again",
            kind.name,
            pk,
            exc_info=True,
        )
        return False
    return True


def claim(kind: WorkKind, pk: Any, **matching: Any) -> Lease | None:
    """Take the lease of one attempt of `pk`; None when there is nothing to run.

    `matching`: further column values the row must have (e.g. the job a task was sent
    for); a row that no longer matches has nothing to run for this task. Raises LeaseHeldError
    while another attempt holds an unexpired lease. Work whose attempts are spent ends
    failed (`kind.end_failed(row, "interrupted")`) instead of being run again.
    """
    with transaction.atomic():
        row = locked(kind, pk, **matching)
        if row is None or row.lease_state == LeaseState.IDLE:
            return None
        now = timezone.now()
        if row.lease_state == LeaseState.LEASED and row.lease_expires_at > now:
            raise LeaseHeldError(kind.name, pk, (row.lease_expires_at - now).total_seconds())
        if row.attempts >= kind.max_attempts:
            end_failed(kind, row, "interrupted")
            return None
        row.lease_state = LeaseState.LEASED
        row.lease_token = uuid.uuid4()
        row.lease_expires_at = now + timedelta(seconds=kind.lease_seconds(row))
        row.attempts += 1
        row.save(update_fields=list(LEASE_FIELDS))
        return Lease(row=row, token=str(row.lease_token))


def locked(kind: WorkKind, pk: Any, **matching: Any) -> Any:
    """The row locked for update (its own row only, not what it joins), or None."""
    return (
        kind.model._default_manager.select_for_update(of=("self",))
        .filter(pk=pk, **matching)
        .first()
    )


def holding(kind: WorkKind, pk: Any, token: str | None) -> Any:
    """The row locked, if the attempt `token` still holds its lease (None: any attempt).

    Call inside a transaction; the caller records its outcome on the row, then `finish`es.
    """
    row = locked(kind, pk)
    if row is None or row.lease_state == LeaseState.IDLE:
        return None
    if token is not None and str(row.lease_token) != token:
        return None
    return row


def finish(row: LeasedWork, *, error: str = "") -> None:
    """End the lease on the locked row: nothing left to run. Saves the lease columns."""
    row.lease_state = LeaseState.IDLE
    row.lease_token = None
    row.lease_expires_at = None
    row.due_at = None
    row.last_error = error[:2000]
    row.save(update_fields=list(LEASE_FIELDS))


def end_failed(kind: WorkKind, row: LeasedWork, reason: str) -> None:
    """Fail the locked row by the kind's rule, then end its lease."""
    kind.end_failed(row, reason)
    finish(row, error=reason)


def hand_back(kind: WorkKind, pk: Any, token: str, *, send: bool = True) -> bool:
    """Give the lease back unfinished (the worker stops): queued again at once, the
    attempt not counted. False when `token` no longer holds it.

    `send=False`: the task retries by itself (Celery's retry after a transient error), so
    nothing is sent; its next claim finds the row queued instead of a lease still held.
    """
    with transaction.atomic():
        row = holding(kind, pk, token)
        if row is None:
            return False
        row.attempts = max(row.attempts - 1, 0)
        requeue(kind, row, send=send)
    return True


def requeue(kind: WorkKind, row: LeasedWork, *, send: bool = True) -> None:
    """Queue the locked row's unfinished work again (its attempts go on counting)."""
    if kind.requeued is not None:
        kind.requeued(row)
    queue(kind, row, fresh=False, send=send)
