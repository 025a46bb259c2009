"""Classify free-text security measures into the Art. 32 families a risk assessment uses."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


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
        "Encryption",
        ("encrypt", "tls", "aes", "https", "cipher"),
        "Encrypt the data at rest and in transit (Art. 32(1)(a)).",
    ),
    MeasureFamily(
        "pseudonymisation",
        "Pseudonymisation or minimisation",
        ("pseudonym", "anonym", "tokeni", "minimi", "masking"),
        "Pseudonymise or minimise the data where the purpose allows (Art. 32(1)(a), 25).",
    ),
    MeasureFamily(
        "access-control",
        "Access control",
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
        "Restrict access by role with multi-factor authentication (Art. 32(1)(b)).",
    ),
    MeasureFamily(
        "logging",
        "Logging and monitoring of access",
        ("log", "audit trail", "siem", "intrusion", "alert"),
        "Log and review access to the data to detect misuse (Art. 32(1)(d)).",
    ),
    MeasureFamily(
        "integrity",
        "Integrity controls",
        ("checksum", "hash", "integrity", "versioning", "signature", "change control"),
        "Protect integrity with versioning, checksums or change control (Art. 32(1)(b)).",
    ),
    MeasureFamily(
        "backup",
        "Backups and resilience",
        ("backup", "back-up", "replica", "disaster recovery", "redundan", "restore"),
        "Keep tested, separate backups and a restore procedure (Art. 32(1)(c)).",
    ),
    MeasureFamily(
        "organisational",
        "Organisational measures",
        ("training", "awareness", "policy", "confidentiality agreement", "nda", "procedure"),
        "Train staff and bind them to confidentiality (Art. 32(4)).",
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
