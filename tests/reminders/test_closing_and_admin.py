"""Closing a clock through the API and the admin; the preferences, the outbox and the start
page's block in the admin."""

from __future__ import annotations

from datetime import timedelta

from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEvent
from reminders.models import ReminderPreference, SentReminder
from reminders.services import send_due_reminders
from tests.admin.conftest import staff
from tests.factories import LegalDocumentFactory
from tests.reminders.conftest import at


def _close_url(document) -> str:  # type: ignore[no-untyped-def]
    return f"/api/v1/legal-documents/{document.pk}/close"


def test_the_api_closes_a_breach_and_its_reminders_stop(dpo):
    breach = LegalDocumentFactory(
        organization=dpo.organization, creator=dpo.membership.user,
        document_type="BREACH_NOTIFICATION", inputs={"awareAt": "2026-03-02T08:00:00Z"},
    )  # fmt: skip

    response = dpo.client.post(_close_url(breach), {"at": "2026-03-02T20:00:00Z"}, format="json")

    assert response.status_code == 200
    assert response.json()["inputs"]["notifiedAt"] == "2026-03-02T20:00:00Z"
    assert send_due_reminders(now=at("2026-03-03 08:00")) == 0
    event = AuditEvent.objects.get(action="legal_document.clock_closed")
    assert event.details["input"] == "notifiedAt" and event.object_id == str(breach.pk)


def test_the_api_marks_a_request_answered(dpo):
    request = LegalDocumentFactory(
        organization=dpo.organization, creator=dpo.membership.user,
        document_type="DATA_SUBJECT_REQUEST_FORM", inputs={"receivedAt": "2026-03-02"},
    )  # fmt: skip

    response = dpo.client.post(_close_url(request), {}, format="json")

    assert response.status_code == 200
    assert response.json()["inputs"]["answeredAt"].endswith("Z")
    assert send_due_reminders(now=at("2026-04-02 08:00")) == 0


def test_a_document_without_a_clock_cannot_be_closed(dpo):
    dpia = LegalDocumentFactory(organization=dpo.organization, creator=dpo.membership.user)

    response = dpo.client.post(_close_url(dpia), {}, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"


def test_an_auditor_cannot_close_a_clock(dpo, auditor):
    breach = LegalDocumentFactory(
        organization=dpo.organization, creator=dpo.membership.user,
        document_type="BREACH_NOTIFICATION", inputs={"awareAt": "2026-03-02T08:00:00Z"},
    )  # fmt: skip

    assert auditor.client.post(_close_url(breach), {}, format="json").status_code == 403
    breach.refresh_from_db()
    assert "notifiedAt" not in breach.inputs


def test_the_admin_action_marks_a_request_answered(dpo):
    member = staff(dpo)
    request = LegalDocumentFactory(
        organization=dpo.organization, creator=dpo.membership.user,
        document_type="DATA_SUBJECT_REQUEST_FORM", inputs={"receivedAt": "2026-03-02"},
    )  # fmt: skip

    response = member.client.post(
        reverse("admin:legal_documents_legaldocument_changelist"),
        {"action": "close_clocks", "_selected_action": [str(request.pk)]},
        follow=True,
    )

    assert response.status_code == 200
    request.refresh_from_db()
    assert request.inputs["answeredAt"]
    assert "1 document marked as done." in response.content.decode()


def test_a_member_sets_their_own_preferences_in_the_admin(dpo, auditor):
    member = staff(auditor)  # every role, auditors too
    url = reverse("admin:reminders_reminderpreference_changelist")

    first = member.client.get(url)
    assert first.status_code == 302 and first["Location"].endswith("/add/")
    member.client.cookies["django_language"] = "it"  # the admin's language switcher's cookie
    form = member.client.get(first["Location"])
    assert '<option value="it" selected>' in form.content.decode()  # proposed

    saved = member.client.post(
        first["Location"],
        {"breach": "on", "request": "on", "dpia_review": "", "stale_documents": "on",
         "vendor_dpas": "", "language": "es"},
    )  # fmt: skip

    assert saved.status_code == 302
    preference = ReminderPreference.objects.get(user=auditor.membership.user)
    assert (preference.language, preference.dpia_review, preference.breach) == ("es", False, True)
    again = member.client.get(url)
    assert again["Location"].endswith(f"/{preference.pk}/change/")


def test_a_member_cannot_open_another_members_preferences(dpo, auditor):
    other = ReminderPreference.objects.create(user=dpo.membership.user, language="de")
    member = staff(auditor)

    response = member.client.get(
        reverse("admin:reminders_reminderpreference_change", args=[other.pk])
    )

    assert response.status_code in (302, 404)
    assert "Deutsch" not in response.content.decode()


def test_the_start_page_shows_the_next_and_the_sent_reminders(dpo, outsider):
    member = staff(dpo)
    aware = timezone.now() - timedelta(hours=1)
    breach = LegalDocumentFactory(
        organization=dpo.organization, creator=dpo.membership.user,
        document_type="BREACH_NOTIFICATION", inputs={"awareAt": aware.isoformat()},
    )  # fmt: skip
    LegalDocumentFactory(
        organization=outsider.organization, creator=outsider.membership.user,
        document_type="BREACH_NOTIFICATION", inputs={"awareAt": "2026-03-02T08:00:00Z"},
    )  # fmt: skip
    SentReminder.objects.create(
        organization=dpo.organization, user=dpo.membership.user, kind="request",
        subject_id="x", occurrence="due-date:2026-04-02", language="en",
        recipient=dpo.membership.user.email, subject="Data subject request: answer due today",
        body="...", sent_at=at("2026-04-02 00:00"),
    )  # fmt: skip
    assert send_due_reminders(now=at("2026-03-03 08:00")) == 1  # the outsider's breach

    page = member.client.get(reverse("admin:compliance_start")).content.decode()

    block = page[page.index('id="reminders"') :]
    upcoming = block[block.index('class="reminder-upcoming"') :]
    assert reverse("admin:legal_documents_legaldocument_change", args=[breach.pk]) in upcoming
    assert f"{aware + timedelta(hours=24):%Y-%m-%d %H:%M} UTC" in upcoming  # its 24 hours
    assert "Data subject request: answer due today" in block
    assert "Breach notification: 48 hours left" not in page  # another organization's
