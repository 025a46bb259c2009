"""One internal shape for every create input, whether given as plain text or as an object.

The create body (and a client company's details) accept what integrators hold: a plain
string as before, or a structured object (`companyDetails {address, dpo, ...}`, recipients
`{name, role, country, safeguard}`, `breach {...}` ...). The stored inputs keep exactly what
was sent; `normalize_inputs` turns them, at composition time, into the shapes below so that
writers never test `isinstance`. Every value shown to a reader goes through `__str__`, which
keeps the integrator's own wording beside any recognised code.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from gdpr.composition.recognition import (
    ART_9_CONDITIONS,
    is_in_eea,
    recognise_legal_basis,
    recognise_role,
    recognise_safeguard,
)
from gdpr.i18n import N_, _, cite_reference, punct

LEGAL_BASIS_LABELS = {
    "consent": N_("consent of the data subject (Art. 6(1)(a))"),
    "contract": N_("performance of a contract or pre-contractual steps (Art. 6(1)(b))"),
    "legal-obligation": N_("compliance with a legal obligation (Art. 6(1)(c))"),
    "vital-interests": N_("protection of vital interests (Art. 6(1)(d))"),
    "public-task": N_("a task in the public interest or official authority (Art. 6(1)(e))"),
    "legitimate-interests": N_("legitimate interests (Art. 6(1)(f))"),
}
SAFEGUARD_LABELS = {
    "adequacy-decision": N_("adequacy decision (Art. 45)"),
    "standard-contractual-clauses": N_("standard contractual clauses (Art. 46(2)(c))"),
    "binding-corporate-rules": N_("binding corporate rules (Art. 47)"),
    "code-or-certification": N_("approved code of conduct or certification (Art. 46(2)(e)-(f))"),
    "art-49-derogation": N_("derogation for a specific situation (Art. 49(1))"),
    "art-49-compelling-legitimate-interests": (
        N_("compelling legitimate interests, Art. 49(1) second subparagraph")
    ),
    "none": N_("no safeguard identified"),
}
RECIPIENT_ROLES = ("processor", "controller", "joint-controller", "internal", "public-authority")
ROLE_LABELS = {
    "processor": N_("processor"),
    "controller": N_("controller"),
    "joint-controller": N_("joint controller"),
    "internal": N_("internal"),
    "public-authority": N_("public authority"),
}
# companyDetails keys with a label of their own; any other key is shown as "key: value".
COMPANY_DETAIL_LABELS = {
    "address": N_("Address"),
    "email": N_("E-mail"),
    "phone": N_("Telephone"),
    "website": N_("Website"),
    "registrationNumber": N_("Registration number"),
    "vatId": N_("VAT ID"),
    "representative": N_("Representative (Art. 27)"),
    "dpo": N_("Data protection officer"),
    "employees": N_("Employees"),
}
# The `breach` object's keys and the flat create-body fields they stand for.
BREACH_FIELDS = {
    "discoveredAt": "discoveredAt",
    "occurredAt": "occurredAt",
    "nature": "breachNature",
    "dataSubjectsAffected": "approximateSubjects",
    "recordsAffected": "approximateRecords",
    "categories": "dataCategories",
    "likelyConsequences": "likelyConsequences",
    "measuresTaken": "measuresTaken",
}


def _text(value: Any) -> str:
    if isinstance(value, Mapping):
        return f"{punct(';')} ".join(
            f"{key}{punct(':')} {_text(part)}" for key, part in value.items()
        )
    if isinstance(value, list | tuple):
        return ", ".join(_text(part) for part in value)
    if isinstance(value, bool):
        return _("Yes") if value else _("No")
    return " ".join(str(value).split())


def _given(value: Any) -> bool:
    return value is not None and value != "" and value != [] and value != {}


def _joined(*parts: str | None, separator: str = ", ") -> str:
    return separator.join(part for part in parts if part)


@dataclass(frozen=True, slots=True)
class Contact:
    """A person and how to reach them (the DPO of `companyDetails.dpo`)."""

    name: str | None = None
    email: str | None = None
    phone: str | None = None
    text: str | None = None

    def __str__(self) -> str:
        return self.text or _joined(self.name, self.email, self.phone)


@dataclass(frozen=True, slots=True)
class CompanyDetails:
    """`companyDetails` / a client company's `details`: a text, or labelled facts.

    `facts` keeps the object's key order; known keys get a label, others show as "key: value".
    """

    text: str | None = None
    facts: tuple[tuple[str, Any], ...] = ()

    def get(self, key: str) -> Any:
        return next((value for name, value in self.facts if name == key), None)

    @property
    def dpo(self) -> Contact | None:
        found = self.get("dpo")
        return found if isinstance(found, Contact) else None

    def lines(self) -> list[str]:
        """One "Label: value" line per fact (the plain text as it is)."""
        if self.text is not None:
            return [self.text]
        return [
            f"{_(COMPANY_DETAIL_LABELS[key]) if key in COMPANY_DETAIL_LABELS else key}"
            f"{punct(':')} {_text(value)}"
            for key, value in self.facts
        ]

    def __str__(self) -> str:
        return f"{punct(';')} ".join(self.lines())


@dataclass(frozen=True, slots=True)
class ProcessingActivity:
    """`processingActivity`: a name, or `{name, description, purposes}`."""

    name: str
    description: str | None = None
    purposes: tuple[str, ...] = ()

    def __str__(self) -> str:
        return _joined(self.name, self.description, separator=": ")


@dataclass(frozen=True, slots=True)
class LegalBasis:
    """One `legalBasis` entry: the recognised Art. 6(1) codes and the wording as given."""

    wording: str
    codes: tuple[str, ...]

    def __str__(self) -> str:
        labels = "; ".join(_(LEGAL_BASIS_LABELS[code]) for code in self.codes)
        if self.wording in self.codes:
            return labels
        return _('{labels}, as stated: "{wording}"', labels=labels, wording=self.wording)


@dataclass(frozen=True, slots=True)
class SpecialCategoryCondition:
    """An Art. 9(2) condition named in `legalBasis` (letter a-j) and its wording."""

    letter: str
    wording: str

    def __str__(self) -> str:
        return _(
            '{reference} {art9_conditions}, as stated: "{wording}"',
            # Built here: a placeholder inside a reference cannot be localised by a catalog.
            reference=cite_reference(f"Art. 9(2)({self.letter})"),
            art9_conditions=_(ART_9_CONDITIONS[self.letter]),
            wording=self.wording,
        )


@dataclass(frozen=True, slots=True)
class Safeguard:
    """A Chapter V safeguard: its code and, when given as words, the wording."""

    code: str
    wording: str | None = None

    @property
    def label(self) -> str:
        label = _(SAFEGUARD_LABELS[self.code]) if self.code in SAFEGUARD_LABELS else self.code
        if self.wording and self.wording != self.code:
            return _('{label}, as stated: "{wording}"', label=label, wording=self.wording)
        return label

    def __str__(self) -> str:
        return self.label


@dataclass(frozen=True, slots=True)
class Recipient:
    """`recipients` entry: a text, or `{name, role, country, safeguard}`."""

    name: str
    role: str | None = None
    country: str | None = None
    safeguard: Safeguard | None = None

    @property
    def outside_eea(self) -> bool:
        return bool(self.country) and not is_in_eea(self.country or "")

    def __str__(self) -> str:
        facts = [
            (_(ROLE_LABELS[self.role]) if self.role in ROLE_LABELS else self.role) or None,
            self.country,
            _("safeguard: {label}", label=self.safeguard.label) if self.safeguard else None,
        ]
        details = _joined(*facts, separator=f"{punct(';')} ")
        return f"{self.name} ({details})" if details else self.name


@dataclass(frozen=True, slots=True)
class Transfer:
    """A transfer to a third country, given in `thirdCountryTransfers` or by a recipient
    outside the EEA (`from_recipient`)."""

    country: str
    recipient: str | None
    safeguard: Safeguard
    details: str | None = None
    from_recipient: bool = False
    role: str | None = None  # the importer's role (RECIPIENT_ROLES), picks the SCC module

    @property
    def needs_safeguard(self) -> bool:
        """No Chapter V safeguard, or an Art. 49 one without its documentation."""
        code = self.safeguard.code
        return code == "none" or (code.startswith("art-49") and not self.details)


@dataclass(frozen=True, slots=True)
class RetentionRule:
    """`retentionPeriods` entry: a text, or `{category, period, criteria}`."""

    text: str | None = None
    category: str | None = None
    period: str | None = None
    criteria: str | None = None

    def __str__(self) -> str:
        if self.text is not None:
            return self.text
        rule = _joined(
            self.period,
            _("criteria: {criteria}", criteria=self.criteria) if self.criteria else None,
        )
        return f"{self.category}: {rule}" if self.category else rule


@dataclass(frozen=True, slots=True)
class SubProcessor:
    """`subprocessors` / `subProcessors` entry: a text, or `{name, country, service}`."""

    name: str
    country: str | None = None
    service: str | None = None
    address: str | None = None

    def __str__(self) -> str:
        located = f"{self.name} ({self.country})" if self.country else self.name
        return f"{located}{punct(':')} {self.service}" if self.service else located


@dataclass(frozen=True, slots=True)
class Measure:
    """`securityMeasures` / `plannedMeasures` entry: a text, or `{name, family}`.

    `family` (a code of the security-measure or rights-measure concepts) is the DPO's own
    classification; it wins over what the wording would be recognised as.
    """

    name: str
    family: str | None = None

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class DataCategory:
    """A `dataCategories` / `specialCategories` entry: the wording, and the concept when the
    integrator named it (`{"name": "Notizen", "category": "health"}`, a data-category code);
    None leaves the classification to recognition."""

    name: str
    code: str | None = None

    def __str__(self) -> str:
        return self.name


# --- one function per input -------------------------------------------------------------------
def data_category(value: Any) -> DataCategory:
    """A data category given as plain text or as `{name, category}`; the one reader of both."""
    if isinstance(value, DataCategory):
        return value
    if isinstance(value, Mapping):
        code = value.get("category")
        return DataCategory(name=_text(value.get("name") or ""), code=str(code) if code else None)
    return DataCategory(name=str(value))


def company_details(value: Any) -> CompanyDetails | None:
    if not _given(value):
        return None
    if not isinstance(value, Mapping):
        return CompanyDetails(text=_text(value))
    facts = []
    for key, part in value.items():
        if not _given(part):
            continue
        if key == "dpo":
            part = (
                Contact(name=part.get("name"), email=part.get("email"), phone=part.get("phone"))
                if isinstance(part, Mapping)
                else Contact(text=_text(part))
            )
        facts.append((str(key), part))
    return CompanyDetails(facts=tuple(facts)) if facts else None


def processing_activity(value: Any) -> ProcessingActivity | None:
    if not _given(value):
        return None
    if isinstance(value, Mapping):
        return ProcessingActivity(
            name=_text(value.get("name") or ""),
            description=value.get("description") or None,
            purposes=tuple(value.get("purposes") or ()),
        )
    return ProcessingActivity(name=str(value))


def safeguard(*wordings: Any) -> Safeguard | None:
    """The first recognisable wording as a Safeguard (validation refused the others)."""
    for wording in wordings:
        if _given(wording):
            code = recognise_safeguard(str(wording)) or "none"
            return Safeguard(code=code, wording=str(wording))
    return None


def legal_bases(
    values: Iterable[Any],
) -> tuple[tuple[LegalBasis, ...], tuple[SpecialCategoryCondition, ...]]:
    """Art. 6(1) entries and the Art. 9(2) conditions found among them."""
    bases: list[LegalBasis] = []
    conditions: list[SpecialCategoryCondition] = []
    for value in values:
        wording = str(value).strip()
        found = recognise_legal_basis(wording)
        if found is None:
            continue
        if found.codes:
            bases.append(LegalBasis(wording=wording, codes=found.codes))
        conditions.extend(SpecialCategoryCondition(letter, wording) for letter in found.conditions)
    return tuple(bases), tuple(conditions)


def recipient_role(value: Any) -> str | None:
    """A RECIPIENT_ROLES code for a role given as a code or in words of any language; words
    naming no role are kept as given."""
    if not _given(value):
        return None
    return recognise_role(str(value)) or str(value)


def recipient(value: Any) -> Recipient:
    if isinstance(value, Mapping):
        return Recipient(
            name=_text(value.get("name") or ""),
            role=recipient_role(value.get("role")),
            country=value.get("country") or None,
            safeguard=safeguard(value.get("safeguard"), value.get("mechanism")),
        )
    return Recipient(name=str(value))


def transfer(value: Mapping[str, Any]) -> Transfer:
    return Transfer(
        country=_text(value.get("country") or ""),
        recipient=value.get("recipient") or None,
        safeguard=safeguard(value.get("safeguard"), value.get("mechanism")) or Safeguard("none"),
        details=value.get("safeguardDetails") or None,
        role=recipient_role(value.get("role")),
    )


def recipient_transfers(
    recipients: Iterable[Recipient], given: Iterable[Transfer]
) -> list[Transfer]:
    """Transfers a recipient outside the EEA implies, unless `given` already lists them."""
    listed = {(t.country.lower(), (t.recipient or "").lower()) for t in given}
    implied = []
    for entry in recipients:
        if not entry.outside_eea or (str(entry.country).lower(), entry.name.lower()) in listed:
            continue
        implied.append(
            Transfer(
                country=str(entry.country),
                recipient=entry.name,
                safeguard=entry.safeguard or Safeguard("none"),
                from_recipient=True,
                role=entry.role,
            )
        )
    return implied


def retention_rule(value: Any) -> RetentionRule:
    if isinstance(value, Mapping):
        return RetentionRule(
            category=value.get("category") or None,
            period=value.get("period") or None,
            criteria=value.get("criteria") or None,
        )
    return RetentionRule(text=str(value))


def sub_processor(value: Any) -> SubProcessor:
    if isinstance(value, Mapping):
        return SubProcessor(
            name=_text(value.get("name") or ""),
            country=value.get("country") or None,
            service=value.get("service") or None,
            address=value.get("address") or None,
        )
    return SubProcessor(name=str(value))


def measure(value: Any) -> Measure:
    if isinstance(value, Mapping):
        return Measure(name=_text(value.get("name") or ""), family=value.get("family") or None)
    return Measure(name=str(value))


def _list(value: Any) -> list[Any]:
    if not _given(value):
        return []
    return list(value) if isinstance(value, list | tuple) else [value]


def normalize_inputs(inputs: Mapping[str, Any]) -> dict[str, Any]:
    """The inputs with every structured/plain field in its internal shape.

    Flat fields win over the same fact inside an object (`breach.nature` fills `breachNature`
    only when that is absent; `companyDetails.dpo` fills `dpoContact` likewise). Never raises
    on stored inputs: what validation accepted is always writable.
    """
    data = dict(inputs)
    details = company_details(data.get("companyDetails"))
    data["companyDetails"] = details
    if details is not None:
        _fill(data, "dpoContact", str(details.dpo) if details.dpo else None)
        _fill(data, "representative", details.get("representative"))
        employees = details.get("employees")
        if isinstance(employees, int) and not isinstance(employees, bool):
            _fill(data, "employeeCount", employees)

    activity = processing_activity(data.get("processingActivity"))
    data["processingActivity"] = activity
    if activity is not None and activity.purposes:
        data["purposes"] = list(dict.fromkeys([*_list(data.get("purposes")), *activity.purposes]))

    bases, conditions = legal_bases(_list(data.get("legalBasis")))
    data["legalBasis"] = bases
    data["specialCategoryConditions"] = conditions

    recipients = [recipient(value) for value in _list(data.get("recipients"))]
    data["recipients"] = recipients
    transfers = [transfer(value) for value in _list(data.get("thirdCountryTransfers"))]
    data["thirdCountryTransfers"] = [*transfers, *recipient_transfers(recipients, transfers)]
    data["retentionPeriods"] = [retention_rule(v) for v in _list(data.get("retentionPeriods"))]
    for key in ("securityMeasures", "plannedMeasures"):
        if _given(data.get(key)):
            data[key] = [measure(value) for value in _list(data[key])]

    breach = data.get("breach")
    if isinstance(breach, Mapping):
        for key, flat in BREACH_FIELDS.items():
            _fill(data, flat, breach.get(key))
    for key in ("dataCategories", "specialCategories"):
        # `specialCategories` is a yes/no flag for breach notifications: kept as it is.
        if isinstance(data.get(key), list | tuple):
            data[key] = [data_category(value) for value in data[key]]

    processor = data.get("processor")
    if isinstance(processor, Mapping):
        _fill(data, "processorName", processor.get("name"))
        _fill(
            data,
            "processorDetails",
            _joined(
                processor.get("address"),
                _("contact: {contact}", contact=processor["contact"])
                if processor.get("contact")
                else None,
            ),
        )
    data["subprocessors"] = [
        sub_processor(value)
        for value in [*_list(data.get("subprocessors")), *_list(data.get("subProcessors"))]
    ]
    return data


def _fill(data: dict[str, Any], key: str, value: Any) -> None:
    if _given(value) and not _given(data.get(key)):
        data[key] = value
