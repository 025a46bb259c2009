"""The organization's register of processing activities (Art. 30): the source of truth.

Every document that describes processing can be written from these rows instead of
repeating the facts in its create body. The list fields hold the same shapes the
structured create body accepts (a plain string, or an object such as a recipient
`{name, role, country, safeguard}` or a retention `{category, period, criteria}`), so that
`gdpr.composition.inputs.normalize_inputs` reads them unchanged.

`revision` moves by one on every write through the services (register.services); a
document records the revisions it was written from, which is how staleness is decided.
"""

from __future__ import annotations

import uuid

from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from common.background.fields import LeasedWork
from organizations.models import Organization


class ActivityRole(models.TextChoices):
    CONTROLLER = "controller", _("Controller")
    JOINT_CONTROLLER = "joint-controller", _("Joint controller")
    PROCESSOR = "processor", _("Processor")


class VendorRole(models.TextChoices):
    PROCESSOR = "processor", _("Processor (Art. 28)")
    SUB_PROCESSOR = "sub-processor", _("Sub-processor")
    CONTROLLER = "controller", _("Independent controller")
    JOINT_CONTROLLER = "joint-controller", _("Joint controller")
    PUBLIC_AUTHORITY = "public-authority", _("Public authority")
    OTHER = "other", _("Other recipient")


class DpaStatus(models.TextChoices):
    NONE = "none", _("No DPA")
    REQUESTED = "requested", _("Requested")
    SIGNED = "signed", _("Signed")
    NOT_REQUIRED = "not-required", _("Not required")


class RegisterEntry(models.Model):
    """What activities and vendors share: identity, tenancy, revision, import key."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="+")
    name = models.CharField(max_length=300)
    # The register's own identifier (an "ID" / "Nr." column), used by imports to match rows.
    reference = models.CharField(max_length=100, blank=True, default="")
    revision = models.PositiveIntegerField(default=1, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Vendor(RegisterEntry):
    """A processor or other recipient of personal data."""

    address = models.TextField(blank=True, default="")
    country = models.CharField(max_length=100, blank=True, default="")
    role = models.CharField(max_length=20, choices=VendorRole.choices, default=VendorRole.PROCESSOR)
    services = models.TextField(blank=True, default="")
    dpa_status = models.CharField(max_length=20, choices=DpaStatus.choices, default=DpaStatus.NONE)
    dpa_signed_on = models.DateField(null=True, blank=True)
    # [{name, country, services}] or strings.
    sub_processors = models.JSONField(default=list, blank=True)
    # A TRANSFER_SAFEGUARDS code (gdpr.composition.recognition) and the wording as given.
    transfer_mechanism = models.CharField(max_length=60, blank=True, default="")
    transfer_mechanism_wording = models.TextField(blank=True, default="")
    # The last completed review of the vendor's DPA (a reviews.Review, by id: the register
    # does not know the reviews app), written by register.services.vendor_record_dpa_review
    # only. Not editable: neither the API's body, the admin's form nor an import sets them.
    dpa_review_id = models.UUIDField(null=True, blank=True, editable=False)
    # Whether the review found items missing or weak (None: never reviewed).
    dpa_review_has_gaps = models.BooleanField(null=True, blank=True, editable=False)
    # The checklist ids of the items the review found missing (the report's finding).
    dpa_review_missing_items = models.JSONField(default=list, blank=True, editable=False)
    dpa_reviewed_at = models.DateTimeField(null=True, blank=True, editable=False)

    history = HistoricalRecords()

    class Meta(RegisterEntry.Meta):
        constraints = [
            models.UniqueConstraint(fields=["organization", "name"], name="vendor_org_name"),
        ]


class ProcessingActivity(RegisterEntry):
    """One processing activity of the Art. 30(1) record (or 30(2) when acting as processor)."""

    description = models.TextField(blank=True, default="")
    # [{purpose, legalBasis}] or strings.
    purposes = models.JSONField(default=list, blank=True)
    # [{code, wording}] or strings ("Art. 6(1)(b)", "consent", "Vertrag" ...).
    legal_bases = models.JSONField(default=list, blank=True)
    data_subjects = models.JSONField(default=list, blank=True)
    data_categories = models.JSONField(default=list, blank=True)
    special_categories = models.JSONField(default=list, blank=True)
    # Art. 9(2) conditions, [{code, wording}] or strings.
    art9_conditions = models.JSONField(default=list, blank=True)
    # [{category, period, criteria}] or strings.
    retention = models.JSONField(default=list, blank=True)
    security_measures = models.JSONField(default=list, blank=True)
    systems = models.JSONField(default=list, blank=True)
    # Recipients that are not vendors of the register: [{name, role, country, safeguard}].
    recipients = models.JSONField(default=list, blank=True)
    owner = models.CharField(max_length=200, blank=True, default="")
    role = models.CharField(
        max_length=20, choices=ActivityRole.choices, default=ActivityRole.CONTROLLER
    )
    joint_controllers = models.JSONField(default=list, blank=True)
    # Answers to the DPIA screening (WP248 criteria / Art. 35(3)), keyed like the DPIA inputs.
    dpia_screening = models.JSONField(default=dict, blank=True)
    # How consent is withdrawn, when consent is a basis (Art. 7(3)).
    consent_withdrawal = models.TextField(blank=True, default="")
    next_review_date = models.DateField(null=True, blank=True)
    vendors = models.ManyToManyField(Vendor, blank=True, related_name="activities")

    history = HistoricalRecords(m2m_fields=[vendors])

    class Meta(RegisterEntry.Meta):
        verbose_name_plural = "processing activities"
        constraints = [
            models.UniqueConstraint(fields=["organization", "name"], name="activity_org_name"),
        ]


class Transfer(models.Model):
    """A transfer to a recipient outside the EEA (Art. 44-49), of an activity or a vendor."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="+")
    activity = models.ForeignKey(
        ProcessingActivity,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="transfers",
    )
    vendor = models.ForeignKey(
        Vendor, null=True, blank=True, on_delete=models.CASCADE, related_name="transfers"
    )
    recipient = models.CharField(max_length=300)
    country = models.CharField(max_length=100)
    # A TRANSFER_SAFEGUARDS code, or "" when none is identified (a gap the report shows).
    mechanism = models.CharField(max_length=60, blank=True, default="")
    mechanism_wording = models.TextField(blank=True, default="")
    details = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["recipient", "country"]

    def __str__(self) -> str:
        return f"{self.recipient} ({self.country})"


class ImportStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    PROCESSING = "processing", _("Processing")
    COMPLETED = "completed", _("Completed")
    FAILED = "failed", _("Failed")


class RegisterImport(LeasedWork):
    """One import of a register file (or its dry run), run by a worker (importing/jobs.py).

    A row of background work (common.background: its lease columns come from `LeasedWork`,
    the kind is register.work.KIND); `status` is the import's own, as the API shows it.
    The uploaded file waits in the storage under `file_key` until the import has run, then
    it is deleted (`file_key` empty); `result` is the plan, as the API answers it.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="+")
    # Who started it, as the audit events of the import name them (audit.services.Actor).
    actor = models.JSONField(default=dict)
    user_id = models.IntegerField(null=True, blank=True)
    via = models.CharField(max_length=8, default="api")  # "api" or "admin"
    dry_run = models.BooleanField(default=False)
    file_name = models.CharField(max_length=255)
    file_size = models.PositiveIntegerField(default=0)
    file_key = models.CharField(max_length=500, blank=True, default="")
    # The admin keeps a previewed file for its confirmation until then (else: deleted).
    keep_file_until = models.DateTimeField(null=True, blank=True)
    status = models.CharField(
        max_length=12, choices=ImportStatus.choices, default=ImportStatus.QUEUED, db_index=True
    )
    stage = models.CharField(max_length=16, blank=True, default="")
    error_code = models.CharField(max_length=32, blank=True, default="")
    error_message = models.TextField(blank=True, default="")
    error_details = models.JSONField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["organization", "status"], name="register_import_org_status")
        ]

    def __str__(self) -> str:
        return f"{self.file_name} ({self.status})"

    @property
    def finished(self) -> bool:
        return self.status in (ImportStatus.COMPLETED, ImportStatus.FAILED)
