"""Template text of a data subject request form (Art. 12, 15-22), read by the data subject."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta

from gdpr.composition.context import CompositionContext
from gdpr.composition.establishment import controller_holidays, place_name
from gdpr.composition.inputs import LegalBasis
from gdpr.composition.markdown import escape_inline, join_blocks
from gdpr.composition.markdown import to_be_completed as marker
from gdpr.composition.periods import (
    HOLIDAYS_SUPPORTED,
    HolidayCalendar,
    ResponseDeadline,
    has_regional_holidays,
    response_deadline,
)
from gdpr.composition.rights import ApplicableRights, applicable_rights, complaint_text
from gdpr.composition.writers.common import text_or_marker
from gdpr.i18n import N_, _, format_date, ngettext

BLANK = "\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_"

RIGHT_TEXTS: dict[str, tuple[str, str]] = {
    "access": (
        N_("I want to know whether you process my data and receive a copy of it."),
        N_(
            "You receive confirmation whether we process your data and, if so, a copy of it and:"
            " the purposes; the categories of data; the recipients, in particular in third"
            " countries; the retention period or its criteria; your rights to rectification,"
            " erasure, restriction and objection; your right to lodge a complaint with a"
            " supervisory authority (Art. 15(1)(f)); the source of the data; and any automated"
            " decision-making with its logic and consequences (Art. 15(1)(a)-(h)). Where your"
            " data is transferred to a third country or an international organisation, we tell"
            " you the safeguards of that transfer (Art. 15(2), 46). The first copy is free; for"
            " further copies you request we may charge a reasonable fee based on administrative"
            " costs. If you ask electronically, you receive the copy in a commonly used electronic"
            " form unless you ask otherwise (Art. 15(3)). The copy may not adversely affect the"
            " rights and freedoms of others (Art. 15(4))."
        ),
    ),
    "rectification": (
        N_("I want inaccurate data about me corrected or incomplete data completed."),
        N_("Say which data is wrong and what it should be (Art. 16)."),
    ),
    "erasure": (
        N_("I want my data erased."),
        N_(
            "We erase it where a ground of Art. 17(1) applies,"
            " e.g. the data is no longer needed or you withdraw consent, unless an"
            " Art. 17(3) exception applies. Where a legal duty requires us to keep some of your"
            " data (Art. 17(3)(b)), we do not erase that data before the duty ends: we restrict it"
            " instead, so that it is only stored and used for that duty (Art. 18), erase it when"
            " the duty ends, and tell you so."
        ),
    ),
    "restriction": (
        N_("I want you to restrict the processing of my data."),
        N_("E.g. while accuracy is checked or an objection is assessed (Art. 18(1))."),
    ),
    "notification-recipients": (
        N_("I want to know to whom my corrected or erased data was disclosed."),
        N_(
            "We tell each recipient of any rectification,"
            " erasure or restriction unless impossible or disproportionate,"
            " and tell you who they are on request (Art. 19)."
        ),
    ),
    "portability": (
        N_(
            "I want my data in a structured, machine-readable format, or sent to another "
            "controller."
        ),
        N_(
            "Applies to data you provided, processed by"
            " automated means on the basis of consent or contract (Art. 20)."
        ),
    ),
    "objection": (
        N_("I object to the processing of my data on grounds relating to my particular situation."),
        N_(
            "Applies to processing based on legitimate interests or on a task in the public"
            " interest (Art. 6(1)(e)-(f)). We stop unless we demonstrate compelling legitimate"
            " grounds which override your interests, rights and freedoms, or need the data for"
            " legal claims (Art. 21(1))."
        ),
    ),
    "objection-direct-marketing": (
        N_(
            "I object to the use of my data for direct marketing, including profiling related "
            "to it."
        ),
        N_("No reasons are needed: we stop using your data for direct marketing (Art. 21(2)-(3))."),
    ),
    "withdraw-consent": (
        N_("I withdraw my consent."),
        N_(
            "Withdrawal is possible at any time and does not affect the lawfulness of the"
            " processing carried out before it (Art. 7(3))."
        ),
    ),
    "automated-decisions": (
        N_(
            "I want human intervention on, or to contest, a decision about me based solely on"
            " automated processing."
        ),
        N_(
            "Decisions based solely on automated processing, including profiling, which produce"
            " legal effects concerning you or similarly significantly affect you are prohibited"
            " (Art. 22(1)), except where the decision is necessary for a contract with you,"
            " authorised by EU or Member State law with suitable safeguards, or based on your"
            " explicit consent (Art. 22(2)). In the contract and consent cases you may obtain"
            " human intervention, express your point of view and contest the decision"
            " (Art. 22(3)). Such decisions may not be based on special categories of data unless"
            " Art. 9(2)(a) or (g) applies with suitable safeguards (Art. 22(4))."
        ),
    ),
}


def rights_of(context: CompositionContext) -> ApplicableRights:
    """The basis-dependent rights, when the form is prefilled with the legal bases."""
    bases: list[LegalBasis] = context.items("legalBasis")
    return applicable_rights(
        bases={code for basis in bases for code in basis.codes},
        direct_marketing=True,  # the Art. 21(2) box is always offered
        automated_processing=context.flag("processedByAutomatedMeans"),
    )


def write_optional(context: CompositionContext) -> str:
    contact = context.inline("contactEmail") or context.inline("companyDetails")
    return _(
        "Using this form is optional. You may exercise your rights by any means, for example"
        " by letter, e-mail or orally, without using this form; we handle your request in the"
        " same way (Art. 12(2); EDPB Guidelines 01/2022 on the right of access)."
    ) + (_(" Contact: {contact}.", contact=contact) if contact else "")


def write_identity(context: CompositionContext) -> str:
    name = context.inline("requesterName") or BLANK
    contact = context.inline("requesterContact") or BLANK
    verification = context.text("identityVerification")
    on_behalf = context.flag("actingOnBehalf")
    authority = context.text("representativeAuthority") if on_behalf else None
    channel = context.choice("requestChannel")
    return join_blocks(
        _(
            "- **Full name:** {name}\n- **Address, e-mail or telephone:** "
            "{contact}\n- **Acting on behalf of someone else:** {on_behalf}",
            name=name,
            contact=contact,
            on_behalf=context.inline("actingOnBehalf") or BLANK,
        ),
        _("Authority to act for the data subject: {authority}", authority=authority)
        if authority
        else None,
        _("Request received by: {channel}.", channel=channel) if channel else None,
        _(
            "We do not ask for a copy of an identity document by default. We confirm your"
            " identity with what we already know about you (for example by answering to the"
            " e-mail address or the account you use with us). Only where we have reasonable doubts"
            " do we ask for the additional information necessary to confirm your identity, and no"
            " more than is proportionate (Art. 12(6); EDPB Guidelines 01/2022 on the right of"
            " access)."
        ),
        _("How identity is verified: ")
        + (
            verification
            or marker(
                _(
                    "how the controller verifies the requester's identity, proportionately and"
                    " without asking for identity documents by default"
                )
            )
        ),
    )


def _availability(right: str, context: CompositionContext) -> str | None:
    """A note when the legal bases given rule the right out (None: the right is offered)."""
    rights = rights_of(context)
    if right == "portability" and rights.portability is False:
        return _(
            "Not available for this processing: it is not based on your consent or a contract"
            " carried out by automated means (Art. 20(1))."
        )
    if right == "objection" and rights.objection is False:
        return _(
            "Not available for this processing: it is not based on legitimate interests or a"
            " task in the public interest (Art. 21(1)). You can still object to direct"
            " marketing below."
        )
    if right == "withdraw-consent" and rights.withdraw_consent is False:
        return _("Not applicable: none of the processing is based on your consent.")
    return None


def _extra(right: str, context: CompositionContext, ticked: bool) -> str | None:
    if right == "access" and context.has("copyFormat"):
        return _("Copy provided as: {copy_format}.", copy_format=context.choice("copyFormat"))
    if right == "erasure" and context.has("retentionDuty"):
        return _("Retention duty that applies: ") + (context.text("retentionDuty") or "")
    if right == "objection":
        grounds = context.text("objectionGrounds") if ticked else None
        return _(
            "**Grounds relating to my particular situation (Art. 21(1)):** {grounds}",
            grounds=grounds or BLANK,
        )
    return None


def _right_writer(right: str) -> Callable[[CompositionContext], str]:
    request, explanation = RIGHT_TEXTS[right]

    def write(context: CompositionContext) -> str:
        unavailable = _availability(right, context)
        if unavailable:
            return unavailable
        ticked = right in context.items("rightsInvoked")
        details = context.text("requestDetails") if ticked else None
        return join_blocks(
            f"- \\[{'x' if ticked else ' '}\\] {_(request)}",
            _(explanation),
            _extra(right, context, ticked),
            details,
        )

    write.__name__ = f"write_{right.replace('-', '_')}"
    return write


def _holidays_rule(calendar: HolidayCalendar) -> str:
    """Which public holidays count (Reg. 1182/71 Art. 2(1)): the controller's Member State's,
    or, while it is not known, the days common to the Member States, with a marker."""
    if calendar.country is None:
        return (
            _(
                "Public holidays taken into account: {holidays_supported}.",
                holidays_supported=_(HOLIDAYS_SUPPORTED),
            )
            + " "
            + marker(
                _(
                    "the Member State (country) and region of the controller's establishment,"
                    " whose public holidays count"
                )
            )
        )
    rule = _("Public holidays taken into account: those of {place}.", place=place_name(calendar))
    if calendar.subdivision is None and has_regional_holidays(calendar.country):
        rule += " " + marker(
            _("the region of the controller's establishment, if it has public holidays of its own")
        )
    return rule


def _holidays_listed(calendar: HolidayCalendar, deadline: ResponseDeadline) -> str:
    """The holidays that can move a deadline: Monday to Friday, from the day after receipt
    (Art. 3(1)) to the latest possible answer."""
    first = deadline.received + timedelta(days=1)
    last = deadline.extended_deadline
    found = calendar.weekday_holidays(first=first, last=last)
    if not found:
        return _(
            "No public holiday falls on a weekday from {first} to {last}.",
            first=format_date(first),
            last=format_date(last),
        )
    return _(
        "Public holidays from {first} to {last}, Monday to Friday: {days}.",
        first=format_date(first),
        last=format_date(last),
        days=", ".join(f"{format_date(day)} {escape_inline(name)}".strip() for day, name in found),
    )


def write_deadline(context: CompositionContext) -> str:
    received = context.value("receivedAt")
    rule = _(
        "We answer without undue delay and at the latest within one month of "
        "receipt. Where necessary, given the complexity and number of "
        "requests, this can be extended by two further months; we then tell "
        "you within the first month, with the reasons (Art. 12(3)). Periods "
        "are counted as Regulation (EEC, Euratom) No 1182/71 counts them: a "
        "month ends on the same date of the following month (or its last day), "
        "and a period ending on a Saturday, Sunday or public holiday ends on "
        "the next working day."
    )
    # The controller's Member State's holidays (or the common list, said to be a fallback),
    # with the days the controller adds (`publicHolidays`) and counts as working (`workingDays`).
    calendar = controller_holidays(context)
    added = (
        _("National public holidays taken into account: ")
        + ", ".join(format_date(day) for day in sorted(calendar.added))
        + "."
        if calendar.added
        else None
    )
    removed = (
        _("Counted as working days: ")
        + ", ".join(format_date(day) for day in sorted(calendar.removed))
        + "."
        if calendar.removed
        else None
    )
    calendar_rule = join_blocks(_holidays_rule(calendar), added, removed)
    if received is None:
        return join_blocks(rule, calendar_rule)
    if isinstance(received, str):
        received = date.fromisoformat(received)
    deadline = response_deadline(received, holidays=calendar)
    extended = bool(context.flag("extensionNeeded"))
    dates = _(
        "Request received on {received}: answer due by **{deadline}**; if "
        "extended, notice by {notice_by} and answer by **{extended_deadline}** at "
        "the latest.",
        received=format_date(deadline.received),
        deadline=format_date(deadline.deadline),
        notice_by=format_date(deadline.extension_notice_by),
        extended_deadline=format_date(deadline.extended_deadline),
    )
    today = context.now.date()
    due = deadline.extended_deadline if extended else deadline.deadline
    status = deadline.status(today=today, extended=extended)
    if status == "overdue":
        late = (today - due).days
        state = ngettext(
            "**Overdue:** the answer was due by {due} ({days} day ago, on {today}).",
            "**Overdue:** the answer was due by {due} ({days} days ago, on {today}).",
            late,
            due=format_date(due),
            days=late,
            today=format_date(today),
        )
    elif status == "due-today":
        state = _("**Due today** ({due}).", due=format_date(due))
    else:
        left = (due - today).days
        state = ngettext(
            "Status on {today}: pending, {days} day left.",
            "Status on {today}: pending, {days} days left.",
            left,
            today=format_date(today),
            days=left,
        )
    reason = None
    if extended:
        reason = _("Extension invoked. Reason: ") + text_or_marker(
            context, "extensionReason", _("why the extension is needed")
        )
    return join_blocks(
        rule, calendar_rule, dates, _holidays_listed(calendar, deadline), state, reason
    )


def write_refusal(context: CompositionContext) -> str:
    return _(
        "If we do not take action on your request we tell you without delay and at the latest"
        " within one month of receipt, with the reasons, and of your right to lodge a"
        " complaint with a supervisory authority and to seek a judicial remedy (Art. 12(4), 77,"
        " 79)."
    )


def write_complaint(context: CompositionContext) -> str:
    return complaint_text(context.inline("supervisoryAuthority"))


def write_cost(context: CompositionContext) -> str:
    text = _(
        "Your request is free of charge. Only where a request is manifestly unfounded or"
        " excessive, in particular because it is repetitive, may we charge a reasonable fee"
        " based on administrative costs or refuse to act; we must show why (Art. 12(5))."
    )
    if context.flag("manifestlyUnfounded"):
        text += _(" This request was assessed as manifestly unfounded or excessive: ") + (
            text_or_marker(context, "unfoundedJustification", _("the documented justification"))
        )
    return text


WRITERS = {
    "form-optional": write_optional,
    "requester-identity": write_identity,
    **{right: _right_writer(right) for right in RIGHT_TEXTS},
    "deadline": write_deadline,
    "refusal": write_refusal,
    "complaint": write_complaint,
    "free-of-charge": write_cost,
}
