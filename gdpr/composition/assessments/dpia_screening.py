"""Is a DPIA required? Art. 35(3) and the nine EDPB WP248 rev.01 criteria."""

from __future__ import annotations

from dataclasses import dataclass

from gdpr.i18n import _, format_number

# WP248 sets no number for "large scale"; this rule set uses an indicative threshold when the
# DPO did not say, and says so in the text.
LARGE_SCALE_SUBJECTS = 10_000


@dataclass(frozen=True, slots=True)
class DpiaFacts:
    """The facts of a processing operation the screening and the risk rating read."""

    profiling: bool | None = None
    automated_decisions: bool | None = None
    systematic_monitoring: bool | None = None
    public_area_monitoring: bool | None = None
    special_categories: tuple[str, ...] = ()
    # Data categories no concept names and the DPO did not classify: open questions.
    unclassified_categories: tuple[str, ...] = ()
    highly_personal_data: bool | None = None
    large_scale: bool | None = None
    approximate_subjects: int | None = None
    dataset_matching: bool | None = None
    vulnerable_subjects: bool | None = None
    innovative_technology: bool | None = None
    prevents_right_or_service: bool | None = None
    third_country_transfers: bool = False
    recipient_count: int = 0

    @property
    def is_large_scale(self) -> bool | None:
        """The stated answer, else the indicative threshold, else unknown."""
        if self.large_scale is not None:
            return self.large_scale
        if self.approximate_subjects is not None:
            return self.approximate_subjects >= LARGE_SCALE_SUBJECTS
        return None

    @property
    def is_sensitive(self) -> bool | None:
        """Art. 9/10 data or other highly personal data."""
        if self.special_categories or self.highly_personal_data:
            return True
        if self.unclassified_categories:
            # "Not highly personal" says nothing of a category nobody classified yet.
            return None
        return self.highly_personal_data


@dataclass(frozen=True, slots=True)
class Criterion:
    """One screening criterion: met (True/False) or unknown (None), and why."""

    key: str
    label: str
    met: bool | None
    reason: str


@dataclass(frozen=True, slots=True)
class Screening:
    """The outcome: criteria, Art. 35(3) cases, and whether a DPIA is required."""

    criteria: tuple[Criterion, ...]
    mandatory_cases: tuple[Criterion, ...]

    @property
    def met_count(self) -> int:
        """How many WP248 criteria are met."""
        return sum(1 for criterion in self.criteria if criterion.met)

    @property
    def unknown(self) -> tuple[Criterion, ...]:
        """Criteria the inputs did not settle."""
        return tuple(c for c in (*self.criteria, *self.mandatory_cases) if c.met is None)

    @property
    def required(self) -> bool:
        """Two or more WP248 criteria, or any Art. 35(3) case, make a DPIA required."""
        return self.met_count >= 2 or any(case.met for case in self.mandatory_cases)


def _criterion(key: str, label: str, value: bool | None, yes: str, no: str) -> Criterion:
    if value is None:
        return Criterion(key, label, None, _("Not stated in the inputs."))
    return Criterion(key, label, value, yes if value else no)


def _both(first: bool | None, second: bool | None) -> bool | None:
    if first is False or second is False:
        return False
    if first is None or second is None:
        return None
    return True


def screen(facts: DpiaFacts) -> Screening:
    """Screen a processing operation; unknown facts leave a criterion unknown, never met."""
    large = facts.is_large_scale
    if facts.large_scale is None and large is not None:
        # `large` is known only from a number of data subjects.
        scale_yes = _(
            "About {subjects} data subjects (indicative threshold {threshold}).",
            subjects=format_number(facts.approximate_subjects or 0),
            threshold=format_number(LARGE_SCALE_SUBJECTS),
        )
        scale_no = scale_yes
    else:
        scale_yes, scale_no = _("Stated as large scale."), _("Stated as not large scale.")
    sensitive_reason = (
        _("Special categories: ") + ", ".join(facts.special_categories) + "."
        if facts.special_categories
        else _("Highly personal data is processed.")
    )
    criteria = (
        _criterion(
            "evaluation-scoring",
            _("Evaluation or scoring, including profiling"),
            facts.profiling,
            _("The processing evaluates or scores people (profiling)."),
            _("No evaluation or scoring of people."),
        ),
        _criterion(
            "automated-decisions",
            _("Automated decisions with legal or similar effect"),
            facts.automated_decisions,
            _("Decisions with legal or similarly significant effects are automated."),
            _("No automated decision with legal or similar effect."),
        ),
        _criterion(
            "systematic-monitoring",
            _("Systematic monitoring"),
            facts.systematic_monitoring,
            _("Data subjects are systematically monitored."),
            _("No systematic monitoring."),
        ),
        _criterion(
            "sensitive-data",
            _("Sensitive or highly personal data"),
            facts.is_sensitive,
            sensitive_reason,
            _("No special-category or highly personal data."),
        ),
        _criterion("large-scale", _("Data processed on a large scale"), large, scale_yes, scale_no),
        _criterion(
            "matching-datasets",
            _("Matching or combining datasets"),
            facts.dataset_matching,
            _("Datasets from different sources are combined."),
            _("No matching or combining of datasets."),
        ),
        _criterion(
            "vulnerable-subjects",
            _("Data concerning vulnerable data subjects"),
            facts.vulnerable_subjects,
            _("Data subjects include vulnerable people."),
            _("No vulnerable data subjects."),
        ),
        _criterion(
            "innovative-technology",
            _("Innovative use or new technology"),
            facts.innovative_technology,
            _("New technology or an innovative use is involved."),
            _("Established technology only."),
        ),
        _criterion(
            "prevents-rights",
            _("Prevents exercising a right or using a service"),
            facts.prevents_right_or_service,
            _("The processing can bar people from a right, service or contract."),
            _("Does not condition access to a right, service or contract."),
        ),
    )
    special = bool(facts.special_categories) if facts.is_sensitive is not None else None
    mandatory_cases = (
        _criterion(
            "art-35-3-a",
            _("Art. 35(3)(a): systematic and extensive evaluation with legal or similar effects"),
            _both(facts.profiling, facts.automated_decisions),
            _("Profiling feeds automated decisions with legal or similar effects."),
            _("No profiling-based decisions with legal or similar effects."),
        ),
        _criterion(
            "art-35-3-b",
            _("Art. 35(3)(b): large-scale Art. 9 or Art. 10 data"),
            _both(large, special),
            _("Special-category data is processed on a large scale."),
            _("No large-scale processing of Art. 9/10 data."),
        ),
        _criterion(
            "art-35-3-c",
            _("Art. 35(3)(c): large-scale systematic monitoring of a publicly accessible area"),
            _both(facts.public_area_monitoring, large),
            _("A publicly accessible area is monitored on a large scale."),
            _("No large-scale monitoring of publicly accessible areas."),
        ),
    )
    return Screening(criteria=criteria, mandatory_cases=mandatory_cases)
