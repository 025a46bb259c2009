"""The one sweeper of background work (beat): expired leases and lost tasks, every kind."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from common.background import kinds, leases
from common.background.fields import LeaseState
from common.background.kinds import WorkKind

logger = logging.getLogger(__name__)


def sweep_all() -> dict[str, dict[str, int]]:
    """Sweep every registered kind; one kind's error is logged and the others still run."""
    counts = {}
    for kind in kinds.registered():
        try:
            counts[kind.name] = sweep(kind)
        except Exception:
            logger.exception("the sweep of %s failed", kind.name)
    return counts


def sweep(kind: WorkKind) -> dict[str, int]:
    """Queue again (or fail) what an expired lease held; send again what waits too long."""
    now = timezone.now()
    counts = {"requeued": 0, "failed": 0, "resent": 0}
    expired = kind.model._default_manager.filter(
        lease_state=LeaseState.LEASED, lease_expires_at__lt=now
    ).values_list("pk", flat=True)
    for pk in list(expired):
        with transaction.atomic():
            row = leases.locked(kind, pk)
            if row is None or row.lease_state != LeaseState.LEASED or row.lease_expires_at > now:
                continue  # ended or claimed again meanwhile
            if row.attempts >= kind.max_attempts:
                leases.end_failed(kind, row, "interrupted")
                counts["failed"] += 1
            else:
                leases.requeue(kind, row)
                counts["requeued"] += 1
    waiting = kind.model._default_manager.filter(
        lease_state=LeaseState.QUEUED,
        due_at__lt=now - timedelta(seconds=kind.resend_after_seconds),
    ).values_list("pk", "due_at")
    for pk, due_at in list(waiting):
        if due_at is not None and due_at < now - timedelta(seconds=kind.max_queued_seconds):
            with transaction.atomic():
                row = leases.locked(kind, pk)
                if row is not None and row.lease_state == LeaseState.QUEUED:
                    leases.end_failed(kind, row, "unsent")
                    counts["failed"] += 1
            continue
        if leases.send(kind, str(pk)):
            # Sent: due from now, so that it is sent again only after another interval (a
            # backlog of long tasks is not flooded with copies), and the broker that took
            # it did not refuse it (`max_queued_seconds` counts refusals, not a backlog).
            kind.model._default_manager.filter(
                pk=pk, lease_state=LeaseState.QUEUED, due_at=due_at
            ).update(due_at=now)
            counts["resent"] += 1
    if any(counts.values()):
        logger.info("swept %s: %s", kind.name, counts)
    return counts
