"""The audit trail: append-only events, each chained to the previous one by a keyed hash.

Every event stores its hash (a MAC with the evidence key of its content and the hash of
the event before it in the same organization; audit.chain) and that predecessor's hash, so
an edited or deleted row breaks the chain where it happened
(`python manage.py verify_audit_chain`). Updates and deletes are refused by the model and,
below Django, by a database trigger (see the migration).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy


class Outcome(models.TextChoices):
    ALLOWED = "allowed", gettext_lazy("Allowed")
    DENIED = "denied", gettext_lazy("Denied")


class AppendOnlyError(Exception):
    """Raised when code tries to change or delete an audit event."""


class AuditEventQuerySet(models.QuerySet):
    def update(self, **kwargs):  # type: ignore[no-untyped-def]
        raise AppendOnlyError("audit events cannot be changed")

    def delete(self):  # type: ignore[no-untyped-def]
        raise AppendOnlyError("audit events cannot be deleted")


class AuditEvent(models.Model):
    organization = models.ForeignKey(
        "organizations.Organization",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="audit_events",
        help_text=gettext_lazy(
            "Empty for attempts that could not be tied to an organization (unknown key)."
        ),
    )
    at = models.DateTimeField(db_index=True)
    actor = models.CharField(
        max_length=255, help_text=gettext_lazy("User e-mail and API key prefix.")
    )
    actor_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        db_constraint=False,
        related_name="+",
    )
    action = models.CharField(max_length=64, db_index=True)
    object_type = models.CharField(max_length=64, blank=True, default="")
    object_id = models.CharField(max_length=64, blank=True, default="", db_index=True)
    outcome = models.CharField(max_length=10, choices=Outcome.choices, db_index=True)
    ip = models.GenericIPAddressField(null=True, blank=True)
    details = models.JSONField(default=dict, blank=True)
    previous_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64, unique=True)
    # Which evidence key made `hash` (common.evidence.key_id); empty for events written
    # before links were keyed, whose hash is plain SHA-256 (audit.chain).
    link_key_id = models.CharField(max_length=32, blank=True, default="")

    objects = AuditEventQuerySet.as_manager()

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["organization", "-id"], name="audit_org_recent")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.actor} {self.action} {self.outcome}"

    def save(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        if not self._state.adding:
            raise AppendOnlyError("audit events cannot be changed")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        raise AppendOnlyError("audit events cannot be deleted")


class ChainCheckpoint(models.Model):
    """The signed head of one audit chain, rewritten after every append.

    The signature (common/evidence.py, a key the database never sees) covers the head
    event's id and hash; since each hash covers every event before it, a chain rewritten
    in SQL, however consistently, no longer ends in the signed hash. One row per chain:
    `chain` is the organization's id, or "unattributed" for events of no organization.
    """

    chain = models.CharField(max_length=64, unique=True)
    head_event_id = models.BigIntegerField()
    head_hash = models.CharField(max_length=64)
    signed_at = models.DateTimeField()
    key_id = models.CharField(max_length=32)
    signature = models.CharField(max_length=128)

    def __str__(self) -> str:
        return f"{self.chain} at event {self.head_event_id}"
