"""Template text of a breach notification: deadline, content, Art. 34 decision."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from gdpr.composition.assessments.breach_deadline import (
    NotificationDeadline,
    notification_deadline,
)
from gdpr.composition.assessments.breach_risk import BreachDecision, BreachFacts, decide
from gdpr.composition.authority import authority_block, authority_name
from gdpr.composition.context import CompositionContext
from gdpr.composition.markdown import bullets, escape_inline, join_blocks
from gdpr.composition.markdown import to_be_completed as marker
from gdpr.composition.special_categories import sensitive_data
from gdpr.composition.writers.breach_communication import (
    RISK_LABELS,
    aware_at,
    notified_at,
    notified_late,
    write_draft_communication,
    write_encryption,
    write_timeline,
)
from gdpr.composition.writers.common import list_or_marker, text_or_marker
from gdpr.i18n import (
    N_,
    _,
    format_date,
    format_datetime,
    format_decimal,
    format_number,
    ngettext,
    punct,
)


@dataclass(frozen=True, slots=True)
class BreachAssessment:
    """Deadline (None without `discoveredAt`) and risk decision."""

    deadline: NotificationDeadline | None
    decision: BreachDecision


def _as_datetime(value: object) -> datetime | None:
    if isinstance(value, datetime):
        return value
    if isinstance(value, str):
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    return None


def assess(context: CompositionContext) -> BreachAssessment:
    """Deadline from `discoveredAt` at `context.now`, and the Art. 33/34 decision."""
    discovered = aware_at(context)
    subjects = context.value("approximateSubjects")
    facts = BreachFacts(
        data_categories=tuple(context.items("dataCategories")),
        # The flag, or Art. 9 data among the categories in any language ("Gesundheitsdaten"):
        # a `false` flag does not outweigh health data the categories name.
        special_categories=bool(context.flag("specialCategories"))
        or bool(sensitive_data(context).special),
        vulnerable_subjects=bool(context.flag("vulnerableSubjects")),
        approximate_subjects=int(subjects) if subjects is not None else None,
        breach_types=tuple(str(t) for t in context.items("breachTypes")),
        encrypted=context.flag("encrypted"),
        key_compromised=bool(context.flag("keyCompromised")),
        subsequent_measures_remove_risk=bool(context.flag("subsequentMeasuresRemoveRisk")),
        disproportionate_effort=bool(context.flag("disproportionateEffort")),
        high_risk=context.flag("highRisk"),
    )
    return BreachAssessment(
        deadline=notification_deadline(discovered, context.now) if discovered else None,
        decision=decide(facts),
    )


def write_deadline(context: CompositionContext) -> str:
    assessment: BreachAssessment = context.assessment
    deadline = assessment.deadline
    if deadline is None:
        return marker(_("when the controller became aware of the breach (discoveredAt, UTC)"))
    authority = context.inline("supervisoryAuthority") or authority_name(context)
    facts = _(
        "The controller became aware of the breach at **{aware_at}**. The "
        "notification to {authority} is due without undue delay and at the "
        "latest by **{deadline}** (72 hours, Art. 33(1)).",
        aware_at=format_datetime(deadline.aware_at),
        authority=authority,
        deadline=format_datetime(deadline.deadline),
    )
    if not assessment.decision.notify_authority:
        facts += _(
            " The breach is assessed as unlikely to result in a risk to the rights and freedoms"
            " of natural persons, so notification is not required; it is documented under"
            " Art. 33(5)."
        )
    notified = notified_at(context)
    if notified is not None and notified_late(context):
        overdue = (notified - deadline.deadline).total_seconds() / 3600
        # The count is the number shown: rounded to whole hours.
        status = ngettext(
            "Notified at {notified}, {overdue} hour after the deadline. Reasons "
            "for the delay (Art. 33(1)): ",
            "Notified at {notified}, {overdue} hours after the deadline. Reasons "
            "for the delay (Art. 33(1)): ",
            round(overdue),
            notified=format_datetime(notified),
            overdue=format_decimal(overdue, 0),
        ) + text_or_marker(context, "delayReasons", _("the reasons for the delay"))
    elif notified is not None:
        status = _(
            "Notified at {notified}, within the 72 hours.", notified=format_datetime(notified)
        )
    elif deadline.passed:
        status = ngettext(
            "At {now} the deadline has passed by {hours_overdue} hour. Reasons "
            "for the delay (Art. 33(1)): ",
            "At {now} the deadline has passed by {hours_overdue} hours. Reasons "
            "for the delay (Art. 33(1)): ",
            round(deadline.hours_overdue),
            now=format_datetime(deadline.now),
            hours_overdue=format_decimal(deadline.hours_overdue, 0),
        ) + text_or_marker(context, "delayReasons", _("the reasons for the delay"))
    else:
        status = ngettext(
            "At {now}, {hours_remaining} hour remains before the deadline.",
            "At {now}, {hours_remaining} hours remain before the deadline.",
            round(deadline.hours_remaining),
            now=format_datetime(deadline.now),
            hours_remaining=format_decimal(deadline.hours_remaining, 0),
        )
    return join_blocks(facts, _cross_border(context), authority_block(context), status)


def _cross_border(context: CompositionContext) -> str | None:
    if not context.flag("crossBorder"):
        return None
    return _(
        "The breach affects data subjects in several Member States: it is notified to the lead"
        " supervisory authority (Art. 56)."
    )


def write_processor_notification(context: CompositionContext) -> str:
    if context.flag("actingAsProcessor"):
        controller = context.inline("controllerName") or marker(_("the controller's name"))
        return _(
            "The organisation acts as processor and notifies the controller, "
            "{controller}, without undue delay after becoming aware of the breach "
            "(Art. 33(2)).",
            controller=controller,
        )
    return _(
        "The organisation is the controller. Its processors must notify it without undue"
        " delay after becoming aware of a breach (Art. 33(2)); the awareness time above"
        " accounts for any such notice."
    )


# The stored codes of the breach types (Art. 33, Guidelines 9/2022), named in the document.
_BREACH_TYPE_LABELS = {
    "confidentiality": N_("confidentiality"),
    "integrity": N_("integrity"),
    "availability": N_("availability"),
}


def _breach_type(code: str) -> str:
    label = _BREACH_TYPE_LABELS.get(code)
    return _(label) if label else escape_inline(code)


def write_nature(context: CompositionContext) -> str:
    subjects = context.value("approximateSubjects")
    records = context.value("approximateRecords")
    types = context.items("breachTypes")
    occurred = _as_datetime(context.value("occurredAt"))
    return join_blocks(
        text_or_marker(context, "breachNature", _("what happened (nature of the breach)")),
        _("Type of breach: {types}.", types=", ".join(map(_breach_type, types))) if types else None,
        _(
            "How the breach was discovered: {how}.",
            how=context.choice("howDiscovered"),
        )
        if context.has("howDiscovered")
        else None,
        _("The breach occurred at {occurred}.", occurred=format_datetime(occurred))
        if occurred
        else None,
        list_or_marker(
            context,
            "dataSubjects",
            _("Categories of data subjects"),
            _("the categories of data subjects"),
        ),
        list_or_marker(
            context,
            "dataCategories",
            _("Categories of personal data concerned"),
            _("the categories of personal data"),
        ),
        _("Approximate number of data subjects: ")
        + (format_number(int(subjects)) if subjects is not None else marker(_("an estimate"))),
        _("Approximate number of records: ")
        + (format_number(int(records)) if records is not None else marker(_("an estimate"))),
    )


def write_contact(context: CompositionContext) -> str:
    contact = context.inline("dpoContact")
    if not contact:
        return marker(_("name and contact details of the DPO or other contact point"))
    return _("Contact point for more information: {contact}.", contact=contact)


def write_consequences(context: CompositionContext) -> str:
    decision: BreachDecision = context.assessment.decision
    return join_blocks(
        text_or_marker(
            context, "likelyConsequences", _("the likely consequences for data subjects")
        ),
        _(
            "Risk assessment: **{risk_labels}** (",
            risk_labels=_(RISK_LABELS[decision.risk_level]),
        )
        + f"{punct(';')} ".join(decision.reasons)
        + ").",
    )


def write_measures(context: CompositionContext) -> str:
    taken = context.items("measuresTaken")
    proposed = context.items("measuresProposed")
    return join_blocks(
        _containment(context),
        _("Measures taken:\n\n") + bullets(taken) if taken else None,
        _("Measures proposed, including mitigation:\n\n") + bullets(proposed) if proposed else None,
        marker(_("the measures taken or proposed to address the breach and mitigate it"))
        if not taken and not proposed
        else None,
    )


def _containment(context: CompositionContext) -> str | None:
    """Whether the breach is contained (Art. 33(3)(d)), as answered."""
    ongoing = context.flag("breachOngoing")
    if ongoing is None:
        return None
    if ongoing:
        return _("The breach is still ongoing.")
    contained = context.value("containedOn")
    try:
        day = date.fromisoformat(str(contained)) if contained else None
    except ValueError:  # validation refuses such text; stored inputs must still write
        day = None
    if day is None:
        return _("The breach has been contained.")
    return _("The breach was contained on {date}.", date=format_date(day))


# Art. 33(3) facts without which a notification cannot be called complete.
_PHASE_FACTS = (
    ("breachNature", N_("the nature of the breach")),
    ("dataSubjects", N_("the categories of data subjects")),
    ("approximateSubjects", N_("the approximate number of data subjects")),
    ("dataCategories", N_("the categories of personal data")),
    ("approximateRecords", N_("the approximate number of records")),
    ("likelyConsequences", N_("the likely consequences")),
    ("dpoContact", N_("the contact point")),
)


def write_phases(context: CompositionContext) -> str:
    complete = context.flag("informationComplete")
    gaps = [_(label) for key, label in _PHASE_FACTS if not context.has(key)]
    if not context.items("measuresTaken") and not context.items("measuresProposed"):
        gaps.append(_("the measures taken or proposed"))
    rule = _(
        "Where information is not available at once it is provided in phases without undue"
        " further delay (Art. 33(4)); each update references this notification."
    )
    if complete is False or gaps:
        pending = (
            text_or_marker(context, "pendingInformation", _("what follows and when"))
            if complete is False
            else f"{punct(';')} ".join(gaps)
            + _(", to follow by ")
            + text_or_marker(context, "pendingInformationDate", _("the expected date"))
        )
        return join_blocks(
            rule,
            _("This is an **initial notification**: information still being gathered: ") + pending,
        )
    # Unanswered with nothing missing: the facts above are the complete Art. 33(3) content.
    return join_blocks(
        rule, _("This notification is complete: all the Art. 33(3) information is given above.")
    )


def write_documentation(context: CompositionContext) -> str:
    return _(
        "This breach is recorded in the controller's internal breach register with its facts,"
        " effects and the remedial action taken, to enable the supervisory authority to verify"
        " compliance (Art. 33(5)), whether or not it is notified."
    )


def write_subjects(context: CompositionContext) -> str:
    decision: BreachDecision = context.assessment.decision
    if decision.risk_level != "high":
        return _(
            "Communication to data subjects is **not required**: the breach is "
            "assessed as {risk_labels} (Art. 34(1)).",
            risk_labels=_(RISK_LABELS[decision.risk_level]),
        )
    if decision.art_34_exception:
        return _(
            "The breach is likely to result in a high risk, but communication to "
            "data subjects is **not required** under {art_34_exception}.",
            art_34_exception=decision.art_34_exception,
        )
    channels = context.choice("communicationChannels")
    how = (
        _(
            "by a public communication or similar measure, since individual messages would involve"
            " disproportionate effort (Art. 34(3)(c))"
        )
        if decision.public_communication
        else _("individually ({channels})", channels=channels)
        if channels
        else _("individually")
    )
    return _(
        "**Communication to data subjects is required** (Art. 34(1)): the "
        "breach is likely to result in a high risk. Data subjects are informed "
        "without undue delay, {how}, in clear and plain language describing "
        "the nature of the breach, the contact point, the likely consequences "
        "and the measures taken (Art. 34(2), 33(3)(b)-(d)).",
        how=how,
    )


WRITERS = {
    "deadline": write_deadline,
    "processor-notification": write_processor_notification,
    "a-nature": write_nature,
    "b-contact": write_contact,
    "c-consequences": write_consequences,
    "d-measures": write_measures,
    "phased-information": write_phases,
    "documentation": write_documentation,
    "data-subject-communication": write_subjects,
    "timeline": write_timeline,
    "encryption": write_encryption,
    "draft-communication": write_draft_communication,
}
