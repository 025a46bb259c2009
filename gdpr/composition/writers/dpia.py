"""Template text of a DPIA: description, screening, necessity, risks, measures, validation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from gdpr.composition.assessments.controller_ratings import (
    ControllerRating,
    apply_controller_ratings,
    controller_ratings,
)
from gdpr.composition.assessments.dpia_rights_risks import RIGHTS_MEASURE_LABELS
from gdpr.composition.assessments.dpia_risk import RiskAssessment, assess_risks
from gdpr.composition.assessments.dpia_screening import DpiaFacts, Screening, screen
from gdpr.composition.assessments.dsr_deadline import add_months
from gdpr.composition.assessments.risk_scale import SCALE_LABELS, RiskRating
from gdpr.composition.assessments.security_measures import (
    FAMILY_BY_KEY,
    classify_measures,
)
from gdpr.composition.context import CompositionContext
from gdpr.composition.inputs import Transfer
from gdpr.composition.markdown import (
    bullets,
    escape_inline,
    join_blocks,
    table,
    to_be_completed,
)
from gdpr.composition.rights import is_direct_marketing, rights_with_articles
from gdpr.composition.special_categories import (
    sensitive_data,
    special_category_labels,
    write_sensitive_data,
)
from gdpr.composition.writers import dpia_governance as governance
from gdpr.composition.writers.common import (
    legal_basis_codes,
    legal_basis_text,
    legitimate_interests_text,
    list_or_marker,
    safeguard_summary,
    text_or_marker,
    transfers_text,
)
from gdpr.i18n import N_, _, format_date, join_list, lower_label, punct

_MET = {True: N_("Met"), False: N_("Not met"), None: N_("Not stated")}


@dataclass(frozen=True, slots=True)
class DpiaAssessment:
    """What the DPIA writers share, computed once."""

    facts: DpiaFacts
    screening: Screening
    risks: RiskAssessment
    measure_families: frozenset[str]
    # The engine's ratings, before the controller's own (`risks` holds the values that count).
    proposed_risks: RiskAssessment | None = None
    controller_ratings: tuple[ControllerRating, ...] = ()


def facts_from(context: CompositionContext) -> DpiaFacts:
    """The screening facts read from the inputs."""
    subjects = context.value("approximateSubjects")
    return DpiaFacts(
        profiling=context.flag("profiling"),
        automated_decisions=context.flag("automatedDecisions"),
        systematic_monitoring=context.flag("systematicMonitoring"),
        public_area_monitoring=context.flag("publicAreaMonitoring"),
        # Declared, recognised among the data categories ("biometric templates") or implied
        # by an Art. 9(2) condition: never screened as sensitive then treated as ordinary.
        special_categories=special_category_labels(context),
        unclassified_categories=sensitive_data(context).unclassified,
        highly_personal_data=context.flag("highlyPersonalData"),
        large_scale=context.flag("largeScale"),
        approximate_subjects=int(subjects) if subjects is not None else None,
        dataset_matching=context.flag("datasetMatching"),
        vulnerable_subjects=context.flag("vulnerableSubjects"),
        innovative_technology=context.flag("innovativeTechnology"),
        prevents_right_or_service=context.flag("preventsRightOrService"),
        third_country_transfers=bool(context.items("thirdCountryTransfers")),
        recipient_count=len(context.items("recipients")),
    )


def assess(context: CompositionContext) -> DpiaAssessment:
    """Screening and risk rating of the processing described by the inputs."""
    facts = facts_from(context)
    # Wordings, or Measure items whose family, when the DPO gave one, decides.
    measures = [
        *context.items("securityMeasures"),
        *context.items("plannedMeasures"),
        *(str(action.get("measure") or "") for action in governance.actions(context)),
    ]
    families = classify_measures(measures)
    proposed = assess_risks(facts, families, measures)
    # Art. 35(7)(c): the controller assesses the risks; the engine's ratings are a proposal.
    ratings = tuple(controller_ratings(context.items("riskRatings")))
    return DpiaAssessment(
        facts=facts,
        screening=screen(facts),
        risks=apply_controller_ratings(proposed, ratings),
        measure_families=families,
        proposed_risks=proposed,
        controller_ratings=ratings,
    )


def submitted_for_prior_consultation(context: CompositionContext) -> bool:
    """True when the DPIA goes to the supervisory authority (Art. 36(3)(e)): the controller
    decided to submit it, or the assessment finds a high residual risk (Art. 36(1))."""
    if context.value("controllerDecision") == governance.DECISION_SUBMIT:
        return True
    risks = getattr(context.assessment, "risks", None)
    return bool(
        _risks_known(context) is None and risks is not None and risks.prior_consultation_required
    )


def _risks_known(context: CompositionContext) -> str | None:
    """Why the risks cannot be rated yet, or None when they can."""
    missing = [
        label
        for key, label in (
            ("processingActivity", _("the processing activity")),
            ("dataCategories", _("the data categories")),
        )
        if not context.has(key)
    ]
    return join_list(missing) if missing else None


def write_description(context: CompositionContext) -> str:
    activity = text_or_marker(context, "processingActivity", _("a description of the processing"))
    return join_blocks(
        activity,
        context.text("dataFlow"),
        list_or_marker(context, "purposes", _("Purposes"), _("the purposes of the processing")),
        legal_basis_text(context),
        legitimate_interests_text(context),
        list_or_marker(
            context,
            "dataCategories",
            _("Categories of personal data"),
            _("the categories of personal data"),
        ),
        list_or_marker(
            context,
            "dataSubjects",
            _("Categories of data subjects"),
            _("the categories of data subjects"),
        ),
        _("Recipients:\n\n") + bullets(context.items("recipients"))
        if context.has("recipients")
        else _("Recipients: none besides the controller's staff."),
        transfers_text(context, none_text=_("No transfer outside the EEA is planned.")),
    )


def write_screening(context: CompositionContext) -> str:
    screening: Screening = context.assessment.screening
    criteria = table(
        (_("WP248 criterion"), _("Assessment"), _("Reason")),
        [(c.label, _(_MET[c.met]), c.reason) for c in screening.criteria],
    )
    cases = table(
        (_("Art. 35(3) case"), _("Assessment"), _("Reason")),
        [(c.label, _(_MET[c.met]), c.reason) for c in screening.mandatory_cases],
    )
    if screening.required:
        mandatory = [c.label for c in screening.mandatory_cases if c.met]
        why = (
            _("Art. 35(3) applies ({mandatory})", mandatory=f"{punct(';')} ".join(mandatory))
            if mandatory
            else _(
                "{met_count} of the nine WP248 criteria are met (two or more)",
                met_count=screening.met_count,
            )
        )
        conclusion = _("**Conclusion: a DPIA is required.** {why}.", why=why)
    elif screening.unknown:
        conclusion = to_be_completed(
            _(
                "{met_count} criterion met so far; state whether these apply before concluding: ",
                met_count=screening.met_count,
            )
            + ", ".join(c.label for c in screening.unknown)
        )
    else:
        conclusion = _(
            "**Conclusion: a DPIA is not strictly required** ({met_count} of nine "
            "criteria met, no Art. 35(3) case) unless the Art. 35(4) list below "
            "names the processing; it is carried out as good practice and to "
            "document the assessment.",
            met_count=screening.met_count,
        )
    return join_blocks(criteria, cases, conclusion)


def write_necessity(context: CompositionContext) -> str:
    transfers: list[Transfer] = context.items("thirdCountryTransfers")
    weak = [t for t in transfers if t.safeguard.code == "none"]
    transfer_line = (
        _("Transfers rest on: ") + f"{punct(';')} ".join(safeguard_summary(context)) + "."
        if transfers
        else _("No third-country transfer needs a Chapter V safeguard.")
    )
    if weak:
        transfer_line += " " + to_be_completed(_("a Chapter V safeguard for every transfer"))
    retention = context.items("retentionPeriods")
    return join_blocks(
        _("Necessity and proportionality of the processing: ")
        + text_or_marker(
            context,
            "necessityJustification",
            _(
                "why the processing is necessary for the purposes and why less intrusive means"
                " would not achieve them"
            ),
        ),
        _necessity_per_purpose(context),
        _minimisation_text(context),
        legal_basis_text(context),
        _purpose_limitation_text(context),
        _("Storage limitation (Art. 5(1)(e)):\n\n") + bullets(retention)
        if retention
        else _("Storage limitation (Art. 5(1)(e)): ")
        + to_be_completed(_("the retention period of each data category")),
        _retention_approach_text(context),
        transfer_line,
        _information_text(context),
        _rights_text(context),
    )


def _minimisation_text(context: CompositionContext) -> str | None:
    """Art. 5(1)(c) as answered; nothing when unanswered (the questionnaire asks it)."""
    minimised = context.flag("dataMinimisation")
    if minimised is None:
        return None
    if minimised:
        return _(
            "Data minimisation (Art. 5(1)(c)): every data category is necessary for the purposes."
        )
    return _(
        "Data minimisation (Art. 5(1)(c)): not every data category is strictly necessary;"
        " what is done about them: "
    ) + text_or_marker(
        context,
        "minimisationPlan",
        _("the data categories that are not strictly necessary and the action for each"),
    )


def _purpose_limitation_text(context: CompositionContext) -> str:
    """Art. 5(1)(b) as stated by the controller, never assumed."""
    further = context.flag("furtherProcessing")
    label = _("Purpose limitation (Art. 5(1)(b)): ")
    if further is None:
        return label + to_be_completed(
            _(
                "whether the data is used for any further purpose beyond those above, and if so"
                " why that purpose is compatible (Art. 5(1)(b), 6(4))"
            )
        )
    if not further:
        return label + _(
            "the data is used for the purposes above only; it is not further processed for"
            " purposes incompatible with them."
        )
    return (
        label
        + _("the data is also used for further purposes: ")
        + text_or_marker(
            context,
            "furtherPurposes",
            _("the further purposes and why each is compatible with the initial ones (Art. 6(4))"),
        )
    )


def _retention_approach_text(context: CompositionContext) -> str | None:
    approach = context.value("retentionApproach")
    if approach is None:
        return None
    text = _(
        "Retention periods are set by: {approach}.",
        approach=context.choice("retentionApproach"),
    )
    if approach == "Not yet defined":
        return join_blocks(text, to_be_completed(_("the retention period of each data category")))
    return text


def _information_text(context: CompositionContext) -> str:
    """Art. 13/14 as the controller describes it, never assumed."""
    label = _("Information of data subjects (Art. 13/14): ")
    given = context.text("dataSubjectsInformation")
    if given:
        return label + given
    return label + to_be_completed(
        _(
            "how data subjects are informed (Art. 13 or 14: notice, signage, at collection),"
            " or the Art. 14(5) exemption relied on"
        )
    )


def _rights_text(context: CompositionContext) -> str:
    """The rights that follow from the legal bases relied on (Art. 7(3), 15-22)."""
    codes = legal_basis_codes(context)
    if not codes:
        return _("Information and rights: ") + to_be_completed(
            _(
                "the legal basis, which decides whether portability, objection and withdrawal of"
                " consent apply (Art. 7(3), 20, 21)"
            )
        )
    rights = rights_with_articles(
        codes=codes,
        explicit_consent=any(c.letter == "a" for c in context.items("specialCategoryConditions")),
        automated_means=context.flag("automatedMeans") is not False,
        direct_marketing=is_direct_marketing(context.items("purposes")),
    )
    channels = context.value("rightsChannels")
    return join_blocks(
        _("Rights: given the legal bases relied on, data subjects can exercise their right to:\n\n")
        + bullets(rights),
        _(
            "Data subjects exercise their rights through: {channels}.",
            channels=context.choice("rightsChannels"),
        )
        if channels
        else None,
    )


def _necessity_per_purpose(context: CompositionContext) -> str | None:
    """Per purpose: why the data is necessary and which less intrusive means were weighed."""
    purposes = [str(p) for p in context.items("purposes")]
    if not purposes:
        return None
    given = {
        str(entry.get("purpose") or "").strip().lower(): entry
        for entry in context.items("purposeNecessity")
        if isinstance(entry, Mapping)
    }
    rows, unargued = [], []
    for purpose in purposes:
        entry = given.get(purpose.strip().lower(), {})
        necessity, alternatives = entry.get("necessity"), entry.get("lessIntrusiveMeans")
        if not (necessity and alternatives):
            unargued.append(purpose)
        rows.append((purpose, necessity or _("not argued"), alternatives or _("not examined")))
    return join_blocks(
        _("Necessity per purpose, against less intrusive means (Art. 5(1)(c), 35(7)(b)):"),
        table(
            (_("Purpose"), _("Why the processing is necessary"), _("Less intrusive means weighed")),
            rows,
        ),
        to_be_completed(
            _(
                "for each purpose, why it is necessary and which less intrusive means were"
                " considered and why they do not suffice: "
            )
            + ", ".join(map(escape_inline, unargued))
        )
        if unargued
        else None,
    )


# The columns the risk map is read from (writers/dpia_risk_tables.py): one name, one place.
POSITION_HEADER = N_("Position on the map")
RESIDUAL_POSITION_HEADER = N_("Residual position")


def write_risks(context: CompositionContext) -> str:
    missing = _risks_known(context)
    if missing:
        return to_be_completed(
            _("{missing}; the risks cannot be rated without them.", missing=missing)
        )
    dpia: DpiaAssessment = context.assessment
    assessment: RiskAssessment = dpia.risks
    proposed = {
        risk.key: risk
        for risk in (*(dpia.proposed_risks or assessment).risks,
                     *(dpia.proposed_risks or assessment).rights_risks)
    }  # fmt: skip

    def scale(value: int) -> str:
        return f"{value} ({_(SCALE_LABELS[value])})"

    def cell(value: int, proposal: int) -> str:
        # The controller's value, with the engine's proposal beside it when they differ.
        if value == proposal:
            return scale(value)
        return _(
            "{value}, set by the controller (proposed: {proposal})",
            value=scale(value),
            proposal=scale(proposal),
        )

    headers = (
        _("Severity"),
        _("Likelihood"),
        _(POSITION_HEADER),
        _("Residual severity"),
        _("Residual likelihood"),
        _(RESIDUAL_POSITION_HEADER),
    )

    def rows(risks: tuple[RiskRating, ...]) -> list[tuple[str, ...]]:
        return [
            (
                risk.label,
                cell(risk.severity, proposed[risk.key].severity),
                cell(risk.likelihood, proposed[risk.key].likelihood),
                _(risk.level),
                cell(risk.residual_severity, proposed[risk.key].residual_severity),
                cell(risk.residual_likelihood, proposed[risk.key].residual_likelihood),
                _(risk.residual_level),
            )
            for risk in risks
        ]

    everything = (*assessment.risks, *assessment.rights_risks)
    set_by_controller = {rating.risk: rating for rating in dpia.controller_ratings}
    reasons = "\n".join(
        f"- **{risk.label}**{punct(':')} "
        + f"{punct(';')} ".join(risk.reasons)
        + "."
        + (
            _(
                " Set by the controller: severity {severity}, likelihood {likelihood},"
                " because {reason}.",
                severity=scale(risk.severity),
                likelihood=scale(risk.likelihood),
                reason=escape_inline(set_by_controller[risk.key].reason),
            )
            if risk.key in set_by_controller
            else ""
        )
        for risk in everything
    )
    return join_blocks(
        _(
            "Each risk is rated for severity (impact on the data subjects) and likelihood on the"
            " CNIL scale 1 Negligible, 2 Limited, 3 Significant, 4 Maximum, and placed on the CNIL"
            " risk map (a position, not a product of scores): **high** when both are significant"
            " or maximum (to be avoided; Art. 36 if it remains), **medium (severe impact)** or"
            " **medium (likely)** when only one is (to be reduced), **low** when neither is. A"
            " residual value falls only through a measure that acts on it for that risk."
        ),
        _(
            "Feared events for the data (CNIL: illegitimate access, unwanted modification,"
            " disappearance):\n\n"
        )
        + table((_("Feared event"), *headers), rows(assessment.risks)),
        _(
            "Risks to the rights and freedoms of data subjects (Art. 35(7)(c), recital 75, WP248"
            " rev.01):\n\n"
        )
        + table((_("Risk to rights"), *headers), rows(assessment.rights_risks)),
        _("Factors behind the ratings:\n\n") + reasons,
    )


def write_measures(context: CompositionContext) -> str:
    existing = context.items("securityMeasures")
    if not existing:
        return to_be_completed(
            _(
                "the technical and organisational measures in place (Art. 32), e.g. encryption,"
                " access control, logging, backups"
            )
        )
    assessment: DpiaAssessment = context.assessment
    per_risk = []
    for risk in assessment.risks.risks:
        families = ", ".join(_(FAMILY_BY_KEY[f].label) for f in risk.mitigating_families) or _(
            "none"
        )
        line = _("- **{label}**: mitigated by {families}.", label=risk.label, families=families)
        if risk.recommendations:
            line += _(" Recommended: ") + " ".join(risk.recommendations)
        per_risk.append(line)
    for risk in assessment.risks.rights_risks:
        acting = ", ".join(_(RIGHTS_MEASURE_LABELS[f]) for f in risk.mitigating_families) or _(
            "none yet"
        )
        line = _("- **{label}**: mitigated by {acting}.", label=risk.label, acting=acting)
        if risk.recommendations:
            line += _(" Recommended: ") + " ".join(risk.recommendations)
        per_risk.append(line)
    planned = context.items("plannedMeasures")
    return join_blocks(
        _("Measures in place:\n\n") + bullets(existing),
        _("Planned measures (action plan):\n\n") + bullets(planned) if planned else None,
        _("Measures against each risk:\n\n") + "\n".join(per_risk),
        _("Compliance is demonstrated (Art. 5(2), 24) by this DPIA and its review cycle below."),
        _processors_text(context),
    )


def _processors_text(context: CompositionContext) -> str | None:
    bound = context.flag("processorsBound")
    if bound is None:
        return None
    if bound:
        return _("Every processor is bound by an Art. 28 agreement (Art. 28(3)).")
    return to_be_completed(_("an Art. 28 agreement with every processor (Art. 28(3))"))


def write_dpo_advice(context: CompositionContext) -> str:
    advice = context.text("dpoAdvice")
    opinion = context.choice("dpoOpinion")
    if not advice and not opinion:
        return to_be_completed(_("the DPO's advice on this assessment (Art. 35(2))"))
    return join_blocks(
        _("Opinion of the DPO: **{opinion}**.", opinion=opinion) if opinion else None,
        advice,
        _("DPO contact: {dpo_contact}", dpo_contact=context.inline("dpoContact"))
        if context.has("dpoContact")
        else None,
    )


def write_data_subject_views(context: CompositionContext) -> str:
    consulted = context.flag("dataSubjectsConsulted")
    if consulted is None:
        return to_be_completed(_("whether the views of data subjects were sought (Art. 35(9))"))
    if consulted:
        return _("Data subjects or their representatives were consulted. ") + text_or_marker(
            context, "consultationSummary", _("how they were consulted and their views")
        )
    return _("The views of data subjects were not sought. Reason: ") + text_or_marker(
        context, "consultationNotSoughtReason", _("why seeking their views was not appropriate")
    )


def write_prior_consultation(context: CompositionContext) -> str:
    missing = _risks_known(context)
    if missing:
        return to_be_completed(
            _("{missing}; the residual risk decides on Art. 36.", missing=missing)
        )
    risks: RiskAssessment = context.assessment.risks
    if risks.prior_consultation_required:
        names = ", ".join(lower_label(risk.label) for risk in risks.high_residual)
        submitted = context.value("controllerDecision") == governance.DECISION_SUBMIT
        return _(
            "**Prior consultation is required.** A high residual risk remains "
            "({names}). The processing must not start before the supervisory "
            "authority is consulted under Art. 36(1), with the information of Art. "
            "36(3): responsibilities, purposes and means, measures and safeguards, "
            "DPO contact, this DPIA.",
            names=names,
        ) + (
            _(" The controller submits this assessment for that consultation (Art. 36(3)(e)).")
            if submitted
            else ""
        )
    return _(
        "**Prior consultation is not required**: no residual risk remains high with the"
        " measures in place (Art. 36(1))."
    )


def write_review(context: CompositionContext) -> str:
    given = context.value("nextReviewDate")
    review_date = given if given else add_months(context.now.date(), 12)
    if isinstance(review_date, date):
        review_date = format_date(review_date)
    basis = (
        _("as set by the controller") if given else _("one year from this assessment by default")
    )
    text = _(
        "This assessment is reviewed by {review_date} ({basis}) and at the "
        "latest whenever the risk represented by the processing changes (Art. "
        "35(11)): new data, purposes, technology, recipients, processors or a "
        "security incident.",
        review_date=escape_inline(review_date),
        basis=basis,
    )
    if context.value("reviewTriggers"):
        text += _(
            " Changes the controller names as triggers of an earlier review: {triggers}.",
            triggers=context.choice("reviewTriggers"),
        )
    return text


WRITERS = {
    "a-description": write_description,
    "special-categories": write_sensitive_data,
    "screening": write_screening,
    "national-list": governance.write_national_list,
    "b-necessity": write_necessity,
    "balancing-test": governance.write_balancing_test,
    "c-risks": write_risks,
    "d-measures": write_measures,
    "dpo-advice": write_dpo_advice,
    "data-subject-views": write_data_subject_views,
    "action-plan": governance.write_action_plan,
    "validation": governance.write_validation,
    "prior-consultation": write_prior_consultation,
    "review": write_review,
}
