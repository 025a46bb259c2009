"""A reminder's subject and body, in the member's language (Django's gettext, locale/).

Dates are written in the language's long form, as the documents write them (CLDR through
Babel: "April 7, 2026", "7. April 2026", "7 avril 2026", "7 de abril de 2026",
"7 aprile 2026"; Django's own Italian format capitalises the month); times are UTC, and
say so. A mail names no data subject and quotes no document: it says which deadline, when,
and links to the admin page.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime

from babel.dates import format_date
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy, ngettext

from reminders.clocks import BREACH_DEADLINE_HOURS, Clock, Step
from reminders.models import ReminderKind

DOCUMENT_TYPE_NAMES = {
    "RECORD_OF_PROCESSING": gettext_lazy("Record of processing activities"),
    "DPIA": gettext_lazy("Data protection impact assessment"),
    "PRIVACY_POLICY": gettext_lazy("Privacy notice"),
    "DATA_PROCESSING_AGREEMENT": gettext_lazy("Data processing agreement"),
    "BREACH_NOTIFICATION": gettext_lazy("Breach notification"),
    "DATA_SUBJECT_REQUEST_FORM": gettext_lazy("Data subject request form"),
}
VENDOR_FINDINGS = {
    "processor-without-dpa": gettext_lazy("no signed DPA on file"),
    "vendor-dpa-missing-items": gettext_lazy("the last review of its DPA found gaps"),
}


@dataclass(frozen=True, slots=True)
class Mail:
    subject: str
    body: str


def day_text(day: date) -> str:
    return format_date(day, format="long", locale=translation.get_language() or "en")


def moment_text(moment: datetime) -> str:
    utc = moment.astimezone(UTC)
    return f"{day_text(utc.date())} {utc:%H:%M} UTC"


def _link(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def _document_link(document_id: str) -> str:
    return _link(reverse("admin:legal_documents_legaldocument_change", args=[document_id]))


def _footer() -> str:
    return "\n\n-- \n" + gettext(
        "You receive this reminder as a member of your organization. Choose which reminders"
        " you get, and their language, in the admin: %(link)s"
    ) % {"link": _link(reverse("admin:reminders_reminderpreference_changelist"))}


def _breach(clock: Clock, step: Step, now: datetime) -> Mail:
    assert clock.deadline is not None
    deadline = moment_text(clock.deadline)
    hours = int(step.occurrence.removesuffix("h"))
    if now >= clock.deadline:
        subject = gettext("Breach notification overdue since %(deadline)s") % {"deadline": deadline}
    else:
        subject = gettext("Breach notification: %(left)d hours left, due by %(deadline)s") % {
            "left": BREACH_DEADLINE_HOURS - hours,
            "deadline": deadline,
        }
    body = gettext(
        "%(hours)d hours have passed since your organization became aware of a personal data"
        " breach (%(aware)s).\n\nUnder Art. 33(1) GDPR the supervisory authority must be"
        " notified without undue delay and, where feasible, within 72 hours: by %(deadline)s."
        " A notification made later must give the reasons for the delay.\n\nOpen the breach"
        " notification: %(link)s\n\nOnce the authority is notified, mark the notification as"
        " done (the admin's action, or the API's close): no further reminder is sent."
    ) % {
        "hours": hours,
        "aware": moment_text(clock.facts["aware_at"]),
        "deadline": deadline,
        "link": _document_link(clock.subject_id),
    }
    return Mail(subject, body)


def _request(clock: Clock, step: Step, now: datetime) -> Mail:
    assert clock.due_date is not None
    deadline = day_text(clock.due_date)
    stage = step.occurrence.split(":", 1)[0]
    if stage == "7-days-before":
        subject = gettext("Data subject request: answer due in 7 days, by %(deadline)s")
    elif stage == "due-date":
        subject = gettext("Data subject request: answer due today, %(deadline)s")
    else:
        subject = gettext("Data subject request overdue: the answer was due by %(deadline)s")
    if clock.facts["extended"]:
        rule = gettext(
            "The period was extended by two further months (Art. 12(3) GDPR): the answer is"
            " due by %(deadline)s at the latest."
        )
    else:
        rule = gettext(
            "Under Art. 12(3) GDPR the answer is due within one month of receipt: by"
            " %(deadline)s. Where necessary, the period may be extended by two further months;"
            " the data subject must then be told within the first month, with the reasons."
        )
    body = (
        gettext("A data subject request was received on %(received)s.")
        % {"received": day_text(clock.facts["received"])}
        + "\n\n"
        + rule % {"deadline": deadline}
        + "\n\n"
        + gettext(
            "Open the request: %(link)s\n\nOnce the request is answered, mark it as done (the"
            " admin's action, or the API's close): no further reminder is sent."
        )
        % {"link": _document_link(clock.subject_id)}
    )
    return Mail(subject % {"deadline": deadline}, body)


def _dpia_review(clock: Clock, step: Step, now: datetime) -> Mail:
    assert clock.due_date is not None
    deadline = day_text(clock.due_date)
    subject = gettext("DPIA review due on %(deadline)s") % {"deadline": deadline}
    activities = clock.facts.get("activities") or []
    body = gettext(
        "A data protection impact assessment is due for review on %(deadline)s (Art. 35(11)"
        " GDPR: review whether the processing is performed in accordance with the assessment,"
        " at least when the risk it represents changes)."
    ) % {"deadline": deadline}
    if activities:
        body += "\n\n" + gettext("Processing activities: %(names)s") % {
            "names": ", ".join(activities)
        }
    body += "\n\n" + gettext("Open the DPIA: %(link)s") % {"link": _document_link(clock.subject_id)}
    return Mail(subject, body)


def _stale_documents(clock: Clock, step: Step, now: datetime) -> Mail:
    documents = clock.facts["documents"]
    count = len(documents)
    subject = ngettext(
        "Weekly digest: %(count)d document is stale",
        "Weekly digest: %(count)d documents are stale",
        count,
    ) % {"count": count}
    lines = [
        gettext("%(type)s of %(created)s, stale since %(since)s: %(link)s")
        % {
            "type": DOCUMENT_TYPE_NAMES.get(d["type"], d["type"]),
            "created": day_text(d["created"].date()),
            "since": day_text(d["since"].date()),
            "link": _document_link(d["id"]),
        }
        for d in documents
    ]
    body = (
        gettext(
            "The register entries these documents were written from changed since. Refresh"
            " each from the register so that it says what the register says:"
        )
        + "\n\n"
        + "\n".join(f"- {line}" for line in lines)
    )
    return Mail(subject, body)


def _vendor_dpas(clock: Clock, step: Step, now: datetime) -> Mail:
    vendors = clock.facts["vendors"]
    count = len(vendors)
    subject = ngettext(
        "Weekly digest: %(count)d vendor DPA pending",
        "Weekly digest: %(count)d vendor DPAs pending",
        count,
    ) % {"count": count}
    lines = [
        f"- {v['name']}: {VENDOR_FINDINGS.get(v['finding'], v['finding'])}"
        f" ({_link(reverse('admin:register_vendor_change', args=[v['id']]))})"
        for v in vendors
    ]
    body = (
        gettext(
            "These processors' data processing agreements (Art. 28(3) GDPR) need your attention:"
        )
        + "\n\n"
        + "\n".join(lines)
    )
    return Mail(subject, body)


WRITERS = {
    ReminderKind.BREACH.value: _breach,
    ReminderKind.REQUEST.value: _request,
    ReminderKind.DPIA_REVIEW.value: _dpia_review,
    ReminderKind.STALE_DOCUMENTS.value: _stale_documents,
    ReminderKind.VENDOR_DPAS.value: _vendor_dpas,
}


def reminder_mail(*, clock: Clock, step: Step, now: datetime, language: str) -> Mail:
    """The mail of `step` of `clock`, written in `language`."""
    with translation.override(language):
        mail = WRITERS[str(clock.kind)](clock, step, now)
        return Mail(mail.subject, mail.body + _footer())
