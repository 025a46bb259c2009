"""Art. 9 and Art. 10 data: found in the inputs, and the condition each one needs.

Special categories may be named in `specialCategories` or only among `dataCategories`
("biometric templates"); either way the processing is not ordinary: it needs an Art. 9(2)
condition (given in `legalBasis`, e.g. "Art. 9(2)(a) explicit consent"), and criminal
conviction data needs an Art. 10 basis (`art10Basis`: official authority or the Union or
Member State law authorising it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from gdpr.composition.context import CompositionContext
from gdpr.composition.inputs import DataCategory, SpecialCategoryCondition, data_category
from gdpr.composition.markdown import bullets, escape_inline, join_blocks, to_be_completed
from gdpr.concepts import fold, recognise, scheme
from gdpr.i18n import N_, _, cite_reference, in_every_language, punct

SCHEME = "data-category"
ART_9 = "art-9"
ART_10 = "art-10"
ORDINARY = "ordinary"
# The names of the concepts, as the documents show them next to the DPO's wording.
CONCEPT_LABELS = {
    "racial-or-ethnic-origin": N_("racial or ethnic origin"),
    "political-opinions": N_("political opinions"),
    "religious-or-philosophical-beliefs": N_("religious or philosophical beliefs"),
    "trade-union-membership": N_("trade union membership"),
    "genetic": N_("genetic data"),
    "biometric": N_("biometric data"),
    "health": N_("data concerning health"),
    "sex-life": N_("data concerning sex life"),
    "sexual-orientation": N_("sexual orientation"),
    "criminal-convictions-and-offences": N_("criminal convictions and offences"),
    "credentials": N_("credentials"),
    "payment-card": N_("payment card data"),
    "financial": N_("financial data"),
    "identity-documents": N_("identity documents"),
    "national-identifier": N_("national identification numbers"),
    "location": N_("location data"),
    "identification": N_("identification data"),
    "contact": N_("contact data"),
    "transactions": N_("order and transaction history"),
    "online-identifiers": N_("online identifiers and usage data"),
    "employment": N_("employment data"),
    "images-and-recordings": N_("images, video and audio recordings"),
    "communications": N_("communications content"),
    "demographic": N_("demographic data"),
    "education-and-skills": N_("education and professional skills"),
    "preferences-and-behaviour": N_("preferences and behaviour"),
}


def concept_label(code: str) -> str:
    """The concept's name in the document's language (the scheme's label if none is marked)."""
    return _(CONCEPT_LABELS[code]) if code in CONCEPT_LABELS else scheme(SCHEME).concept(code).label


@dataclass(frozen=True, slots=True)
class ClassifiedCategory:
    """One listed category: the DPO's wording and the data-category concepts it names."""

    wording: str
    codes: tuple[str, ...]
    declared_special: bool = False  # listed under `specialCategories`

    def in_group(self, group: str) -> tuple[str, ...]:
        return tuple(code for code in self.codes if scheme(SCHEME).concept(code).group == group)

    @property
    def is_criminal(self) -> bool:
        return bool(self.in_group(ART_10))

    @property
    def is_special(self) -> bool:
        # Declared special by the DPO counts even when no concept names it ("Sonstiges").
        return bool(self.in_group(ART_9)) or (self.declared_special and not self.is_criminal)

    @property
    def is_unclassified(self) -> bool:
        return not self.codes and not self.declared_special

    def __str__(self) -> str:
        return self.wording


def classify(category: Any, *, declared_special: bool = False) -> ClassifiedCategory:
    """The concepts a data category names: its explicit `category`, else recognition."""
    entry = data_category(category)
    explicit = entry.code if entry.code in scheme(SCHEME).codes else None
    return ClassifiedCategory(
        wording=entry.name,
        codes=(explicit,) if explicit else recognise(SCHEME, entry.name),
        declared_special=declared_special,
    )


def classify_all(categories: Iterable[Any]) -> tuple[ClassifiedCategory, ...]:
    """Each category classified (the `breach` flag and other yes/no values skipped)."""
    return tuple(classify(c) for c in categories if not isinstance(c, bool))


def is_absence(value: Any) -> bool:
    """Is the answer "none" (`false`, an empty list, "keine", "aucune", "n/a"...)?"""
    if isinstance(value, bool):
        return value is False
    if isinstance(value, list | tuple):
        return all(is_absence(part) for part in value)
    if isinstance(value, DataCategory | str | dict):
        entry = data_category(value)
        if entry.code:
            return False
        return bool(recognise("absence", entry.name)) and not recognise(SCHEME, entry.name)
    return False


def absence_stated(context: CompositionContext) -> bool:
    """Did the DPO say that no special category is processed?

    Only an explicit answer counts: `specialCategories` as an empty list, `false` (the breach
    flag) or a "none" answer in any language ("keine", "aucune", "n/a"). An absent key says
    nothing, and neither does the register's default empty column (its readers leave it out).
    """
    for layer in (context.answers, context.inputs):
        if "specialCategories" not in layer:
            continue
        value = layer["specialCategories"]
        if value is None or (isinstance(value, str) and not value.strip()):
            continue
        return is_absence(value)
    return False


@dataclass(frozen=True, slots=True)
class SensitiveData:
    """The Art. 9(1) and Art. 10 data of the processing and the conditions given.

    `special` and `criminal` keep the wording shown in the document; `categories` says which
    concept each wording is (`special_codes` the Art. 9(1) categories among them);
    `unclassified` are wordings no concept names, open questions unless `absence_stated`.
    """

    special: tuple[str, ...]
    criminal: tuple[str, ...]
    conditions: tuple[SpecialCategoryCondition, ...]
    art10_basis: str | None
    categories: tuple[ClassifiedCategory, ...] = ()
    absence_stated: bool = False

    @property
    def special_codes(self) -> tuple[str, ...]:
        found = {code for entry in self.categories for code in entry.in_group(ART_9)}
        return tuple(code for code in scheme(SCHEME).codes if code in found)

    @property
    def unclassified(self) -> tuple[str, ...]:
        """Wordings to classify: no concept names them and the DPO stated no absence."""
        if self.absence_stated:
            return ()
        return tuple(
            dict.fromkeys(entry.wording for entry in self.categories if entry.is_unclassified)
        )

    @property
    def ordinary(self) -> tuple[ClassifiedCategory, ...]:
        """Listed categories classified as neither Art. 9 nor Art. 10 data."""
        return tuple(
            entry
            for entry in self.categories
            if entry.codes and not entry.is_special and not entry.is_criminal
        )

    @property
    def special_without_condition(self) -> bool:
        return bool(self.special) and not self.conditions

    @property
    def criminal_without_basis(self) -> bool:
        return bool(self.criminal) and not self.art10_basis


def _entries(context: CompositionContext, key: str) -> list[Any]:
    # `specialCategories` is a list for DPIAs but a yes/no flag for breach notifications.
    return [v for v in context.items(key) if not isinstance(v, bool)]


def sensitive_data(context: CompositionContext) -> SensitiveData:
    """Art. 9/10 data named in `specialCategories` or recognised among `dataCategories`.

    The same in every language: each wording is classified by the `data-category` concepts
    (or the `category` the integrator gave), never by English keywords.
    """
    stated = absence_stated(context)
    declared = [
        classify(c, declared_special=True)
        for c in _entries(context, "specialCategories")
        if not is_absence(c)
    ]
    listed = [classify(c) for c in _entries(context, "dataCategories")]
    categories = [*declared, *listed]
    special = [entry.wording for entry in categories if entry.is_special]
    criminal = [entry.wording for entry in categories if entry.is_criminal]
    return SensitiveData(
        special=tuple(dict.fromkeys(special)),
        criminal=tuple(dict.fromkeys(criminal)),
        conditions=tuple(context.items("specialCategoryConditions")),
        art10_basis=context.inline("art10Basis"),
        categories=tuple(categories),
        absence_stated=stated,
    )


def _with_concepts(entries: Iterable[ClassifiedCategory], group: str) -> list[str]:
    """Each wording once, followed by the concepts of `group` it was classified as."""
    shown: dict[str, str] = {}
    separator = f"{punct(';')} "
    for entry in entries:
        codes = entry.in_group(group)
        names = [concept_label(code) for code in codes]
        # "Biometric data (biometric data)" says nothing more: the concept is named once.
        if any(fold(name) in fold(entry.wording) for name in names):
            names = []
        if entry.wording not in shown:
            shown[entry.wording] = (
                f"{entry.wording} ({separator.join(names)})" if names else entry.wording
            )
    return list(shown.values())


CLASSIFICATION_QUESTION = N_('confirm whether "{category}" is special-category data (Art. 9(1))')


def classification_question(wording: str) -> str:
    """The open question for a category no concept names (its status: needs classification)."""
    return to_be_completed(_(CLASSIFICATION_QUESTION, category=escape_inline(wording)))


@cache
def classification_question_pattern() -> re.Pattern[str]:
    """The question's text after the marker, as any supported language writes it."""
    placeholder = re.escape("{category}")
    return re.compile(
        "|".join(
            re.escape(text).replace(placeholder, ".+?")
            for text in sorted(in_every_language(CLASSIFICATION_QUESTION))
        ),
        re.IGNORECASE,
    )


def write_sensitive_data(context: CompositionContext) -> str:
    """The checklist text: the data, its Art. 9(2) condition / Art. 10 basis, or the gap."""
    found = sensitive_data(context)
    questions = "\n".join(f"- {classification_question(w)}" for w in found.unclassified)
    if not found.special and not found.criminal:
        return _without_sensitive_data(found, questions)
    blocks: list[str | None] = []
    if found.special:
        special = [entry for entry in found.categories if entry.is_special]
        blocks.append(
            _("Special categories of data processed (Art. 9(1)):\n\n")
            + bullets(_with_concepts(special, ART_9))
        )
        if found.conditions:
            blocks.append(
                _("Condition(s) lifting the prohibition (Art. 9(2)):\n\n")
                + bullets(found.conditions)
            )
        else:
            blocks.append(
                _(
                    "Processing these data is prohibited (Art. 9(1)) unless a condition of"
                    " Art. 9(2) applies; an Art. 6(1) basis alone is not enough. "
                )
                + to_be_completed(
                    _(
                        "the Art. 9(2) condition (a)-(j) relied on, e.g."
                        " 'Art. 9(2)(a) explicit consent'"
                    )
                )
            )
    if found.criminal:
        blocks.append(
            _("Data relating to criminal convictions and offences (Art. 10):\n\n")
            + bullets(found.criminal)
        )
        blocks.append(
            _("Art. 10 basis: {art10_basis}.", art10_basis=found.art10_basis)
            if found.art10_basis
            else _(
                "Such data may only be processed under official authority or when Union or"
                " Member State law authorises it with appropriate safeguards (Art. 10). "
            )
            + to_be_completed(_("the Art. 10 basis (the authority or the law relied on)"))
        )
    blocks.append(questions or None)
    return join_blocks(*blocks)


def _without_sensitive_data(found: SensitiveData, questions: str) -> str:
    """No Art. 9/10 data recognised: an absence only as the DPO stated it, else what is known."""
    if found.absence_stated:
        return _(
            "No special category of data (Art. 9(1)) and no data relating to criminal"
            " convictions and offences (Art. 10) is processed, as far as the inputs state."
        )
    blocks: list[str | None] = []
    if found.ordinary:
        blocks.append(
            _(
                "The following categories of data are not special categories of data"
                " (Art. 9(1)) or data relating to criminal convictions and offences (Art. 10),"
                " as classified:\n\n"
            )
            + bullets(_with_concepts(found.ordinary, ORDINARY))
        )
    blocks.append(questions or None)
    if not found.categories:
        blocks.append(
            to_be_completed(
                _(
                    "whether special categories of data (Art. 9(1)) or data relating to"
                    " criminal convictions and offences (Art. 10) are processed"
                )
            )
        )
    return join_blocks(*blocks)


def special_category_labels(context: CompositionContext) -> tuple[str, ...]:
    """What the screening should treat as Art. 9 data (declared, recognised or by condition)."""
    found = sensitive_data(context)
    labels = [*found.special, *found.criminal]
    if not labels:
        labels = [
            # The letter is known only here: the whole reference is cited in the document's
            # language (a placeholder inside a reference cannot be localised by the catalog).
            _(
                "data processed under {reference}",
                reference=cite_reference(f"Art. 9(2)({condition.letter})"),
            )
            for condition in found.conditions
        ]
    return tuple(labels)


def agreement_sensitive_data(context: CompositionContext) -> str:
    """The sensitive data of a processing agreement (Annex I.B / Annex II), or what is needed.

    `sensitiveData` as given, "none" only when the DPO said so (there or by an explicit
    `specialCategories` answer), else the Art. 9/10 data the categories name, with the
    restrictions still to be stated.
    """
    given = context.value("sensitiveData")
    if given is not None and not is_absence(given):
        return context.inline("sensitiveData") or ""
    if given is not None or absence_stated(context):
        return _("none processed under this agreement.")
    found = sensitive_data(context)
    named = [*found.special, *found.criminal]
    if named:
        return (
            ", ".join(escape_inline(wording) for wording in dict.fromkeys(named))
            + ". "
            + to_be_completed(_("the restrictions or safeguards applied to these data"))
        )
    return to_be_completed(
        _("whether sensitive data (Art. 9, 10) is processed under this agreement")
    )
