"""Breach notification items added by the legal review: timeline, encryption, draft message.

EDPB Guidelines 9/2022 (and 01/2021 examples): the controller documents when the breach
occurred, was discovered and when it became aware (the 72 hours run from awareness), says
whether the data was encrypted (Art. 34(3)(a) only applies to state-of-the-art encryption with
an uncompromised key), and tells data subjects concretely what to do.
"""

from __future__ import annotations

from datetime import datetime

from gdpr.composition.assessments.breach_deadline import NOTIFICATION_WINDOW, as_utc
from gdpr.composition.assessments.breach_risk import BreachDecision, harm_codes
from gdpr.composition.context import CompositionContext
from gdpr.composition.markdown import escape_inline, join_blocks, table
from gdpr.composition.markdown import to_be_completed as marker
from gdpr.concepts import recognise_all
from gdpr.i18n import N_, _, format_datetime, punct

RISK_LABELS = {
    "unlikely": N_("unlikely to result in a risk"),
    "risk": N_("a risk, not a high risk"),
    "high": N_("high risk"),
}


def as_datetime(value: object) -> datetime | None:
    if isinstance(value, datetime):
        return as_utc(value)
    if isinstance(value, str) and value.strip():
        try:
            return as_utc(datetime.fromisoformat(value.replace("Z", "+00:00")))
        except ValueError:  # validation refuses such text; stored inputs must still write
            return None
    return None


def aware_at(context: CompositionContext) -> datetime | None:
    """When the controller became aware: `awareAt`, else the discovery time."""
    return as_datetime(context.value("awareAt")) or as_datetime(context.value("discoveredAt"))


def notified_at(context: CompositionContext) -> datetime | None:
    return as_datetime(context.value("notifiedAt"))


def notified_late(context: CompositionContext) -> bool:
    """True when the notification was (or, unsent, now is) more than 72 hours after awareness."""
    aware = aware_at(context)
    if aware is None:
        return False
    sent = notified_at(context) or as_utc(context.now)
    return sent > aware + NOTIFICATION_WINDOW


def write_timeline(context: CompositionContext) -> str:
    occurred = as_datetime(context.value("occurredAt"))
    discovered = as_datetime(context.value("discoveredAt"))
    aware = aware_at(context)
    notified = notified_at(context)
    rows = [
        (_("Occurred"), format_datetime(occurred) if occurred else _("not known yet")),
        (_("Discovered"), format_datetime(discovered) if discovered else "-"),
        (_("Aware (the 72 hours start)"), format_datetime(aware) if aware else "-"),
        (
            _("Notified to the supervisory authority"),
            format_datetime(notified)
            if notified
            else _(
                "on submission of this notification (prepared {now})",
                now=format_datetime(context.now),
            ),
        ),
    ]
    missing = [
        what
        for what, value in (
            (_("when the breach occurred (or that it is still being established)"), occurred),
            (_("when the breach was discovered (discoveredAt)"), discovered),
        )
        if value is None
    ]
    if occurred is None and context.value("occurredUnknown"):
        missing = missing[1:]
    return join_blocks(
        table((_("Step"), _("Date and time (UTC)")), rows),
        marker(f"{punct(';')} ".join(missing)) if missing else None,
    )


def write_encryption(context: CompositionContext) -> str:
    encrypted = context.flag("encrypted")
    if encrypted is None:
        return marker(
            _("whether the data was encrypted, and whether the key is safe (Art. 34(3)(a))")
        )
    if not encrypted:
        return _(
            "The data concerned was not encrypted: Art. 34(3)(a) does not apply, so the"
            " exemption from communicating a high-risk breach to data subjects is not"
            " available on this ground."
        )
    if context.flag("keyCompromised"):
        return _(
            "The data was encrypted, but the key was compromised or is not known to be safe:"
            " the data is not unintelligible, so Art. 34(3)(a) does not apply."
        )
    return _(
        "The data was encrypted with state-of-the-art encryption and the key was not"
        " compromised: the data is unintelligible to anyone not authorised to access it, so"
        " Art. 34(3)(a) applies and, for a confidentiality breach, the communication to data"
        " subjects is not required on that ground."
    )


def _advice(context: CompositionContext) -> list[str]:
    harms = harm_codes(context.items("dataCategories"))
    advice = []
    # A password reset among the measures, in any language ("Passwörter zurückgesetzt").
    measures = [str(m) for m in context.items("measuresTaken")]
    if "credentials" in harms or "credentials" in recognise_all("data-category", measures):
        advice.append(
            _(
                "change your password for our service and for any other service where you use the"
                " same password, and turn on two-factor authentication where offered"
            )
        )
    if {"financial", "payment-card"} & set(harms):
        advice.append(
            _(
                "check your bank and card statements and tell your bank about any payment you do"
                " not recognise"
            )
        )
    if {"identity-documents", "national-identifier"} & set(harms):
        advice.append(_("watch for attempts to open accounts or contracts in your name"))
    advice.append(
        _(
            "be wary of phishing: e-mails, calls or messages that mention this incident or ask"
            " for your details; we will never ask you for your password"
        )
    )
    return advice


def write_draft_communication(context: CompositionContext) -> str:
    decision: BreachDecision = context.assessment.decision
    if not decision.communicate_to_subjects:
        return _(
            "No communication to data subjects is required (see above), so none is drafted;"
            " if the assessment changes, a message with the content of Art. 34(2) is sent"
            " without undue delay."
        )
    contact = context.inline("dpoContact")
    # One-line escaping: the draft is a block quote, a line break would end it.
    nature = context.inline("breachNature")
    consequences = context.inline("likelyConsequences")
    taken = context.items("measuresTaken")
    proposed = context.items("measuresProposed")
    measures = [*taken, *proposed]
    missing = [
        what
        for what, value in (
            (_("the contact point"), contact),
            (_("what happened"), nature),
            (_("the likely consequences"), consequences),
            (_("the measures taken"), measures),
        )
        if not value
    ]
    company = escape_inline(context.company_name) if context.company_name else _("our organisation")
    return join_blocks(
        _("Draft message to the data subjects (Art. 34(2), clear and plain language):"),
        _(
            "> **Subject: Important information about your personal data**\n>\n> We "
            "are writing to tell you about a security incident at {company} that "
            "affects your personal data. ",
            company=company,
        )
        + (nature or "")
        + _("\n>\n> What this may mean for you: ")
        + (consequences or "")
        + _("\n>\n> What we have done: ")
        + f"{punct(';')} ".join(escape_inline(m) for m in taken)
        + (
            _("\n>\n> What we will do: ")
            + f"{punct(';')} ".join(escape_inline(m) for m in proposed)
        )
        * bool(proposed)
        + _("\n>\n> What you can do:\n>\n")
        + "\n".join(f"> - {line}" for line in _advice(context))
        + _("\n>\n> Questions: contact ")
        + (contact or "")
        + ".",
        marker(_("for the draft message: ") + ", ".join(missing)) if missing else None,
    )
