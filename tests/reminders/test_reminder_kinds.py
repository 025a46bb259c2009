"""One clock-driven test per reminder kind: sent once, at its time, in the member's language,
with the deadline written in that language's format; none for a closed breach or an
answered request."""

from __future__ import annotations

from audit.services import Actor
from legal_documents.services.closing import legal_document_close_clock
from register import services as register
from tests.reminders.conftest import at, document, member

ACTOR = Actor(label="test")


def test_a_breach_is_reminded_at_24_48_and_66_hours_in_german(organization, run):
    dpo = member(organization, language="de")
    breach = document(organization, "BREACH_NOTIFICATION", awareAt="2026-03-02T08:00:00Z")

    assert run("2026-03-03 07:59") == []
    (first,) = run("2026-03-03 08:00")
    assert run("2026-03-03 09:00") == []
    (second,) = run("2026-03-04 08:05")
    assert run("2026-03-04 20:00") == []
    assert run("2026-03-04 14:00") == []
    (third,) = run("2026-03-05 02:00")
    assert run("2026-03-05 07:00") == [] and run("2026-03-06 10:00") == []

    assert first.to == [dpo.user.email]
    # The deadline: 72 hours after awareness, in German ("5. März 2026 08:00").
    assert "5. März 2026 08:00 UTC" in first.subject
    assert first.subject.startswith(
        "Meldung der Verletzung des Schutzes personenbezogener Daten: noch 48 Stunden"
    )
    assert "noch 24 Stunden" in second.subject
    assert "noch 6 Stunden" in third.subject
    assert "Art. 33 Abs. 1 DSGVO" in first.body
    assert f"/admin/legal_documents/legaldocument/{breach.pk}/" in first.body


def test_a_breach_notified_to_the_authority_is_not_reminded(organization, run):
    member(organization)
    breach = document(organization, "BREACH_NOTIFICATION", awareAt="2026-03-02T08:00:00Z")
    assert len(run("2026-03-03 08:00")) == 1

    legal_document_close_clock(
        document_id=breach.pk, organization_id=organization.pk, actor=ACTOR,
        at=at("2026-03-03 12:00"),
    )  # fmt: skip

    assert run("2026-03-04 08:00") == [] and run("2026-03-04 14:00") == []
    breach.refresh_from_db()
    assert breach.inputs["notifiedAt"] == "2026-03-03T12:00:00Z"


def test_a_finalized_breach_notification_is_not_reminded(organization, run):
    member(organization)
    breach = document(organization, "BREACH_NOTIFICATION", awareAt="2026-03-02T08:00:00Z")
    breach.stage = "final"
    breach.save()

    assert run("2026-03-03 08:00") == []


def test_a_request_is_reminded_7_days_before_on_and_after_its_due_date_in_french(organization, run):
    dpo = member(organization, language="fr")
    request = document(organization, "DATA_SUBJECT_REQUEST_FORM", receivedAt="2026-03-02")
    # Received on 2 March: one month, to 2 April 2026 (a Thursday, a working day).

    assert run("2026-03-25 23:59") == []
    (before,) = run("2026-03-26 00:00")
    assert run("2026-03-27 09:00") == []
    (due,) = run("2026-04-02 06:00")
    assert run("2026-04-02 18:00") == []
    (overdue,) = run("2026-04-03 06:00")
    assert run("2026-04-10 06:00") == []

    assert before.to == [dpo.user.email]
    assert "2 avril 2026" in before.subject and "7 jours" in before.subject
    assert "aujourd'hui" in due.subject
    assert "en retard" in overdue.subject
    assert "2 mars 2026" in before.body  # received
    assert "article 12, paragraphe 3, du RGPD" in before.body
    assert f"/admin/legal_documents/legaldocument/{request.pk}/" in before.body


def test_an_extended_request_is_reminded_before_its_extended_due_date(organization, run):
    member(organization)
    document(
        organization, "DATA_SUBJECT_REQUEST_FORM", receivedAt="2026-03-02",
        extensionNeeded=True, extensionReason="Many requests",
    )  # fmt: skip

    assert run("2026-03-26 00:00") == []  # the one-month date does not count
    (before,) = run("2026-05-26 00:00")  # 2 June 2026: three months, a Tuesday

    assert "June 2, 2026" in before.subject  # CLDR long form
    assert "extended" in before.body


def test_an_answered_request_is_not_reminded(organization, run):
    member(organization)
    document(
        organization, "DATA_SUBJECT_REQUEST_FORM", receivedAt="2026-03-02",
        answeredAt="2026-03-20T10:00:00Z",
    )  # fmt: skip
    request = document(organization, "DATA_SUBJECT_REQUEST_FORM", receivedAt="2026-03-02")
    (before,) = run("2026-03-26 00:00")  # the second request only

    legal_document_close_clock(document_id=request.pk, organization_id=organization.pk, actor=ACTOR)

    assert str(request.pk) in before.body
    assert run("2026-04-02 06:00") == [] and run("2026-04-03 06:00") == []


def test_a_dpia_review_is_reminded_30_days_ahead_in_spanish(organization, run):
    member(organization, language="es")
    dpia = document(organization, "DPIA")
    dpia.answers = {"nextReviewDate": {"answer": "2026-06-30"}}
    dpia.save()

    assert run("2026-05-30 23:00") == []
    (reminder,) = run("2026-05-31 00:10")
    assert run("2026-06-15 00:10") == [] and run("2026-07-01 00:10") == []

    assert "30 de junio de 2026" in reminder.subject
    assert reminder.subject.startswith("Revisión de la EIPD")
    assert "artículo 35, apartado 11, del RGPD" in reminder.body
    assert f"/admin/legal_documents/legaldocument/{dpia.pk}/" in reminder.body


def test_stale_documents_are_listed_in_a_weekly_digest_in_italian(organization, run):
    member(organization, language="it")
    stale = document(organization, "PRIVACY_POLICY")
    stale.stale_since = at("2026-02-27 10:00")
    stale.save()

    (digest,) = run("2026-03-02 06:00")  # a Monday
    assert run("2026-03-04 06:00") == []  # the same week
    (next_week,) = run("2026-03-09 00:05")

    assert digest.subject == "Riepilogo settimanale: 1 documento non è aggiornato"
    assert "27 febbraio 2026" in digest.body
    assert f"/admin/legal_documents/legaldocument/{stale.pk}/" in digest.body
    assert next_week.subject == digest.subject


def test_no_digest_when_no_document_is_stale(organization, run):
    member(organization)
    document(organization, "PRIVACY_POLICY")

    assert run("2026-03-02 06:00") == []


def test_vendor_dpas_pending_are_listed_in_a_weekly_digest(organization, run):
    member(organization)
    register.vendor_create(
        organization=organization, actor=ACTOR,
        data={"name": "Mailer Ltd", "country": "Ireland", "role": "processor",
              "dpa_status": "requested"},
    )  # fmt: skip
    register.vendor_create(
        organization=organization, actor=ACTOR,
        data={"name": "Hosting GmbH", "country": "Germany", "role": "processor",
              "dpa_status": "signed"},
    )  # fmt: skip

    (digest,) = run("2026-03-02 06:00")
    assert run("2026-03-03 06:00") == []

    assert digest.subject == "Weekly digest: 1 vendor DPA pending"
    assert "Mailer Ltd: no signed DPA on file" in digest.body
    assert "Hosting GmbH" not in digest.body
