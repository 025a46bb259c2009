"""The concepts the rules recognised in the DPO's wording, and the wording none names.

Each entry pairs the DPO's wording with the code the engine reasons with: the same facts in
any language must give the same codes. Every code comes from the recogniser the writers use
(`gdpr.concepts`, `recognise_legal_basis`, `recognise_safeguard`, `classify_measures`,
`sensitive_data`, the country finder); nothing here decides what a wording means.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, TypedDict

from gdpr.assessment.transfers import find_country
from gdpr.composition.assessments.dpia_rights_risks import _present as rights_measures
from gdpr.composition.assessments.security_measures import classify_measures
from gdpr.composition.context import CompositionContext
from gdpr.composition.inputs import RECIPIENT_ROLES, DataCategory, Measure, Recipient, Transfer
from gdpr.composition.recognition import recognise_legal_basis, recognise_safeguard
from gdpr.composition.special_categories import sensitive_data
from gdpr.composition.writers.dpia_governance import actions
from gdpr.concepts import codes as scheme_codes
from gdpr.concepts import recognise

# The schemes named in `concepts[].scheme` (gdpr.concepts schemes keep their file's name).
DATA_CATEGORY = "data-category"
DATA_CATEGORY_GROUP = "data-category-group"  # art-9 (Art. 9(1)) or art-10 (Art. 10)
SECURITY_MEASURE = "security-measure"  # the Art. 32 families of security_measures.FAMILIES
RIGHTS_MEASURE = "rights-measure"  # dpia_rights_risks.RIGHTS_MEASURE_LABELS
LEGAL_BASIS = "legal-basis"  # Art. 6(1) codes of recognition.LEGAL_BASES
ART_9_CONDITION = "art-9-condition"  # the letter of Art. 9(2): a-j
TRANSFER_MECHANISM = "transfer-mechanism"  # recognition.TRANSFER_SAFEGUARDS
RECIPIENT_ROLE = "recipient-role"  # inputs.RECIPIENT_ROLES
COUNTRY = "country"  # ISO 3166-1 alpha-2

# Where data categories, measures and legal bases are written, by input key.
_CATEGORY_FIELDS = ("dataCategories", "specialCategories")
_MEASURE_FIELDS = ("securityMeasures", "plannedMeasures")
_COUNTRY_FIELDS = ("country", "processorCountry")
# Lists of objects whose entries carry their own categories or basis: (list key, entry key).
_NESTED_CATEGORY_FIELDS = (("processingPurposes", "dataCategories"),)
_NESTED_BASIS_FIELDS = (("processingPurposes", "legalBasis"), ("purposeLegalBases", "legalBasis"))


class ConceptEntry(TypedDict):
    """A wording and the code it was recognised as."""

    field: str
    wording: str
    scheme: str
    code: str


class UnclassifiedEntry(TypedDict):
    """A wording that no concept of `scheme` names."""

    field: str
    wording: str
    scheme: str


def texts(value: Any) -> list[str]:
    """A list input as strings; a single value as one; booleans and blanks dropped."""
    values = value if isinstance(value, list | tuple) else [value]
    return [
        " ".join(str(part).split())
        for part in values
        if part is not None and not isinstance(part, bool | Mapping) and str(part).strip()
    ]


def _nested(context: CompositionContext, key: str, entry_key: str) -> list[str]:
    return [
        wording
        for entry in context.items(key)
        if isinstance(entry, Mapping)
        for wording in texts(entry.get(entry_key))
    ]


class Collector:
    """Concepts and unclassified wordings, gathered in any order, given back sorted."""

    def __init__(self) -> None:
        self._concepts: set[tuple[str, str, str, str]] = set()
        self._unclassified: set[tuple[str, str, str]] = set()

    def add(self, *, field: str, wording: str, scheme: str, codes: Iterable[str]) -> None:
        """One entry per code; the wording is unclassified when there is none."""
        if not self.found(field=field, wording=wording, scheme=scheme, codes=codes):
            self.missed(field=field, wording=wording, scheme=scheme)

    def found(self, *, field: str, wording: str, scheme: str, codes: Iterable[str]) -> bool:
        """One entry per code (none for no code); True when there was a code."""
        named = list(codes)
        self._concepts.update((field, scheme, code, wording) for code in named)
        return bool(named)

    def missed(self, *, field: str, wording: str, scheme: str) -> None:
        """`wording` names no concept of `scheme`."""
        self._unclassified.add((field, scheme, wording))

    def concepts(self) -> list[ConceptEntry]:
        return [
            ConceptEntry(field=field, wording=wording, scheme=scheme, code=code)
            for field, scheme, code, wording in sorted(self._concepts)
        ]

    def unclassified(self) -> list[UnclassifiedEntry]:
        return [
            UnclassifiedEntry(field=field, wording=wording, scheme=scheme)
            for field, scheme, wording in sorted(self._unclassified)
        ]


def _category_wordings(context: CompositionContext) -> Iterator[tuple[str, str]]:
    for key in _CATEGORY_FIELDS:
        # `specialCategories` is a yes/no flag in a breach notification: no wording then.
        for wording in texts(context.items(key)):
            yield key, wording
    for key, entry_key in _NESTED_CATEGORY_FIELDS:
        for wording in _nested(context, key, entry_key):
            yield f"{key}.{entry_key}", wording


def _stated(context: CompositionContext, fields: Iterable[str]) -> dict[tuple[str, str], str]:
    """(field, wording) -> the concept the DPO named (`{name, category}` / `{name, family}`)."""
    stated = {}
    for key in fields:
        for item in context.items(key):
            code = item.code if isinstance(item, DataCategory) else None
            code = item.family if isinstance(item, Measure) else code
            if code:
                stated[(key, " ".join(item.name.split()))] = code
    return stated


def collect_data_categories(context: CompositionContext, into: Collector) -> None:
    """Each category's concept, and the Art. 9(1) / Art. 10 group `sensitive_data` finds."""
    stated = _stated(context, _CATEGORY_FIELDS)
    for field, wording in _category_wordings(context):
        code = stated.get((field, wording))
        into.add(
            field=field,
            wording=wording,
            scheme=DATA_CATEGORY,
            codes=[code] if code else recognise(DATA_CATEGORY, wording),
        )
    found = sensitive_data(context)
    declared = set(texts(context.items("specialCategories")))
    for group, wordings in (("art-9", found.special), ("art-10", found.criminal)):
        for wording in wordings:
            field = "specialCategories" if wording in declared else "dataCategories"
            into.add(field=field, wording=wording, scheme=DATA_CATEGORY_GROUP, codes=[group])


