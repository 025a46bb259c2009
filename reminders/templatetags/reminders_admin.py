"""The reminders' block of the DPO start page (templates/admin/compliance/start.html).

A tag rather than a context entry of compliance.admin_views: the reminders read the
register report (compliance), so compliance cannot import them; the page loads the block.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils import timezone

from reminders.models import ReminderKind
from reminders.selectors import sent_reminders, upcoming_reminders

register = template.Library()

SENT_SHOWN = 10
DOCUMENT_KINDS = {ReminderKind.BREACH, ReminderKind.REQUEST, ReminderKind.DPIA_REVIEW}


def _subject_url(kind: str, subject_id: str) -> str:
    if kind in DOCUMENT_KINDS:
        return reverse("admin:legal_documents_legaldocument_change", args=[subject_id])
    if kind == ReminderKind.VENDOR_DPAS:
        return reverse("admin:register_vendor_changelist")
    return reverse("admin:legal_documents_legaldocument_changelist") + "?stale=yes"


@register.inclusion_tag("admin/reminders/start_panel.html")
def reminders_panel(organization: Any) -> dict[str, Any]:
    if organization is None:
        return {"organization": None}
    now = timezone.now()
    upcoming = [
        {
            "kind": ReminderKind(reminder.clock.kind).label,
            "due_at": reminder.step.due_at,
            "deadline": reminder.clock.deadline,
            "due_date": reminder.clock.due_date,
            "url": _subject_url(reminder.clock.kind, reminder.clock.subject_id),
        }
        for reminder in upcoming_reminders(organization_id=organization.pk, now=now)
    ]
    sent = list(sent_reminders(organization_id=organization.pk)[:SENT_SHOWN])
    return {
        "organization": organization,
        "upcoming": upcoming,
        "sent": sent,
        "sent_url": reverse("admin:reminders_sentreminder_changelist"),
        "preferences_url": reverse("admin:reminders_reminderpreference_changelist"),
    }
