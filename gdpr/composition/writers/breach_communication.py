"""Breach notification items added by the legal review: timeline, encryption, draft message.

EDPB Guidelines 9/2022 (and 01/2021 examples): the controller documents when the breach
occurred, was discovered and when it became aware (the 72 hours run from awareness), says
whether the data was encrypted (Art. 34(3)(a) only applies to state-of-the-art encryption with
an uncompromised key), and tells data subjects concretely what to do.
"""

from __future__ import annotations

from datetime import datetime

from gdpr.composition.assessments.breach_deadline import NOTIFICATION_WINDOW, as_utc, iso_z
from gdpr.composition.assessments.breach_risk import BreachDecision, sensitive_kinds
from gdpr.composition.context import CompositionContext
from gdpr.composition.markdown import escape_inline, join_blocks, table
from gdpr.composition.markdown import to_be_completed as marker

RISK_LABELS = {
    "unlikely": "unlikely to result in a risk",
    "risk": "a risk, not a high risk",
    "high": "high risk",
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
        ("Occurred", iso_z(occurred) if occurred else "not known yet"),
        ("Discovered", iso_z(discovered) if discovered else "-"),
        ("Aware (the 72 hours start)", iso_z(aware) if aware else "-"),
        (
            "Notified to the supervisory authority",
            iso_z(notified)
            if notified
            else f"on submission of this notification (prepared {iso_z(context.now)})",
        ),
    ]
    missing = [
        what
        for what, value in (
            ("when the breach occurred (or that it is still being established)", occurred),
            ("when the breach was discovered (discoveredAt)", discovered),
        )
        if value is None
    ]
    if occurred is None and context.value("occurredUnknown"):
        missing = missing[1:]
    return join_blocks(
        table(("Step", "Date and time (UTC)"), rows),
        marker("; ".join(missing)) if missing else None,
    )


def write_encryption(context: CompositionContext) -> str:
    encrypted = context.flag("encrypted")
    if encrypted is None:
        return marker("whether the data was encrypted, and whether the key is safe (Art. 34(3)(a))")
    if not encrypted:
        return (
            "The data concerned was not encrypted: Art. 34(3)(a) does not apply, so the"
            " exemption from communicating a high-risk breach to data subjects is not"
            " available on this ground."
        )
    if context.flag("keyCompromised"):
        return (
            "The data was encrypted, but the key was compromised or is not known to be safe:"
            " the data is not unintelligible, so Art. 34(3)(a) does not apply."
        )
    return (
        "The data was encrypted with state-of-the-art encryption and the key was not"
        " compromised: the data is unintelligible to anyone not authorised to access it, so"
        " Art. 34(3)(a) applies and, for a confidentiality breach, the communication to data"
        " subjects is not required on that ground."
    )


def _advice(context: CompositionContext) -> list[str]:
    kinds = sensitive_kinds(str(c) for c in context.items("dataCategories"))
    advice = []
    if "credentials" in kinds or any(
        "password" in str(m).lower() for m in context.items("measuresTaken")
    ):
        advice.append(
            "change your password for our service and for any other service where you use the"
            " same password, and turn on two-factor authentication where offered"
        )
    if {"financial data", "payment card data"} & set(kinds):
        advice.append(
            "check your bank and card statements and tell your bank about any payment you do"
            " not recognise"
        )
    if "identity documents" in kinds or "national identification numbers" in kinds:
        advice.append("watch for attempts to open accounts or contracts in your name")
    advice.append(
        "be wary of phishing: e-mails, calls or messages that mention this incident or ask"
        " for your details; we will never ask you for your password"
    )
    return advice


def write_draft_communication(context: CompositionContext) -> str:
    decision: BreachDecision = context.assessment.decision
    if not decision.communicate_to_subjects:
        return (
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
            ("the contact point", contact),
            ("what happened", nature),
            ("the likely consequences", consequences),
            ("the measures taken", measures),
        )
        if not value
    ]
    company = escape_inline(context.company_name) if context.company_name else "our organisation"
    return join_blocks(
        "Draft message to the data subjects (Art. 34(2), clear and plain language):",
        "> **Subject: Important information about your personal data**\n>\n"
        f"> We are writing to tell you about a security incident at {company} that affects"
        " your personal data. "
        + (nature or "")
        + "\n>\n> What this may mean for you: "
        + (consequences or "")
        + "\n>\n> What we have done: "
        + "; ".join(escape_inline(m) for m in taken)
        + ("\n>\n> What we will do: " + "; ".join(escape_inline(m) for m in proposed))
        * bool(proposed)
        + "\n>\n> What you can do:\n>\n"
        + "\n".join(f"> - {line}" for line in _advice(context))
        + "\n>\n> Questions: contact "
        + (contact or "")
        + ".",
        marker("for the draft message: " + ", ".join(missing)) if missing else None,
    )
