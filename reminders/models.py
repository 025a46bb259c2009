"""Each member's reminder preferences, and every reminder sent (the outbox and its guard).

A `SentReminder` row is unique per (member, kind, subject, occurrence): it is written in the
transaction that decides to send, before the mail goes out (reminders.services), so that a
second run, or a concurrent one, finds it and sends nothing. Its subject and body are kept:
the admin shows them as the organization's outbox.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ReminderKind(models.TextChoices):
    BREACH = "breach", _("Breach: 24, 48 and 66 hours after awareness (Art. 33(1))")
    REQUEST = (
        "request",
        _("Data subject request: 7 days before, on and after its due date (Art. 12(3))"),
    )
    DPIA_REVIEW = "dpia-review", _("DPIA review: 30 days ahead (Art. 35(11))")
    STALE_DOCUMENTS = "stale-documents", _("Weekly digest of stale documents")
    VENDOR_DPAS = "vendor-dpas", _("Weekly digest of vendor DPAs pending")


# The languages a reminder is written in: the admin's (config.settings.base.LANGUAGES).
REMINDER_LANGUAGES = [
    ("en", "English"),
    ("de", "Deutsch"),
    ("fr", "Français"),
    ("es", "Español"),
    ("it", "Italiano"),
]
DEFAULT_LANGUAGE = "en"


class ReminderPreference(models.Model):
    """What one member wants: each kind on or off, and the language. Without a row: every
    kind, in English (the admin's form proposes the member's admin language)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reminder_preference"
    )
    breach = models.BooleanField(_("breaches"), default=True, help_text=ReminderKind.BREACH.label)
    request = models.BooleanField(
        _("data subject requests"), default=True, help_text=ReminderKind.REQUEST.label
    )
    dpia_review = models.BooleanField(
        _("DPIA reviews"), default=True, help_text=ReminderKind.DPIA_REVIEW.label
    )
    stale_documents = models.BooleanField(
        _("stale documents"), default=True, help_text=ReminderKind.STALE_DOCUMENTS.label
    )
    vendor_dpas = models.BooleanField(
        _("vendor DPAs"), default=True, help_text=ReminderKind.VENDOR_DPAS.label
    )
    language = models.CharField(
        _("language"), max_length=5, choices=REMINDER_LANGUAGES, default=DEFAULT_LANGUAGE
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("my reminder preferences")
        verbose_name_plural = _("my reminder preferences")

    def __str__(self) -> str:
        return str(self.user)

    def wants(self, kind: str) -> bool:
        return bool(getattr(self, KIND_FIELDS[kind]))


# The preference field of each kind.
KIND_FIELDS = {
    ReminderKind.BREACH.value: "breach",
    ReminderKind.REQUEST.value: "request",
    ReminderKind.DPIA_REVIEW.value: "dpia_review",
    ReminderKind.STALE_DOCUMENTS.value: "stale_documents",
    ReminderKind.VENDOR_DPAS.value: "vendor_dpas",
}


class SentReminder(models.Model):
    """One reminder mailed to one member: the guard against a second mail, and the outbox."""

    organization = models.ForeignKey(
        "organizations.Organization", on_delete=models.CASCADE, related_name="+"
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(_("kind"), max_length=20, choices=ReminderKind.choices)
    # The document (breach, request, DPIA) or, for a digest, the organization.
    subject_id = models.CharField(max_length=64)
    # Which of the subject's reminders: "24h", "7-days-before:2026-04-07", "2026-W15"...
    occurrence = models.CharField(max_length=64)
    # The deadline the reminder is about: a breach's moment, a request's or review's day (a
    # digest has none).
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True)
    due_date = models.DateField(_("due date"), null=True, blank=True)
    language = models.CharField(_("language"), max_length=5, choices=REMINDER_LANGUAGES)
    recipient = models.EmailField(_("recipient"))
    subject = models.CharField(_("subject"), max_length=300)
    body = models.TextField(_("body"))
    sent_at = models.DateTimeField(_("sent at"), db_index=True)

    class Meta:
        ordering = ["-sent_at", "-pk"]
        verbose_name = _("reminder sent")
        verbose_name_plural = _("reminders sent")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind", "subject_id", "occurrence"], name="reminder_sent_once"
            )
        ]
        indexes = [models.Index(fields=["organization", "-sent_at"], name="reminder_org_sent")]

    def __str__(self) -> str:
        return self.subject
