"""Webhook endpoints of an organization and every delivery attempt made to them."""

from __future__ import annotations

import uuid

from django.db import models
from django.utils.translation import gettext_lazy

from common.background.fields import LeasedWork
from organizations.models import Organization
from webhooks.endpoint_secrets import decrypt_secret, encrypt_secret


class WebhookEndpoint(models.Model):
    """A receiver URL subscribed to some document events.

    The signing secret is kept encrypted (`webhooks.endpoint_secrets`); the API shows it once,
    in the answer to the registration.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    organization = models.ForeignKey(
        Organization, on_delete=models.CASCADE, related_name="webhook_endpoints"
    )
    url = models.URLField(max_length=2000)
    events = models.JSONField(default=list)
    secret_encrypted = models.TextField(editable=False)
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["organization", "is_active"])]

    def __str__(self) -> str:
        return self.url

    def set_secret(self, secret: str) -> None:
        self.secret_encrypted = encrypt_secret(secret)

    def get_secret(self) -> str:
        """The plain `whsec_...` secret; raises SecretUnavailableError if undecryptable."""
        return decrypt_secret(self.secret_encrypted)


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", gettext_lazy("Pending")
    SUCCEEDED = "succeeded", gettext_lazy("Succeeded")
    RETRYING = "retrying", gettext_lazy("Failed, retry scheduled")
    FAILED = "failed", gettext_lazy("Failed")


class WebhookDelivery(LeasedWork):
    """One attempt to deliver one event to one endpoint; a retry is a new row.

    All attempts of a message share `event_id` (the Standard Webhooks `webhook-id`), so a
    receiver can drop duplicates. A pending attempt is a row of background work
    (common.background, the kind webhooks.work.KIND): its lease makes a redelivered task
    send it once, and the one sweeper sends it again when its task was lost.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    endpoint = models.ForeignKey(
        WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries"
    )
    event_id = models.CharField(max_length=64, db_index=True)
    event = models.CharField(max_length=64)
    payload = models.JSONField()
    attempt = models.PositiveSmallIntegerField(default=1)
    status = models.CharField(
        max_length=16, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    duration_ms = models.PositiveIntegerField(null=True, blank=True)
    error = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    # When this attempt is due (pending) or when the next one is (retrying).
    next_attempt_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-attempt"]
        verbose_name_plural = "webhook deliveries"
        constraints = [
            models.UniqueConstraint(
                fields=["endpoint", "event_id", "attempt"], name="webhook_delivery_attempt_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.event} #{self.attempt} -> {self.endpoint_id} ({self.status})"
