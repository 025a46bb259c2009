"""Reviews of documents the organization did not write (a vendor's DPA, an old notice).

A review reads one ingested asset and stores its report: the verdict, the counts and one
item per checklist line (gdpr.review), each with verbatim quotes of the asset. The review
runs as leased background work (reviews.work); the row carries the lease.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from common.background.fields import LeasedWork


class ReviewStatus(models.TextChoices):
    PROCESSING = "processing", _("Processing")
    COMPLETED = "completed", _("Completed")
    FAILED = "failed", _("Failed")


class Review(LeasedWork):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    organization = models.ForeignKey(
        "organizations.Organization", on_delete=models.CASCADE, related_name="reviews"
    )
    # The quotes are the asset's text: without the asset the report has no evidence.
    asset = models.ForeignKey("assets.Asset", on_delete=models.CASCADE, related_name="reviews")
    # With a vendor, the result is kept on the register's vendor as well (its DPA reviewed).
    vendor = models.ForeignKey(
        "register.Vendor",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reviews",
    )
    document_type = models.CharField(max_length=40)
    # The report's language (findings, suggestions) and the language the document is in.
    language = models.CharField(max_length=8)
    document_language = models.CharField(max_length=8, blank=True, default="")
    status = models.CharField(
        max_length=12, choices=ReviewStatus.choices, default=ReviewStatus.PROCESSING
    )
    # What the review is doing now ("waiting-for-asset", "retrieving", "checking"...).
    stage = models.CharField(max_length=24, blank=True, default="")
    verdict = models.CharField(max_length=24, blank=True, default="")
    counts = models.JSONField(default=dict, blank=True)
    # One entry per checklist item, in the API's shape (reviews.serializers).
    items = models.JSONField(default=list, blank=True)
    ruleset = models.CharField(max_length=40, blank=True, default="")
    # "rules" offline, "rules+model" when a language model was asked as well.
    method = models.CharField(max_length=20, blank=True, default="")
    error_code = models.CharField(max_length=40, blank=True, default="")
    error_message = models.TextField(blank=True, default="")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["organization", "-created_at"], name="review_org_created"),
            models.Index(fields=["asset"], name="review_asset"),
        ]

    def __str__(self) -> str:
        return f"{self.get_document_type_display()} review of {self.asset_id}"

    def get_document_type_display(self) -> str:
        return self.document_type.replace("_", " ").capitalize()
