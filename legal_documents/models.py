"""Legal documents, their content versions (hash-chained) and their iterations."""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy
from simple_history.models import HistoricalRecords

from common.background.fields import LEASE_FIELDS, LeasedWork
from legal_documents.naming import document_name


class Status(models.TextChoices):
    PROCESSING = "processing", gettext_lazy("Processing")
    COMPLETED = "completed", gettext_lazy("Completed")
    FAILED = "failed", gettext_lazy("Failed")


class Stage(models.TextChoices):
    DRAFT = "draft", gettext_lazy("Draft")
    FINAL = "final", gettext_lazy("Final")


class LegalDocument(LeasedWork):
    """A document; its jobs run under the lease of common.background (legal_documents/work.py)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    organization = models.ForeignKey(
        "organizations.Organization", on_delete=models.CASCADE, related_name="legal_documents"
    )
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="legal_documents"
    )
    client_company = models.ForeignKey(
        "organizations.ClientCompany",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="legal_documents",
    )
    document_type = models.CharField(max_length=40, db_index=True)
    ruleset_version = models.CharField(max_length=40)
    # The language every text of the document is written in (gdpr.i18n.SUPPORTED_LANGUAGES);
    # kept through the questionnaire, draft, finalize and every iteration.
    language = models.CharField(max_length=5, default="en", db_index=True)
    # The validated create body (camelCase keys, as the API received them).
    inputs = models.JSONField(default=dict)
    # Questionnaire answers: {questionId: {"answer": ..., "answeredAt": iso}}.
    answers = models.JSONField(default=dict, blank=True)
    # Answers given with `generate` (finalize), written into the final document.
    finalize_answers = models.JSONField(default=dict, blank=True)
    # Free-text `{question, answer}` pairs given with `generate` (SEED.md, Finalize body):
    # not questionnaire ids; kept so that every later regeneration and iteration shows them.
    finalize_questions = models.JSONField(default=list, blank=True)

    status = models.CharField(
        max_length=12, choices=Status.choices, default=Status.PROCESSING, db_index=True
    )
    stage = models.CharField(max_length=8, choices=Stage.choices, default=Stage.DRAFT)
    version = models.PositiveIntegerField(
        default=0, help_text=gettext_lazy("0 until the first content.")
    )
    provider = models.CharField(max_length=20, blank=True, default="")
    # The job a task was sent for: a redelivered or superseded task finds another id and
    # leaves the document alone (idempotency); the lease (LeasedWork) holds one attempt.
    job_id = models.UUIDField(null=True, blank=True, editable=False)
    job_kind = models.CharField(max_length=12, blank=True, default="")

    content_markdown = models.TextField(blank=True, default="")
    content_html = models.TextField(blank=True, default="")
    content_text = models.TextField(blank=True, default="")
    content_sha256 = models.CharField(max_length=64, blank=True, default="")
    # The completeness of the current content (computed when the content is set).
    compliance_complete = models.BooleanField(null=True, blank=True)
    compliance_missing = models.JSONField(default=list, blank=True)

    error_code = models.CharField(max_length=40, blank=True, default="")
    error_message = models.TextField(blank=True, default="")

    # The register entries the current content was written from, with their revisions:
    # {"activities": {"<uuid>": <revision>}, "vendors": {"<uuid>": <revision>}} (register
    # app). Empty for a document written from its create body alone.
    register_sources = models.JSONField(default=dict, blank=True)
    # Set when an entry of `register_sources` changed after the content was written.
    stale_since = models.DateTimeField(null=True, blank=True, db_index=True)

    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)
    # When the current job started: the estimated completion time (not a claim: the lease).
    processing_started_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    # A manual edit's reason may be up to 500 characters (docs/API.md PATCH changeReason).
    # The lease's bookkeeping is no change of the document: not in its history.
    history = HistoricalRecords(
        excluded_fields=["content_html", "content_text", *LEASE_FIELDS],
        history_change_reason_field=models.TextField(null=True),
    )

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["organization", "status"], name="legaldoc_org_status"),
            models.Index(
                fields=["organization", "creator", "-created_at"], name="legaldoc_org_creator"
            ),
        ]

    def __str__(self) -> str:
        # What the document is about, not its UUID (the id stays on its page and in lists).
        return document_name(self)

    def save(self, *args: Any, **kwargs: Any) -> None:
        update_fields = kwargs.get("update_fields")
        if update_fields is None or not set(update_fields) <= set(LEASE_FIELDS):
            super().save(*args, **kwargs)
            return
        # A save of the lease alone (queued, claimed, ended): no history row for it.
        self.skip_history_when_saving = True
        try:
            super().save(*args, **kwargs)
        finally:
            del self.skip_history_when_saving

    @property
    def has_content(self) -> bool:
        # Every version has content (set_content); this never loads the deferred text.
        return self.version > 0


class DocumentVersion(models.Model):
    """One version of a document's content, chained to the previous one by SHA-256."""

    document = models.ForeignKey(LegalDocument, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    content_markdown = models.TextField()
    content_sha256 = models.CharField(max_length=64)
    previous_sha256 = models.CharField(max_length=64)
    # Hash over (number, content hash, previous hash, stage, author, reason, time).
    chain_sha256 = models.CharField(max_length=64)
    # HMAC of chain_sha256 with the evidence key, which the database never sees: a chain
    # rewritten in SQL with every hash recomputed no longer matches (common/evidence.py).
    signature = models.CharField(max_length=128, blank=True, default="")
    signature_key_id = models.CharField(max_length=32, blank=True, default="")
    stage = models.CharField(max_length=8, choices=Stage.choices)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    change_reason = models.CharField(max_length=500)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["document", "number"]
        constraints = [
            models.UniqueConstraint(fields=["document", "number"], name="one_row_per_version")
        ]

    def __str__(self) -> str:
        return f"{self.document_id} v{self.number}"


class DocumentIteration(models.Model):
    """One `iterate` request: the user's message, the reply and the version it produced.

    `resulting_version` stays empty when the iteration changed nothing (an offline message
    that is not an edit instruction) or failed.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    document = models.ForeignKey(LegalDocument, on_delete=models.CASCADE, related_name="iterations")
    thread_id = models.UUIDField(default=uuid.uuid4, db_index=True)
    message_id = models.UUIDField(default=uuid.uuid4, unique=True)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    message = models.TextField()
    response = models.TextField(blank=True, default="")
    status = models.CharField(
        max_length=12, choices=Status.choices, default=Status.PROCESSING, db_index=True
    )
    resulting_version = models.ForeignKey(
        DocumentVersion,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="iterations",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["document", "created_at"]
        indexes = [
            models.Index(fields=["document", "created_at"], name="legaldoc_iteration_doc_time")
        ]

    def __str__(self) -> str:
        return f"{self.document_id} iteration {self.message_id} ({self.status})"


class PackageStatus(models.TextChoices):
    PROCESSING = "processing", gettext_lazy("Processing")
    COMPLETED = "completed", gettext_lazy("Completed")
    FAILED = "failed", gettext_lazy("Failed")


class DocumentationPackage(LeasedWork):
    """An inspection package: a ZIP of an organization's documents for an auditor/authority.

    Built by a Celery task under the lease of common.background (legal_documents/work.py);
    the file lives in the default storage under the organization's `container_name` prefix,
    and its `manifest.json` lists the SHA-256 of every other file.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    organization = models.ForeignKey(
        "organizations.Organization",
        on_delete=models.CASCADE,
        related_name="documentation_packages",
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # {documentTypes: [...], createdFrom: "YYYY-MM-DD", createdTo: "YYYY-MM-DD"}
    filters = models.JSONField(default=dict, blank=True)
    status = models.CharField(
        max_length=12, choices=PackageStatus.choices, default=PackageStatus.PROCESSING
    )
    file_name = models.CharField(max_length=300, blank=True, default="")
    size_bytes = models.PositiveBigIntegerField(null=True, blank=True)
    sha256 = models.CharField(max_length=64, blank=True, default="")
    document_count = models.PositiveIntegerField(null=True, blank=True)
    error = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"package {self.pk} ({self.status})"
