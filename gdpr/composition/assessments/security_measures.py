"""Classify security measures into the Art. 32 families a risk assessment uses.

The DPO lists measures in their own words and language ("Zwei-Faktor-Authentifizierung",
"double authentification"): the words of each family are the `security-measure` concepts
(gdpr/concepts/data/security-measure.json), recognised in every language. A measure may also
come as `{"name": ..., "family": ...}`: the family the DPO chose wins over the wording.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from gdpr.concepts import codes, recognise
from gdpr.i18n import N_

SCHEME = "security-measure"
# Measures acting on the risks to rights beyond security (blurring, human review...).
RIGHTS_SCHEME = "rights-measure"


@dataclass(frozen=True, slots=True)
class MeasureFamily:
    """A family of Art. 32 measures: its label and what to recommend when it is missing."""

    key: str
    label: str
    # Empty for the Annex III headings no document asks for when they are missing.
    recommendation: str = ""


FAMILIES: tuple[MeasureFamily, ...] = (
    MeasureFamily(
        "encryption",
        N_("Encryption"),
        N_("Encrypt the data at rest and in transit (Art. 32(1)(a))."),
    ),
    MeasureFamily(
        "pseudonymisation",
        N_("Pseudonymisation or minimisation"),
        N_("Pseudonymise or minimise the data where the purpose allows (Art. 32(1)(a), 25)."),
    ),
    MeasureFamily(
        "access-control",
        N_("Access control"),
        N_("Restrict access by role with multi-factor authentication (Art. 32(1)(b))."),
    ),
    MeasureFamily(
        "logging",
        N_("Logging and monitoring of access"),
        N_("Log and review access to the data to detect misuse (Art. 32(1)(d))."),
    ),
    MeasureFamily(
        "integrity",
        N_("Integrity controls"),
        N_("Protect integrity with versioning, checksums or change control (Art. 32(1)(b))."),
    ),
    MeasureFamily(
        "backup",
        N_("Backups and resilience"),
        N_("Keep tested, separate backups and a restore procedure (Art. 32(1)(c))."),
    ),
    MeasureFamily(
        "organisational",
        N_("Organisational measures"),
        N_("Train staff and bind them to confidentiality (Art. 32(4))."),
    ),
    # Annex III headings of Decision (EU) 2021/915 beyond the families a DPIA rates with.
    MeasureFamily(
        "testing",
        N_("Regular testing and evaluation"),
        N_(
            "Regularly test, assess and evaluate the effectiveness of the measures (Art. 32(1)(d))."
        ),
    ),
    MeasureFamily("physical", N_("Physical security of locations")),
    MeasureFamily("certification", N_("Certification and assurance")),
)
FAMILY_BY_KEY = {family.key: family for family in FAMILIES}


def measure_name(value: object) -> str:
    """The measure as worded: a plain string, or the `name` of `{"name", "family"}`."""
    if isinstance(value, Mapping):
        return str(value.get("name") or "")
    return str(value)  # a plain string, or an inputs.Measure (its str() is its name)


def _given_family(value: object) -> str | None:
    family = value.get("family") if isinstance(value, Mapping) else getattr(value, "family", None)
    return str(family) if family else None


def measure_families(values: Iterable[object], *, scheme: str = SCHEME) -> frozenset[str]:
    """The codes of `scheme` the measures belong to (a measure may name several).

    An explicit `family` (any code of security-measure or rights-measure) wins over the
    wording; it counts only in the scheme it belongs to.
    """
    found: set[str] = set()
    for value in values:
        family = _given_family(value)
        if family:
            found.update({family} & set(codes(scheme)))
        else:
            found.update(recognise(scheme, measure_name(value)))
    return frozenset(found)


def classify_measures(measures: Iterable[object]) -> frozenset[str]:
    """The keys of the Art. 32 families the measures belong to (a measure may match several)."""
    return measure_families(measures)
