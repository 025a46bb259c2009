"""DPIA items beyond Art. 35(7)'s minimum: Art. 35(4) national list, 6(1)(f) balancing test,
action plan carrying the DPO's conditions, and the controller's validation (CNIL PIA method).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gdpr.composition.assessments.national_lists import NATIONAL_LISTS, country_code
from gdpr.composition.context import CompositionContext
from gdpr.composition.markdown import escape_inline, join_blocks, table, to_be_completed
from gdpr.composition.special_categories import classify
from gdpr.composition.writers.common import legal_basis_codes
from gdpr.concepts import recognise
from gdpr.i18n import N_, _

# Option values of the dpoOpinion question (answers are stored as these codes).
RESERVED_OPINIONS = ("Favourable with reservations", "Unfavourable")
# Option values of the controllerDecision question (marked for translation there).
DECISION_START = "Processing may start"
DECISION_START_AFTER_PLAN = "Processing may start once the action plan is implemented"
DECISION_SUBMIT = (
    "Processing may start only after prior consultation of the supervisory authority (Art. 36)"
)
DECISION_STOP = "Processing must not start as designed"
DECISIONS = (DECISION_START, DECISION_START_AFTER_PLAN, DECISION_SUBMIT, DECISION_STOP)
# A list entry "applies" when the facts show what it names (a hint for the DPO, not a verdict):
# the facts are the dpia-fact concepts (gdpr/concepts), biometric data the data-category one.
_FACT_SCHEME = "dpia-fact"


def _named_facts(text: str) -> set[str]:
    """The facts `text` names, in any language."""
    biometric = "biometric" in recognise("data-category", text)
    return set(recognise(_FACT_SCHEME, text)) | ({"biometric"} if biometric else set())


# How each fact key reads in the "applies" column.
_FACT_LABELS = {
    "biometric": N_("biometric"),
    "monitoring": N_("monitoring"),
    "profiling": N_("profiling"),
    "vulnerable": N_("vulnerable"),
    "employees": N_("employees"),
    "location": N_("location"),
    "innovative": N_("innovative"),
    "matching": N_("matching"),
}


def _facts(context: CompositionContext) -> set[str]:
    stated = {
        fact
        for key in ("specialCategories", "dataCategories", "dataSubjects")
        for v in context.items(key)
        if not isinstance(v, bool)
        for fact in _named_facts(str(v))
    }
    # An explicit concept (`{"name", "category"}`) counts like a recognised one.
    codes = {
        code
        for key in ("specialCategories", "dataCategories")
        for v in context.items(key)
        if not isinstance(v, bool)
        for code in classify(v).codes
    }
    found = {
        *(stated & {"biometric", "employees", "location"}),
        *(codes & {"biometric", "location"}),
        "monitoring" if context.flag("systematicMonitoring") else "",
        "profiling" if context.flag("profiling") or context.flag("automatedDecisions") else "",
        "vulnerable" if context.flag("vulnerableSubjects") else "",
        "innovative" if context.flag("innovativeTechnology") else "",
        "matching" if context.flag("datasetMatching") else "",
    }
    return found - {""}


def _country(context: CompositionContext) -> Any:
    details = context.value("companyDetails")
    from_details = details.get("country") if hasattr(details, "get") else None
    return context.value("country") or from_details


def write_national_list(context: CompositionContext) -> str:
    country = _country(context)
    if country is None:
        return to_be_completed(
            _(
                "the country of the controller's main establishment, to check the Art. 35(4) list"
                " of its supervisory authority"
            )
        )
    code = country_code(country)
    if code is None:
        return to_be_completed(
            _(
                "whether the processing is on the Art. 35(4) list published by the supervisory"
                " authority of {country}",
                country=escape_inline(country),
            )
        )
    entry = NATIONAL_LISTS[code]
    facts = _facts(context)
    rows = []
    for line in entry.entries:
        keys = _named_facts(line)
        applies = (
            _("Likely (") + ", ".join(sorted(_(_FACT_LABELS[key]) for key in keys & facts)) + ")"
            if keys & facts
            else _("Not indicated")
        )
        rows.append((_(line), applies))
    return join_blocks(
        _(
            "Art. 35(4) list of {authority} ({country}), non-exhaustive excerpt "
            "(paraphrased): an entry that applies makes the DPIA mandatory "
            "whatever the WP248 count.",
            authority=_(entry.authority),
            country=_(entry.country),
        ),
        table((_("List entry"), _("Applies to this processing?")), rows),
        _(
            "Source: {source}; the excerpt does not show every entry of the list.",
            source=escape_inline(_(entry.source)),
        ),
    )


def write_balancing_test(context: CompositionContext) -> str:
    if "legitimate-interests" not in legal_basis_codes(context):
        return _(
            "Not applicable: the processing does not rely on legitimate interests (Art. 6(1)(f))."
        )
    return _("Balancing test (Art. 6(1)(f); EDPB Guidelines 1/2024): ") + (
        context.text("balancingTest")
        or to_be_completed(
            _(
                "the documented balancing test: (1) the legitimate interest pursued, (2) why the"
                " processing is necessary for it, (3) the data subjects' interests, rights and"
                " reasonable expectations weighed against it, with the safeguards that tip the"
                " balance"
            )
        )
    )


def actions(context: CompositionContext) -> list[Mapping[str, Any]]:
    """`actionPlan` entries (measure, owner, dueDate, origin), mappings only."""
    return [entry for entry in context.items("actionPlan") if isinstance(entry, Mapping)]


def write_action_plan(context: CompositionContext) -> str:
    planned = [str(m) for m in context.items("plannedMeasures")]
    entries = actions(context)
    opinion = context.value("dpoOpinion")
    conditions = bool(context.value("dpoAdvice")) or opinion in RESERVED_OPINIONS
    rows = [
        (
            entry.get("measure") or _("not stated"),
            entry.get("owner") or _("not assigned"),
            str(entry.get("dueDate") or _("no date")),
            entry.get("origin") or "",
        )
        for entry in entries
    ]
    rows += [
        (measure, _("not assigned"), _("no date"), _("planned measure")) for measure in planned
    ]
    incomplete = [r[0] for r in rows if _("not assigned") in r[1:3] or _("no date") in r[1:3]]
    if not rows:
        if conditions:
            return to_be_completed(
                _(
                    "the action plan carrying the DPO's advice and reservations: each measure with"
                    " its owner and due date (Art. 35(2), 35(7)(d))"
                )
            )
        return _("No action is planned beyond the measures in place; the DPO set no condition.")
    return join_blocks(
        _(
            "Action plan (CNIL PIA): each measure, including the conditions of the DPO's advice,"
            " with the person responsible and the due date."
        ),
        table((_("Measure"), _("Owner"), _("Due date"), _("Origin")), rows),
        to_be_completed(
            _("an owner and a due date for: ") + ", ".join(map(escape_inline, incomplete))
        )
        if incomplete
        else None,
    )


def write_validation(context: CompositionContext) -> str:
    decision = context.choice("controllerDecision")
    name = context.inline("validatedBy")
    when = context.inline("validationDate")
    missing = [
        label
        for label, value in (
            (_("the controller's decision"), decision),
            (_("the name and role of the person validating"), name),
            (_("the date of validation"), when),
        )
        if not value
    ]
    lines = [
        _("- **Decision of the controller:** {decision}", decision=decision or _("not recorded")),
        _("- **Validated by:** {name}", name=name or _("not recorded")),
        _("- **Date:** {date}", date=when or _("not recorded")),
    ]
    return join_blocks(
        _(
            "The controller, who remains responsible (Art. 24(1)), validates the assessment in"
            " light of the DPO's advice and the residual risks:"
        ),
        "\n".join(lines),
        _decision_against_finding(context),
        to_be_completed(", ".join(missing)) if missing else None,
    )


def _decision_against_finding(context: CompositionContext) -> str | None:
    """What the decision means given the document's own Art. 36(1) finding; a gap when it
    contradicts that finding."""
    risks = getattr(context.assessment, "risks", None)
    if risks is None or not (context.has("processingActivity") and context.has("dataCategories")):
        return None  # no finding yet (the risks cannot be rated)
    # Compared on the stored code, never on the translated text.
    decision = context.value("controllerDecision")
    if risks.prior_consultation_required and decision == DECISION_SUBMIT:
        return _(
            "A high residual risk remains: the processing may only start after the prior"
            " consultation of the supervisory authority and within its advice (Art. 36(1)-(2))."
        )
    if risks.prior_consultation_required and decision in (
        DECISION_START,
        DECISION_START_AFTER_PLAN,
    ):
        return to_be_completed(
            _(
                "a decision consistent with this assessment: a high residual risk remains, so"
                " the processing may not start before the supervisory authority is consulted"
                " (Art. 36(1)); submit it for prior consultation, or lower the residual risk"
                " with further measures and rate it again"
            )
        )
    if not risks.prior_consultation_required and decision == DECISION_SUBMIT:
        return to_be_completed(
            _(
                "the reason for consulting the supervisory authority although no residual risk"
                " remains high (Art. 36(1)), or the residual ratings that make it high"
            )
        )
    return None
