"""The controller's own ratings of a DPIA's risks (Art. 35(7)(c)).

The engine's ratings (`dpia_risk.assess_risks`) are a proposal: the controller assesses the
risks and may set the severity and likelihood of any of them, with the reason. Its values
replace the proposal for that risk (the Art. 36(1) finding follows them); the proposal is
kept beside them so that the document shows both.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from gdpr.composition.assessments.dpia_risk import RiskAssessment
from gdpr.composition.assessments.risk_scale import RiskRating

# The keys of the risks `assess_risks` rates: the CNIL feared events, then the risks to rights
# (`dpia_rights_risks`, prefixed "rights-"). A test keeps this list equal to what is rated.
RISK_KEYS: tuple[str, ...] = (
    "illegitimate-access",
    "unwanted-modification",
    "disappearance",
    "rights-surveillance",
    "rights-discrimination",
    "rights-loss-of-control",
    "rights-chilling-effects",
    "rights-function-creep",
)
SCALE = range(1, 5)


@dataclass(frozen=True, slots=True)
class ControllerRating:
    """The values the controller sets for one risk; residual values None = derived."""

    risk: str
    severity: int
    likelihood: int
    reason: str
    residual_severity: int | None = None
    residual_likelihood: int | None = None


def controller_ratings(entries: Iterable[Any]) -> list[ControllerRating]:
    """`riskRatings` inputs (validated at the edge) as ratings; malformed entries skipped."""
    ratings = []
    for entry in entries:
        if not isinstance(entry, Mapping) or entry.get("risk") not in RISK_KEYS:
            continue
        try:
            ratings.append(
                ControllerRating(
                    risk=str(entry["risk"]),
                    severity=_scale(entry["severity"]),
                    likelihood=_scale(entry["likelihood"]),
                    reason=str(entry.get("reason") or ""),
                    residual_severity=_optional_scale(entry.get("residualSeverity")),
                    residual_likelihood=_optional_scale(entry.get("residualLikelihood")),
                )
            )
        except (KeyError, TypeError, ValueError):
            continue  # stored inputs must still write; validation refuses such entries
    return ratings


def _scale(value: Any) -> int:
    number = int(value)
    if number not in SCALE:
        raise ValueError(number)
    return number


def _optional_scale(value: Any) -> int | None:
    return None if value is None else _scale(value)


def _applied(proposal: RiskRating, rating: ControllerRating) -> RiskRating:
    # Without residual values the measures lower the controller's values as much as they
    # lowered the proposal's (the same measures act on the same risk).
    severity_drop = proposal.severity - proposal.residual_severity
    likelihood_drop = proposal.likelihood - proposal.residual_likelihood
    residual_severity = rating.residual_severity or max(1, rating.severity - severity_drop)
    residual_likelihood = rating.residual_likelihood or max(1, rating.likelihood - likelihood_drop)
    return replace(
        proposal,
        severity=rating.severity,
        likelihood=rating.likelihood,
        residual_severity=min(residual_severity, rating.severity),
        residual_likelihood=min(residual_likelihood, rating.likelihood),
    )


def apply_controller_ratings(
    assessment: RiskAssessment, ratings: Iterable[ControllerRating]
) -> RiskAssessment:
    """The assessment with each rated risk's values replaced by the controller's."""
    by_risk = {rating.risk: rating for rating in ratings}

    def apply(risks: tuple[RiskRating, ...]) -> tuple[RiskRating, ...]:
        return tuple(
            _applied(risk, by_risk[risk.key]) if risk.key in by_risk else risk for risk in risks
        )

    return RiskAssessment(
        risks=apply(assessment.risks), rights_risks=apply(assessment.rights_risks)
    )