def measure_wordings(context: CompositionContext) -> Iterator[tuple[str, str]]:
    """(field, wording) of every measure the DPIA's rating reads (its `assess`)."""
    for key in _MEASURE_FIELDS:
        for wording in texts(context.items(key)):
            yield key, wording
    for action in actions(context):
        for wording in texts(action.get("measure")):
            yield "actionPlan.measure", wording


def collect_measures(context: CompositionContext, into: Collector) -> None:
    """Each measure's Art. 32 families and the risks-to-rights measures it is (a DPIA's
    rating lowers those risks by them); unclassified when it is neither."""
    stated = _stated(context, _MEASURE_FIELDS)
    for field, wording in measure_wordings(context):
        family = stated.get((field, wording))
        in_security = family in scheme_codes(SECURITY_MEASURE)
        security = into.found(
            field=field,
            wording=wording,
            scheme=SECURITY_MEASURE,
            codes=([family] if in_security else []) if family else classify_measures([wording]),
        )
        rights = into.found(
            field=field,
            wording=wording,
            scheme=RIGHTS_MEASURE,
            codes=([] if in_security else [family]) if family else rights_measures([wording]),
        )
        if not security and not rights:
            into.missed(field=field, wording=wording, scheme=SECURITY_MEASURE)


def _add_basis(into: Collector, field: str, wording: str) -> None:
    found = recognise_legal_basis(wording)
    if found is None:
        into.add(field=field, wording=wording, scheme=LEGAL_BASIS, codes=())
        return
    # A wording naming only an Art. 9(2) condition is classified: it is not unclassified as
    # an Art. 6(1) basis (nor the reverse).
    if found.codes:
        into.add(field=field, wording=wording, scheme=LEGAL_BASIS, codes=found.codes)
    if found.conditions:
        into.add(field=field, wording=wording, scheme=ART_9_CONDITION, codes=found.conditions)


def collect_legal_bases(
    context: CompositionContext, raw_inputs: Mapping[str, Any], into: Collector
) -> None:
    """Art. 6(1) codes and Art. 9(2) letters of `legalBasis` and of each purpose's basis.

    `legalBasis` is read from the raw inputs: normalising drops a wording naming nothing,
    which must show as unclassified rather than vanish.
    """
    for wording in texts(raw_inputs.get("legalBasis")):
        _add_basis(into, "legalBasis", wording)
    for key, entry_key in _NESTED_BASIS_FIELDS:
        for wording in _nested(context, key, entry_key):
            _add_basis(into, f"{key}.{entry_key}", wording)


def collect_transfer_terms(context: CompositionContext, into: Collector) -> None:
    """The mechanism of each transfer and the role of each recipient, as worded."""
    transfers: list[Transfer] = context.items("thirdCountryTransfers")
    for transfer in transfers:
        wording = transfer.safeguard.wording
        if wording:
            field = "recipients" if transfer.from_recipient else "thirdCountryTransfers"
            code = recognise_safeguard(wording)
            into.add(
                field=f"{field}.safeguard",
                wording=wording,
                scheme=TRANSFER_MECHANISM,
                codes=[code] if code else [],
            )
        if transfer.role and not transfer.from_recipient:
            _add_role(into, "thirdCountryTransfers.role", transfer.role)
    recipients: list[Recipient] = context.items("recipients")
    for recipient in recipients:
        if recipient.role:
            _add_role(into, "recipients.role", recipient.role)
    for key in _COUNTRY_FIELDS:
        for wording in texts(context.value(key)):
            code = find_country(wording)
            into.add(field=key, wording=wording, scheme=COUNTRY, codes=[code] if code else [])


def _add_role(into: Collector, field: str, role: str) -> None:
    into.add(
        field=field,
        wording=role,
        scheme=RECIPIENT_ROLE,
        codes=[role] if role in RECIPIENT_ROLES else [],
    )
