"""Risks to the rights and freedoms of data subjects beyond data security (Art. 35(7)(c)).

The CNIL feared events (access, modification, disappearance) say what can happen to the data;
WP248 rev.01 and recital 75 also ask what the processing itself does to people: surveillance,
discrimination, loss of control over their data, chilling effects on the exercise of
freedoms, function creep (use for other purposes). Each is rated from the facts on the CNIL
1-4 scale; its residual value falls only through a measure whose wording acts on it (Art. 32
security measures do not make monitoring less intrusive).
"""

from __future__ import annotations

from collections.abc import Iterable

from gdpr.composition.assessments.dpia_screening import DpiaFacts
from gdpr.composition.assessments.risk_scale import RiskRating, clamp
from gdpr.composition.assessments.security_measures import RIGHTS_SCHEME, measure_families
from gdpr.i18n import N_, _

# What each family of rights measures is called in the document.
RIGHTS_MEASURE_LABELS = {
    "minimisation": N_("minimisation"),
    "human-review": N_("human review"),
    "transparency": N_("transparency"),
    "control": N_("control"),
    "purpose-lock": N_("purpose lock"),
}

# (key, what it acts on: (risk key, "severity" | "likelihood"), advice). The wording of each
# family is the `rights-measure` concept of the same code, recognised in every language.
_RIGHTS_MEASURES: tuple[tuple[str, tuple[tuple[str, str], ...], str], ...] = (
    (
        "minimisation",
        (("surveillance", "severity"), ("discrimination", "severity"),
         ("chilling-effects", "severity")),
        N_("Minimise what is captured (blurring, aggregation, pseudonymisation)."),
    ),
    (
        "human-review",
        (("discrimination", "likelihood"),),
        N_("Let a person review outputs and test them for bias (Art. 22(3))."),
    ),
    (
        "transparency",
        (("loss-of-control", "likelihood"), ("chilling-effects", "likelihood")),
        N_("Inform people before they enter the processing (signage, notice: Art. 12-14)."),
    ),
    (
        "control",
        (("loss-of-control", "severity"),),
        N_("Give people a simple way to object or opt out (Art. 21)."),
    ),
    (
        "purpose-lock",
        (("function-creep", "likelihood"), ("surveillance", "likelihood")),
        N_("Lock the purposes and delete automatically at the end of retention (Art. "
        "5(1)(b),(e))."),
    ),
)  # fmt: skip


# Art. 22(3) (human intervention) binds only solely automated decisions with legal or similarly
# significant effects; elsewhere the same advice stands without that citation.
_WITHOUT_ART_22 = {
    "Let a person review outputs and test them for bias (Art. 22(3)).": N_(
        "Let a person review outputs and test them for bias."
    ),
}


def _advice(advice: str, facts: DpiaFacts) -> str:
    return _(advice if facts.automated_decisions else _WITHOUT_ART_22.get(advice, advice))


def _present(measures: Iterable[object]) -> set[str]:
    return set(measure_families(measures, scheme=RIGHTS_SCHEME))


def rate_rights_risks(facts: DpiaFacts, measures: Iterable[object]) -> tuple[RiskRating, ...]:
    """Surveillance, discrimination, loss of control, chilling effects, function creep."""
    monitoring = bool(facts.systematic_monitoring)
    public = bool(facts.public_area_monitoring)
    special = bool(facts.special_categories)
    vulnerable = bool(facts.vulnerable_subjects)
    large = bool(facts.is_large_scale)
    scoring = bool(facts.profiling or facts.automated_decisions)
    matching = bool(facts.dataset_matching)
    specs = (
        ("surveillance", _("Surveillance of data subjects"),
         1 + monitoring + public + vulnerable, 1 + 2 * monitoring + large,
         [_("people are systematically monitored")] if monitoring else []),
        ("discrimination", _("Discrimination or unfair treatment"),
         1 + special + scoring + vulnerable, 1 + scoring + matching + special,
         ([_("scoring or automated decisions")] if scoring else [])
         + ([_("special-category data can reveal protected traits")] if special else [])),
        ("loss-of-control", _("Loss of control over their data"),
         1 + large + matching, 1 + monitoring + matching + facts.third_country_transfers,
         [_("data is observed rather than provided")] if monitoring else []),
        ("chilling-effects", _("Chilling effects on freedoms (expression, movement, assembly)"),
         1 + public + monitoring, 1 + public + monitoring + large,
         [_("monitoring of public areas deters lawful behaviour")] if public else []),
        ("function-creep", _("Function creep: use of the data for other purposes"),
         1 + special + monitoring, 1 + large + matching + (facts.recipient_count >= 3),
         [_("large datasets invite further uses")] if large else []),
    )  # fmt: skip
    present = _present(measures)
    rated = []
    for key, label, severity_raw, likelihood_raw, reasons in specs:
        severity, likelihood = clamp(severity_raw), clamp(likelihood_raw)
        acting = [
            (measure, axis)
            for measure, effects, _advice_text in _RIGHTS_MEASURES
            for risk, axis in effects
            if risk == key
        ]
        on_severity = any(m in present for m, axis in acting if axis == "severity")
        on_likelihood = any(m in present for m, axis in acting if axis == "likelihood")
        rated.append(
            RiskRating(
                key=f"rights-{key}",
                label=label,
                severity=severity,
                likelihood=likelihood,
                residual_severity=clamp(severity - on_severity),
                residual_likelihood=clamp(likelihood - on_likelihood),
                reasons=tuple(reasons) or (_("no aggravating factor in the inputs"),),
                mitigating_families=tuple(m for m, _skip in acting if m in present),
                recommendations=tuple(
                    _advice(advice, facts)
                    for measure, effects, advice in _RIGHTS_MEASURES
                    if measure not in present and any(risk == key for risk, _skip in effects)
                ),
            )
        )
    return tuple(rated)
