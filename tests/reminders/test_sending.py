"""How reminders are sent: to whom, once, audited, and by the beat."""

from __future__ import annotations

import threading

import pytest
from django.conf import settings
from django.core import mail
from django.db import connection

from audit.models import AuditEvent
from reminders.models import SentReminder
from reminders.services import send_due_reminders
from reminders.tasks import send_due_reminders_task
from tests.factories import OrganizationFactory
from tests.reminders.conftest import at, document, member


def test_each_member_gets_the_kinds_they_chose_in_their_language(organization, run):
    german = member(organization, language="de")
    no_breaches = member(organization, language="fr", breach=False)
    default = member(organization)  # never saved a preference: every kind, in English
    document(organization, "BREACH_NOTIFICATION", awareAt="2026-03-02T08:00:00Z")

    mails = run("2026-03-03 08:00")

    by_recipient = {message.to[0]: message for message in mails}
    assert set(by_recipient) == {german.user.email, default.user.email}
    assert no_breaches.user.email not in by_recipient
    assert "noch 48 Stunden" in by_recipient[german.user.email].subject
    assert by_recipient[default.user.email].subject == (
        "Breach notification: 48 hours left, due by March 5, 2026 08:00 UTC"
    )


def test_a_member_of_another_organization_gets_nothing(organization, run):
    dpo = member(organization)
    member(OrganizationFactory())
    document(organization, "BREACH_NOTIFICATION", awareAt="2026-03-02T08:00:00Z")

    mails = run("2026-03-03 08:00")

    assert [message.to for message in mails] == [[dpo.user.email]]


def test_a_reminder_is_kept_in_the_outbox_and_audited(organization, run):
    dpo = member(organization, language="de")
    breach = document(organization, "BREACH_NOTIFICATION", awareAt="2026-03-02T08:00:00Z")

    (sent,) = run("2026-03-03 08:00")

    row = SentReminder.objects.get(organization=organization)
    assert (row.user, row.kind, row.subject_id, row.occurrence) == (
        dpo.user, "breach", str(breach.pk), "24h",
    )  # fmt: skip
    assert (row.subject, row.body, row.recipient) == (sent.subject, sent.body, dpo.user.email)
    assert row.deadline == at("2026-03-05 08:00") and row.sent_at == at("2026-03-03 08:00")
    event = AuditEvent.objects.get(organization=organization, action="reminder.sent")
    assert event.object_id == str(row.pk)
    assert event.details["kind"] == "breach" and event.details["occurrence"] == "24h"
    assert event.details["recipientUserId"] == dpo.user.pk
    assert event.details["language"] == "de"


def test_a_second_run_sends_nothing(organization):
    member(organization)
    document(organization, "BREACH_NOTIFICATION", awareAt="2026-03-02T08:00:00Z")

    assert send_due_reminders(now=at("2026-03-03 08:00")) == 1
    assert send_due_reminders(now=at("2026-03-03 08:00")) == 0
    assert send_due_reminders(now=at("2026-03-03 08:05")) == 0

    assert len(mail.outbox) == 1
    assert SentReminder.objects.filter(organization=organization).count() == 1
    assert AuditEvent.objects.filter(organization=organization, action="reminder.sent").count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_runs_send_once():
    organization = OrganizationFactory()
    member(organization)
    document(organization, "BREACH_NOTIFICATION", awareAt="2026-03-02T08:00:00Z")
    start = threading.Barrier(2)
    counts: list[int] = []

    def one_run() -> None:
        try:
            start.wait()
            counts.append(send_due_reminders(now=at("2026-03-03 08:00")))
        finally:
            connection.close()

    runs = [threading.Thread(target=one_run) for _ in range(2)]
    for thread in runs:
        thread.start()
    for thread in runs:
        thread.join()

    assert sorted(counts) == [0, 1]
    assert len(mail.outbox) == 1
    assert SentReminder.objects.filter(organization=organization).count() == 1


def test_a_mail_that_cannot_be_sent_is_tried_again_at_the_next_run(organization, settings):
    member(organization)
    document(organization, "BREACH_NOTIFICATION", awareAt="2026-03-02T08:00:00Z")
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", 9, 2

    assert send_due_reminders(now=at("2026-03-03 08:00")) == 0  # nothing listens on port 9
    assert not SentReminder.objects.filter(organization=organization).exists()
    assert not AuditEvent.objects.filter(organization=organization, action="reminder.sent")

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert send_due_reminders(now=at("2026-03-03 09:00")) == 1


def test_the_beat_runs_the_reminders_every_five_minutes():
    entry = settings.CELERY_BEAT_SCHEDULE["send-due-reminders"]

    assert entry["task"] == send_due_reminders_task.name
    assert entry["schedule"] == 300.0


def test_the_beat_task_sends_what_is_due_now(organization):
    member(organization)
    document(organization, "BREACH_NOTIFICATION", awareAt="2000-01-01T00:00:00Z")
    stale = document(organization, "PRIVACY_POLICY")
    stale.stale_since = at("2000-01-01 00:00")
    stale.save()

    # Only this week's digest: a breach of 2000 is long past its reminders.
    assert send_due_reminders_task() == 1
    assert mail.outbox[0].subject == "Weekly digest: 1 document is stale"


def test_make_run_keeps_the_mails_in_files_under_the_data_directory():
    import config.settings.base as base  # as read from the environment (no EMAIL_HOST here)

    assert base.EMAIL_BACKEND == "django.core.mail.backends.filebased.EmailBackend"
    assert str(base.DATA_DIR / "mail") == base.EMAIL_FILE_PATH
