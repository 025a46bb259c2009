"""How serious is a breach, and must the data subjects be told (Art. 33(1), 34)?

Follows EDPB Guidelines 9/2022: a breach "unlikely to result in a risk" needs no
notification (but still documentation, Art. 33(5)); a high risk requires communication to
the data subjects unless an Art. 34(3) exception applies.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gdpr.composition.special_categories import ART_9, ART_10, classify
from gdpr.concepts import scheme
from gdpr.i18n import N_, _, format_number

# The harm a kind of data typically causes when exposed (identity theft, fraud,
# discrimination): a data-category concept's `breachHarm`, and every Art. 9 / Art. 10 concept.
HARM_LABELS: dict[str, str] = {
    "credentials": N_("credentials"),
    "payment-card": N_("payment card data"),
    "financial": N_("financial data"),
    "identity-documents": N_("identity documents"),
    "national-identifier": N_("national identification numbers"),
    "location": N_("location data"),
    "health": N_("health data"),
    "special-category": N_("special-category data"),
    "criminal-offence": N_("criminal-offence data"),
}
MANY_SUBJECTS = 10_000


@dataclass(frozen=True, slots=True)
class BreachFacts:
    """What is known about the breach."""

    # Plain wordings or `DataCategory` entries (an explicit `category` wins over recognition).
    data_categories: tuple[object, ...] = ()
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


def _harm(code: str) -> str | None:
    concept = scheme("data-category").concept(code)
    if concept.group == ART_9:
        return "health" if code == "health" else "special-category"
    if concept.group == ART_10:
        return "criminal-offence"
    harm = concept.attributes.get("breachHarm")
    return str(harm) if harm in HARM_LABELS else None


def harm_codes(categories: Iterable[object]) -> tuple[str, ...]:
    """The harms (`HARM_LABELS` keys) the categories' data can cause, in that order.

    Classified by the `data-category` concepts, so "Gesundheitsdaten" is health data exactly
    as "Health data" is.
    """
    found = {_harm(code) for category in categories for code in classify(category).codes}
    return tuple(code for code in HARM_LABELS if code in found)


def sensitive_kinds(categories: Iterable[object]) -> tuple[str, ...]:
    """The sensitive kinds of data named in the categories, named, sorted, without duplicates."""
    return tuple(sorted({_(HARM_LABELS[code]) for code in harm_codes(categories)}))


def decide(facts: BreachFacts) -> BreachDecision:
    """Rate the breach and decide on notification and on communication to data subjects."""
    confidentiality = "confidentiality" in facts.breach_types or not facts.breach_types
    unintelligible = bool(facts.encrypted) and not facts.key_compromised
    reasons: list[str] = []
    harms = harm_codes(facts.data_categories)
    if facts.special_categories:
        # Said once, by the reason below; "health data" stays as the concrete harm.
        harms = tuple(code for code in harms if code != "special-category")
    kinds = sorted({_(HARM_LABELS[code]) for code in harms})
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
