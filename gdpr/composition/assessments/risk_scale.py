"""The CNIL risk map shared by every DPIA rating: the 1-4 scale, a rating, its level.

The feared events (`dpia_risk`) and the risks to rights and freedoms (`dpia_rights_risks`)
are rated on the same map, so the scale lives here, below both: neither rating module
imports the other for it.
"""

from __future__ import annotations

from dataclasses import dataclass

from gdpr.i18n import N_

SCALE_LABELS = {1: N_("Negligible"), 2: N_("Limited"), 3: N_("Significant"), 4: N_("Maximum")}
SEVERE = 3  # "Significant" and "Maximum" are the upper half of each CNIL axis.


@dataclass(frozen=True, slots=True)
class RiskRating:
    """One feared event rated before and after the measures in place."""

    key: str
    label: str
    severity: int
    likelihood: int
    residual_severity: int
    residual_likelihood: int
    reasons: tuple[str, ...]
    mitigating_families: tuple[str, ...]
    recommendations: tuple[str, ...]

    @property
    def level(self) -> str:
        """Risk level before measures."""
        return risk_level(self.severity, self.likelihood)

    @property
    def residual_level(self) -> str:
        """Risk level with the measures in place."""
        return risk_level(self.residual_severity, self.residual_likelihood)


def risk_level(severity: int, likelihood: int) -> str:
    """The zone of the CNIL map where (severity, likelihood) sits.

    high: both significant or maximum (to be avoided; Art. 36 if it remains); medium (severe
    impact): severity high, likelihood low (to be reduced, the impact is what matters);
    medium (likely): likelihood high, severity low (to be reduced); low: both negligible or
    limited (may be accepted).
    """
    # Codes compared by the rules; translated where shown (writers/dpia.py).
    if severity >= SEVERE and likelihood >= SEVERE:
        return N_("high")
    if severity >= SEVERE:
        return N_("medium (severe impact)")
    if likelihood >= SEVERE:
        return N_("medium (likely)")
    return N_("low")


def clamp(value: int) -> int:
    """A value on the scale: measures reduce a risk, they never make an event impossible."""
    return max(1, min(4, value))
