"""CNIL PIA risk rating: three feared events, severity and likelihood on a 1-4 scale.

Severity depends on what the data reveals and on whom (it measures the impact on people);
likelihood depends on exposure (scale, transfers, sharing, combination). A measure lowers only
the value it acts on, for the risks it targets directly (`_EFFECTS`): access control makes an
illegitimate access less likely, encryption makes a leak less severe, a backup makes a loss
recoverable; logging and training support those measures but lower nothing alone. The level
is a position on the CNIL map (severity x likelihood quadrants), not a product of scores. The
risks to rights and freedoms beyond security (`dpia_rights_risks`) are rated on the same map.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gdpr.composition.assessments.dpia_rights_risks import rate_rights_risks
from gdpr.composition.assessments.dpia_screening import DpiaFacts
from gdpr.composition.assessments.risk_scale import RiskRating, clamp
from gdpr.composition.assessments.security_measures import FAMILY_BY_KEY
from gdpr.i18n import _

MANY_RECIPIENTS = 3


@dataclass(frozen=True, slots=True)
class RiskAssessment:
    """The three ratings and the Art. 36 consequence."""

    risks: tuple[RiskRating, ...]
    rights_risks: tuple[RiskRating, ...] = ()

    @property
    def high_residual(self) -> tuple[RiskRating, ...]:
        """Risks (feared events and risks to rights) still high with the measures in place."""
        return tuple(
            risk for risk in (*self.risks, *self.rights_risks) if risk.residual_level == "high"
        )

    @property
    def prior_consultation_required(self) -> bool:
        """Art. 36(1): consult the authority when a high residual risk remains."""
        return bool(self.high_residual)


def _reduction(present: set[str], direct: tuple[str, ...], supporting: tuple[str, ...]) -> int:
    # Only a measure that addresses the risk directly lowers its value: one step, two when
    # three or more acting families are listed (CNIL: measures reduce, they never make an event
    # impossible, hence the floor of 1 in clamp). A supporting family (logging, training)
    # helps a direct one work but lowers nothing alone: staff training does not make an
    # illegitimate access less likely where nothing restricts access.
    direct_count = sum(1 for key in direct if key in present)
    if direct_count == 0:
        return 0
    count = direct_count + sum(1 for key in supporting if key in present)
    return 1 if count < 3 else 2


# Families acting on one value of a feared event: (direct, supporting).
Acting = tuple[tuple[str, ...], tuple[str, ...]]
# Per feared event: the families acting on its likelihood, and those acting on its severity.
_EFFECTS: dict[str, tuple[Acting, Acting]] = {
    "illegitimate-access": (
        # Access control keeps the wrong people out; logs and training support it.
        (("access-control",), ("logging", "organisational")),
        # Leaked data is unintelligible or not linkable.
        (("encryption", "pseudonymisation"), ()),
    ),
    "unwanted-modification": (
        (("access-control", "integrity"), ("logging",)),
        # A modified record can be restored: the impact, not the odds, falls.
        (("backup",), ()),
    ),
    # A backup turns a loss into a temporary unavailability: the likelihood of a permanent
    # disappearance falls. Access control or checksums do not bring lost data back.
    "disappearance": ((("backup",), ()), ((), ())),
}


def assess_risks(
    facts: DpiaFacts, measure_families: Iterable[str], measures: Iterable[object] = ()
) -> RiskAssessment:
    """Rate the three CNIL feared events and the risks to rights and freedoms.

    `measures` are the measures as worded (the risks to rights are lowered by what the
    wording says, e.g. blurring, human review); `measure_families` their Art. 32 families.
    """
    present = set(measure_families)
    special = bool(facts.special_categories)
    sensitive = bool(facts.is_sensitive)
    vulnerable = bool(facts.vulnerable_subjects)
    large = bool(facts.is_large_scale)
    many_recipients = facts.recipient_count >= MANY_RECIPIENTS
    reasons_common = []
    if special:
        reasons_common.append(_("special-category data raises the impact of any incident"))
    elif sensitive:
        reasons_common.append(_("highly personal data raises the impact of any incident"))
    if vulnerable:
        reasons_common.append(_("vulnerable data subjects are less able to protect themselves"))
    if large:
        reasons_common.append(_("the large scale widens exposure"))

    access_severity = clamp(1 + (2 if special else 1 if sensitive else 0) + vulnerable)
    access_likelihood = clamp(
        1
        + large
        + facts.third_country_transfers
        + many_recipients
        + bool(facts.systematic_monitoring or facts.dataset_matching)
    )
    access_reasons = list(reasons_common)
    if facts.third_country_transfers:
        access_reasons.append(_("third-country transfers add jurisdictions and parties"))
    if many_recipients:
        access_reasons.append(
            _(
                "{recipient_count} recipient categories share the data",
                recipient_count=facts.recipient_count,
            )
        )
    if facts.systematic_monitoring or facts.dataset_matching:
        access_reasons.append(_("monitoring or combined datasets build richer profiles"))

    modification_severity = clamp(1 + special + vulnerable + bool(facts.automated_decisions))
    modification_likelihood = clamp(1 + large + many_recipients + bool(facts.dataset_matching))
    modification_reasons = list(reasons_common)
    if facts.automated_decisions:
        modification_reasons.append(_("automated decisions would act on altered data"))

    disappearance_severity = clamp(
        1 + special + bool(facts.automated_decisions or facts.prevents_right_or_service)
    )
    disappearance_likelihood = clamp(2 + large)
    disappearance_reasons = [
        _("hardware failure, ransomware and deletion errors are common events"),
        *([_("the large scale widens exposure")] if large else []),
    ]
    if facts.prevents_right_or_service:
        disappearance_reasons.append(_("people depend on the data to use a right or service"))

    specs = (
        (
            "illegitimate-access",
            _("Illegitimate access to data"),
            access_severity,
            access_likelihood,
            access_reasons,
        ),
        (
            "unwanted-modification",
            _("Unwanted modification of data"),
            modification_severity,
            modification_likelihood,
            modification_reasons,
        ),
        (
            "disappearance",
            _("Disappearance of data"),
            disappearance_severity,
            disappearance_likelihood,
            disappearance_reasons,
        ),
    )
    risks = []
    for key, label, severity, likelihood, reasons in specs:
        on_likelihood, on_severity = _EFFECTS[key]
        relevant = (*on_likelihood[0], *on_likelihood[1], *on_severity[0], *on_severity[1])
        risks.append(
            RiskRating(
                key=key,
                label=label,
                severity=severity,
                likelihood=likelihood,
                residual_severity=clamp(severity - min(1, _reduction(present, *on_severity))),
                residual_likelihood=clamp(likelihood - _reduction(present, *on_likelihood)),
                reasons=tuple(reasons) or (_("no aggravating factor in the inputs"),),
                mitigating_families=tuple(f for f in relevant if f in present),
                recommendations=tuple(
                    _(FAMILY_BY_KEY[f].recommendation) for f in relevant if f not in present
                ),
            )
        )
    return RiskAssessment(risks=tuple(risks), rights_risks=rate_rights_risks(facts, measures))
