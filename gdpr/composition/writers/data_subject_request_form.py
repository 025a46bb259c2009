"""Template text of a data subject request form (Art. 12, 15-22)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from gdpr.composition.assessments.dsr_deadline import response_deadline
from gdpr.composition.context import CompositionContext
from gdpr.composition.markdown import join_blocks
from gdpr.composition.markdown import to_be_completed as marker
from gdpr.composition.writers.common import text_or_marker

BLANK = "\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_"

RIGHT_TEXTS: dict[str, tuple[str, str]] = {
    "access": (
        "I want to know whether you process my data and receive a copy of it.",
        "You receive confirmation, a copy of your data (Art. 15(3)) and the purposes,"
        " categories, recipients, retention, source, your rights and any automated"
        " decision-making (Art. 15(1)).",
    ),
    "rectification": (
        "I want inaccurate data about me corrected or incomplete data completed.",
        "Say which data is wrong and what it should be (Art. 16).",
    ),
    "erasure": (
        "I want my data erased.",
        "We erase it where a ground of Art. 17(1) applies,"
        " e.g. the data is no longer needed or you withdraw consent, unless an"
        " Art. 17(3) exception applies (e.g. a legal obligation to keep it).",
    ),
    "restriction": (
        "I want you to restrict the processing of my data.",
        "E.g. while accuracy is checked or an objection is assessed (Art. 18(1)).",
    ),
    "notification-recipients": (
        "I want to know to whom my corrected or erased data was disclosed.",
        "We tell each recipient of any rectification,"
        " erasure or restriction unless impossible or disproportionate,"
        " and tell you who they are on request (Art. 19).",
    ),
    "portability": (
        "I want my data in a structured, machine-readable format, or sent to another controller.",
        "Applies to data you provided, processed by"
        " automated means on the basis of consent or contract (Art. 20).",
    ),
    "objection": (
        "I object to the processing of my data.",
        "We stop unless we show compelling"
        " legitimate grounds; direct marketing stops in every case (Art. 21).",
    ),
    "automated-decisions": (
        "I do not want to be subject to a decision based solely on automated processing.",
        "You may obtain human intervention,"
        " express your view and contest the decision (Art. 22(3)).",
    ),
}


def write_identity(context: CompositionContext) -> str:
    name = context.inline("requesterName") or BLANK
    contact = context.inline("requesterContact") or BLANK
    verification = context.text("identityVerification")
    return join_blocks(
        f"- **Full name:** {name}\n- **Address, e-mail or telephone:** {contact}\n"
        f"- **Acting on behalf of someone else:** {context.inline('actingOnBehalf') or BLANK}",
        "If we have reasonable doubts about your identity we may ask for the additional"
        " information necessary to confirm it (Art. 12(6)); we ask for no more than needed.",
        "How identity is verified: "
        + (
            verification
            or marker(
                "how the controller verifies the requester's identity (what proof it may ask for)"
            )
        ),
    )


def _right_writer(right: str) -> Callable[[CompositionContext], str]:
    request, explanation = RIGHT_TEXTS[right]

    def write(context: CompositionContext) -> str:
        ticked = "x" if right in context.items("rightsInvoked") else " "
        details = context.text("requestDetails") if ticked == "x" else None
        extra = ""
        if right == "access" and context.has("copyFormat"):
            extra = f" Copy provided as: {context.inline('copyFormat')}."
        return join_blocks(f"- \\[{ticked}\\] {request}", explanation + extra, details)

    write.__name__ = f"write_{right.replace('-', '_')}"
    return write


def write_deadline(context: CompositionContext) -> str:
    received = context.value("receivedAt")
    rule = (
        "We answer without undue delay and at the latest within one month of receipt. Where"
        " necessary, given the complexity and number of requests, this can be extended by two"
        " further months; we then tell you within the first month, with the reasons"
        " (Art. 12(3))."
    )
    if received is None:
        return rule
    if isinstance(received, str):
        received = date.fromisoformat(received)
    deadline = response_deadline(received)
    dates = (
        f"Request received on {deadline.received.isoformat()}: answer due by"
        f" **{deadline.deadline.isoformat()}**; if extended, notice by"
        f" {deadline.extension_notice_by.isoformat()} and answer by"
        f" **{deadline.extended_deadline.isoformat()}** at the latest."
    )
    reason = None
    if context.flag("extensionNeeded"):
        reason = "Extension invoked. Reason: " + text_or_marker(
            context, "extensionReason", "why the extension is needed"
        )
    return join_blocks(rule, dates, reason)


def write_refusal(context: CompositionContext) -> str:
    authority = context.inline("supervisoryAuthority") or "a supervisory authority"
    return (
        "If we do not take action on your request we tell you without delay and at the latest"
        " within one month of receipt, with the reasons, and of your right to lodge a"
        f" complaint with {authority} and to seek a judicial remedy (Art. 12(4), 77, 79)."
    )


def write_cost(context: CompositionContext) -> str:
    text = (
        "Your request is free of charge. Only where a request is manifestly unfounded or"
        " excessive, in particular because it is repetitive, may we charge a reasonable fee"
        " based on administrative costs or refuse to act; we must show why (Art. 12(5))."
    )
    if context.flag("manifestlyUnfounded"):
        text += " This request was assessed as manifestly unfounded or excessive: " + (
            text_or_marker(context, "unfoundedJustification", "the documented justification")
        )
    return text


WRITERS = {
    "requester-identity": write_identity,
    **{right: _right_writer(right) for right in RIGHT_TEXTS},
    "deadline": write_deadline,
    "refusal": write_refusal,
    "free-of-charge": write_cost,
}
