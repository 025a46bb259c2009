"""Organizations, their members and roles, client companies and API keys.

A user belongs to at most one organization (one Membership): the organization of every
request is therefore known from the user or the API key, and nothing can be looked up
across organizations by accident.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy


class Plan(models.TextChoices):
    FREE = "free", gettext_lazy("Free")
    BUSINESS = "business", gettext_lazy("Business")
    ENTERPRISE = "enterprise", gettext_lazy("Enterprise")


class Role(models.TextChoices):
    ADMIN = "admin", gettext_lazy("Administrator")
    DPO = "dpo", gettext_lazy("Data Protection Officer")
    AUDITOR = "auditor", gettext_lazy("Auditor (read-only)")


class Organization(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=80, unique=True)
    plan = models.CharField(max_length=20, choices=Plan.choices, default=Plan.FREE)
    # The storage container (S3 prefix or folder) holding this organization's files.
    container_name = models.CharField(max_length=100, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        if not self.container_name:
            self.container_name = f"org-{self.id.hex}"
        super().save(*args, **kwargs)


class Membership(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="membership"
    )
    organization = models.ForeignKey(
        Organization, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=20, choices=Role.choices, default=Role.DPO)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["organization__name", "user__email"]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}, {self.organization})"

    @property
    def can_write(self) -> bool:
        return self.role != Role.AUDITOR


class ClientCompany(models.Model):
    """A company the organization writes documents for (a DPO firm's clients)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    organization = models.ForeignKey(
        Organization, on_delete=models.CASCADE, related_name="client_companies"
    )
    name = models.CharField(max_length=200)
    # A text or an object whose inner fields vary (docs/SEED.md); see organizations/fields.py.
    details = models.JSONField(blank=True, default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "client companies"

    def __str__(self) -> str:
        return self.name


class ApiKey(models.Model):
    """Only a SHA-256 of the key is stored; `prefix` finds the row without the secret."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    membership = models.ForeignKey(Membership, on_delete=models.CASCADE, related_name="api_keys")
    name = models.CharField(max_length=100, blank=True, default="")
    prefix = models.CharField(max_length=16, unique=True, editable=False)
    key_hash = models.CharField(max_length=64, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "API key"

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.membership.user})"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None
