"""Classify free-text security measures into the Art. 32 families a risk assessment uses."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gdpr.i18n import N_


@dataclass(frozen=True, slots=True)
class MeasureFamily:
    """A family of Art. 32 measures, recognised by keywords in the DPO's own wording."""

    key: str
    label: str
    keywords: tuple[str, ...]
    recommendation: str


FAMILIES: tuple[MeasureFamily, ...] = (
    MeasureFamily(
        "encryption",
        N_("Encryption"),
        ("encrypt", "tls", "aes", "https", "cipher"),
        N_("Encrypt the data at rest and in transit (Art. 32(1)(a))."),
    ),
    MeasureFamily(
        "pseudonymisation",
        N_("Pseudonymisation or minimisation"),
        ("pseudonym", "anonym", "tokeni", "minimi", "masking"),
        N_("Pseudonymise or minimise the data where the purpose allows (Art. 32(1)(a), 25)."),
    ),
    MeasureFamily(
        "access-control",
        N_("Access control"),
        (
            "access control",
            "mfa",
            "2fa",
            "multi-factor",
            "role-based",
            "rbac",
            "least privilege",
            "authentication",
            "need-to-know",
            "permission",
        ),
        N_("Restrict access by role with multi-factor authentication (Art. 32(1)(b))."),
    ),
    MeasureFamily(
        "logging",
        N_("Logging and monitoring of access"),
        ("log", "audit trail", "siem", "intrusion", "alert"),
        N_("Log and review access to the data to detect misuse (Art. 32(1)(d))."),
    ),
    MeasureFamily(
        "integrity",
        N_("Integrity controls"),
        ("checksum", "hash", "integrity", "versioning", "signature", "change control"),
        N_("Protect integrity with versioning, checksums or change control (Art. 32(1)(b))."),
    ),
    MeasureFamily(
        "backup",
        N_("Backups and resilience"),
        ("backup", "back-up", "replica", "disaster recovery", "redundan", "restore"),
        N_("Keep tested, separate backups and a restore procedure (Art. 32(1)(c))."),
    ),
    MeasureFamily(
        "organisational",
        N_("Organisational measures"),
        ("training", "awareness", "policy", "confidentiality agreement", "nda", "procedure"),
        N_("Train staff and bind them to confidentiality (Art. 32(4))."),
    ),
)
FAMILY_BY_KEY = {family.key: family for family in FAMILIES}


def classify_measures(measures: Iterable[str]) -> frozenset[str]:
    """The keys of the families the measures belong to (a measure may match several)."""
    found = set()
    for measure in measures:
        lowered = str(measure).lower()
        for family in FAMILIES:
            if any(keyword in lowered for keyword in family.keywords):
                found.add(family.key)
    return frozenset(found)
