"""How serious is a breach, and must the data subjects be told (Art. 33(1), 34)?

Follows EDPB Guidelines 9/2022: a breach "unlikely to result in a risk" needs no
notification (but still documentation, Art. 33(5)); a high risk requires communication to
the data subjects unless an Art. 34(3) exception applies.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gdpr.i18n import N_, _, format_number

# Kinds of data whose exposure typically causes identity theft, fraud or discrimination.
SENSITIVE_KEYWORDS: dict[str, str] = {
    "password": "credentials",
    "credential": "credentials",
    "bank": N_("financial data"),
    "iban": N_("financial data"),
    "card": N_("payment card data"),
    "payment": N_("financial data"),
    "passport": N_("identity documents"),
    "identity": N_("identity documents"),
    "social security": N_("national identification numbers"),
    "national id": N_("national identification numbers"),
    "health": N_("health data"),
    "medical": N_("health data"),
    "location": N_("location data"),
    "criminal": N_("criminal-offence data"),
}
MANY_SUBJECTS = 10_000


@dataclass(frozen=True, slots=True)
class BreachFacts:
    """What is known about the breach."""

    data_categories: tuple[str, ...] = ()
    special_categories: bool = False
    vulnerable_subjects: bool = False
    approximate_subjects: int | None = None
    breach_types: tuple[str, ...] = ()  # confidentiality, integrity, availability
    encrypted: bool | None = None
    key_compromised: bool = False
    subsequent_measures_remove_risk: bool = False
    disproportionate_effort: bool = False
    high_risk: bool | None = None  # the controller's own finding overrides the rules


@dataclass(frozen=True, slots=True)
class BreachDecision:
    """Risk level and what it entails."""

    risk_level: str  # "unlikely", "risk" or "high"
    reasons: tuple[str, ...]
    art_34_exception: str | None
    public_communication: bool

    @property
    def notify_authority(self) -> bool:
        """Art. 33(1): notify unless the breach is unlikely to result in a risk."""
        return self.risk_level != "unlikely"

    @property
    def communicate_to_subjects(self) -> bool:
        """Art. 34(1): high risk and no Art. 34(3)(a)/(b) exception."""
        return self.risk_level == "high" and self.art_34_exception is None


def sensitive_kinds(categories: Iterable[str]) -> tuple[str, ...]:
    """The sensitive kinds of data named in the categories, sorted, without duplicates."""
    found: set[str] = set()
    for category in categories:
        lowered = category.lower()
        found.update(_(kind) for word, kind in SENSITIVE_KEYWORDS.items() if word in lowered)
    return tuple(sorted(found))


def decide(facts: BreachFacts) -> BreachDecision:
    """Rate the breach and decide on notification and on communication to data subjects."""
    confidentiality = "confidentiality" in facts.breach_types or not facts.breach_types
    unintelligible = bool(facts.encrypted) and not facts.key_compromised
    reasons: list[str] = []
    kinds = sensitive_kinds(facts.data_categories)
    points = 0
    if facts.special_categories:
        points += 2
        reasons.append(_("special categories of data are affected"))
    if kinds and confidentiality:
        points += 2
        reasons.append(_("exposed data can cause fraud or harm: ") + ", ".join(kinds))
    if facts.vulnerable_subjects:
        points += 1
        reasons.append(_("vulnerable data subjects are affected"))
    if facts.approximate_subjects is not None and facts.approximate_subjects >= MANY_SUBJECTS:
        points += 1
        reasons.append(
            _(
                "about {approximate_subjects} data subjects are affected",
                approximate_subjects=format_number(facts.approximate_subjects),
            )
        )

    if facts.high_risk is not None:
        level = "high" if facts.high_risk else "risk"
        reasons.insert(0, _("the controller's own assessment"))
    elif unintelligible and facts.breach_types == ("confidentiality",):
        level = "unlikely"
        reasons = [_("only confidentiality is affected and the data is encrypted, key safe")]
    else:
        level = "high" if points >= 2 else "risk"
        if not reasons:
            reasons.append(_("personal data is affected; no aggravating factor identified"))

    exception = None
    public = False
    if level == "high":
        if unintelligible:
            exception = _("Art. 34(3)(a): the data is unintelligible to anyone not authorised")
        elif facts.subsequent_measures_remove_risk:
            exception = _("Art. 34(3)(b): subsequent measures make the high risk no longer likely")
        elif facts.disproportionate_effort:
            # 34(3)(c) replaces individual messages by a public communication, it does not
            # remove the duty to inform.
            public = True
    return BreachDecision(
        risk_level=level,
        reasons=tuple(reasons),
        art_34_exception=exception,
        public_communication=public,
    )
