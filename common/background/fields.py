"""The lease columns every row of background work carries (an abstract model)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class LeaseState(models.TextChoices):
    # Nothing to run: the work ended (or was never queued).
    IDLE = "idle", _("Idle")
    # Waiting for a worker: its task was sent, or will be by the sweeper.
    QUEUED = "queued", _("Queued")
    # An attempt holds it until `lease_expires_at`.
    LEASED = "leased", _("Leased")


class LeasedWork(models.Model):
    """The lease of a row of background work; the row keeps its own domain status."""

    lease_state = models.CharField(
        max_length=8, choices=LeaseState.choices, default=LeaseState.IDLE, editable=False
    )
    lease_token = models.UUIDField(null=True, blank=True, editable=False)
    lease_expires_at = models.DateTimeField(null=True, blank=True, editable=False)
    # When queued work is due (now, or a retry scheduled later): the sweeper sends again a
    # row still queued well past it (its task was lost, or the broker refused it).
    due_at = models.DateTimeField(null=True, blank=True, editable=False)
    attempts = models.PositiveSmallIntegerField(default=0, editable=False)
    last_error = models.TextField(blank=True, default="", editable=False)

    class Meta:
        abstract = True


LEASE_FIELDS = (
    "lease_state",
    "lease_token",
    "lease_expires_at",
    "due_at",
    "attempts",
    "last_error",
)
