"""What each document type concludes, as codes: ratings, decisions, deadlines.

One function per type (`CONCLUDERS`, keyed by the type's name), each reading what the type's
writers read: the type's own `assess` result (`context.assessment`) and the helpers its
writers call. Types without a function conclude nothing beyond the shared decisions.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from gdpr.composition.assessments.breach_deadline import iso_z
from gdpr.composition.assessments.risk_scale import RiskRating
from gdpr.composition.assessments.security_measures import classify_measures
from gdpr.composition.context import CompositionContext
from gdpr.composition.establishment import controller_holidays
from gdpr.composition.periods import response_deadline
from gdpr.composition.rights import ApplicableRights
from gdpr.composition.special_categories import sensitive_data
from gdpr.composition.writers import data_processing_agreement_annexes as dpa_annexes
from gdpr.composition.writers import data_subject_request_form as dsr_writers
from gdpr.composition.writers import dpia as dpia_writers
from gdpr.composition.writers import privacy_policy as privacy_writers
from gdpr.composition.writers.breach_communication import notified_late
from gdpr.composition.writers.breach_notification import BreachAssessment

# risk_level's values (English words the writers translate) as codes.
_LEVEL_CODES = {
    "high": "high",
    "medium (severe impact)": "medium-severe-impact",
    "medium (likely)": "medium-likely",
    "low": "low",
}
# The Art. 34(3) exception letter in the decision's stated reason.
_ART_34_EXCEPTION = re.compile(r"34\s*\(\s*3\s*\)\s*\(\s*([a-c])\s*\)")


@dataclass(slots=True)
class Conclusions:
    """The parts of an assessment a document type fills (empty when it has none)."""

    ratings: dict[str, Any] = field(default_factory=dict)
    decisions: dict[str, Any] = field(default_factory=dict)
    deadlines: dict[str, str] = field(default_factory=dict)


def sensitive_decisions(context: CompositionContext) -> dict[str, bool]:
    """Art. 9(1)/10 data found, and whether the condition or basis each needs is missing."""
    found = sensitive_data(context)
    return {
        "specialCategories": bool(found.special),
        "specialCategoriesWithoutCondition": found.special_without_condition,
        "criminalData": bool(found.criminal),
        "criminalDataWithoutBasis": found.criminal_without_basis,
    }


def _rights(applicable: ApplicableRights) -> dict[str, bool | None]:
    """The basis-dependent rights (None: depends on a basis not recognised)."""
    return {
        "rightToPortability": applicable.portability,
        "rightToObject": applicable.objection,
        "rightToObjectToDirectMarketing": applicable.direct_marketing_objection,
        "rightToWithdrawConsent": applicable.withdraw_consent,
    }


def _rating(risk: RiskRating) -> dict[str, Any]:
    return {
        "key": risk.key,
        "severity": risk.severity,
        "likelihood": risk.likelihood,
        "residualSeverity": risk.residual_severity,
        "residualLikelihood": risk.residual_likelihood,
        "level": _LEVEL_CODES[risk.level],
        "residualLevel": _LEVEL_CODES[risk.residual_level],
    }


def dpia(context: CompositionContext) -> Conclusions:
    """Screening (Art. 35(1), (3), WP248), CNIL ratings and prior consultation (Art. 36)."""
    assessment: dpia_writers.DpiaAssessment = context.assessment
    screening = assessment.screening
    risks = assessment.risks
    # As write_screening concludes: required, unknown while a criterion is unsettled, or not.
    required = True if screening.required else None if screening.unknown else False
    # As write_prior_consultation: no conclusion until the processing and data are described.
    rated = dpia_writers._risks_known(context) is None  # the writer's own rule
    return Conclusions(
        ratings={
            "risks": sorted(
                (_rating(risk) for risk in (*risks.risks, *risks.rights_risks)),
                key=lambda entry: str(entry["key"]),
            )
        },
        decisions={
            "dpiaRequired": required,
            "dpiaCriteriaMet": sorted(c.key for c in screening.criteria if c.met),
            "dpiaCriteriaUnknown": sorted(c.key for c in screening.unknown),
            "dpiaArt35Cases": sorted(c.key for c in screening.mandatory_cases if c.met),
            "art36PriorConsultation": risks.prior_consultation_required if rated else None,
        },
    )


def breach_notification(context: CompositionContext) -> Conclusions:
    """Risk level, Art. 33 notification, Art. 34 communication, the 72-hour deadline."""
    assessment: BreachAssessment = context.assessment
    decision = assessment.decision
    exception = _ART_34_EXCEPTION.search(decision.art_34_exception or "")
    decisions: dict[str, Any] = {
        "art33Notification": decision.notify_authority,
        "art34Communication": decision.communicate_to_subjects,
        "art34Exception": f"art-34-3-{exception.group(1)}" if exception else None,
        "art34PublicCommunication": decision.public_communication,
    }
    deadlines: dict[str, str] = {}
    if assessment.deadline is not None:
        decisions["art33DeadlinePassed"] = assessment.deadline.passed
        decisions["art33NotifiedLate"] = notified_late(context)
        deadlines["awareAt"] = iso_z(assessment.deadline.aware_at)
        deadlines["art33Notification"] = iso_z(assessment.deadline.deadline)
    return Conclusions(
        ratings={"breach": {"riskLevel": decision.risk_level}},
        decisions=decisions,
        deadlines=deadlines,
    )


def _as_date(value: Any) -> date:
    return value if isinstance(value, date) else date.fromisoformat(str(value))


def data_subject_request_form(context: CompositionContext) -> Conclusions:
    """The rights the form offers and the Art. 12(3) due dates (as its deadline writer)."""
    conclusions = Conclusions(decisions=_rights(dsr_writers.rights_of(context)))
    received = context.value("receivedAt")
    if received is None:
        return conclusions
    # The form's own calendar: the controller's Member State and region, days added/removed.
    deadline = response_deadline(_as_date(received), holidays=controller_holidays(context))
    conclusions.decisions["extensionInvoked"] = bool(context.flag("extensionNeeded"))
    conclusions.deadlines = {
        "requestReceived": deadline.received.isoformat(),
        "responseDue": deadline.deadline.isoformat(),
        "extendedResponseDue": deadline.extended_deadline.isoformat(),
    }
    return conclusions


def privacy_policy(context: CompositionContext) -> Conclusions:
    """The rights the notice describes (from the bases of every purpose)."""
    return Conclusions(decisions=_rights(privacy_writers.rights_of(context)))


def data_processing_agreement(context: CompositionContext) -> Conclusions:
    """Whether the processor is outside the EEA, and the Art. 32 families Annex III lacks."""
    covered = classify_measures(str(m) for m in context.items("securityMeasures"))
    return Conclusions(
        decisions={
            "processorOutsideEea": dpa_annexes._processor_outside_eea(context),
            "annexIIIMissingFamilies": [
                key for key in sorted(dpa_annexes.REQUIRED_FAMILIES) if key not in covered
            ],
        }
    )


def record_of_processing(context: CompositionContext) -> Conclusions:
    """Nothing beyond the shared decisions (Art. 9/10 data, transfers)."""
    return Conclusions()


CONCLUDERS: dict[str, Callable[[CompositionContext], Conclusions]] = {
    "RECORD_OF_PROCESSING": record_of_processing,
    "DPIA": dpia,
    "PRIVACY_POLICY": privacy_policy,
    "DATA_PROCESSING_AGREEMENT": data_processing_agreement,
    "BREACH_NOTIFICATION": breach_notification,
    "DATA_SUBJECT_REQUEST_FORM": data_subject_request_form,
}
