"""Documents written from the processing register: register rows -> create-body inputs.

A create body may name register entries (`processingActivityIds`, and `vendorId` for a DPA)
instead of repeating their facts; a RECORD_OF_PROCESSING that names none and gives no
per-activity fact is the organization's whole register. The rows are read here and turned
into the structured create-body shapes the writers already understand (`gdpr.composition.
inputs`); facts given explicitly in the body win over the register's. `register_sources`
records what the content was written from:

    {"activities": {"<uuid>": revision}, "vendors": {"<uuid>": revision},
     "explicit": [body fields given by the caller], "wholeRegister": true|absent}

which is what staleness (`legal_documents.staleness`) and refresh (`services/refresh.py`)
read. Ids of another organization are refused exactly like unknown ids.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gdpr.composition.recognition import is_in_eea, recognise_legal_basis
from gdpr.composition.register import REGISTER_ACTIVITIES
from gdpr.composition.transfers import covering_adequacy
from legal_documents.exceptions import UnknownRegisterEntries
from legal_documents.inputs.registry import get_document_type
from organizations.foreign_ids import UnknownReference
from register.models import ActivityRole, ProcessingActivity, Transfer, Vendor, VendorRole

ACTIVITY_IDS = "processingActivityIds"
VENDOR_ID = "vendorId"
RECORD = "RECORD_OF_PROCESSING"
PRIVACY_POLICY = "PRIVACY_POLICY"
DPIA = "DPIA"
DPA = "DATA_PROCESSING_AGREEMENT"
REGISTER_TYPES = frozenset({RECORD, PRIVACY_POLICY, DPIA, DPA})
# Facts of the organization, not of one activity: a record giving only these is the register.
ORGANIZATION_FIELDS = frozenset(
    {"companyName", "companyDetails", "clientCompanyId", "dpoContact", "representative",
     "employeeCount"}
)  # fmt: skip
_VENDOR_ROLES = {
    VendorRole.PROCESSOR: "processor",
    VendorRole.SUB_PROCESSOR: "processor",
    VendorRole.CONTROLLER: "controller",
    VendorRole.JOINT_CONTROLLER: "joint-controller",
    VendorRole.PUBLIC_AUTHORITY: "public-authority",
}
_TEXT_KEYS = ("name", "category", "label", "text", "purpose", "measure", "description", "value")


@dataclass
class RegisterInputs:
    """The inputs to store and write from, and the register entries they came from."""

    inputs: dict[str, Any]
    sources: dict[str, Any] = field(default_factory=dict)


# --- shapes --------------------------------------------------------------------------------
def _text(value: Any) -> str:
    if isinstance(value, Mapping):
        for key in _TEXT_KEYS:
            if value.get(key):
                return " ".join(str(value[key]).split())
        return "; ".join(f"{key}: {part}" for key, part in value.items() if part)
    return " ".join(str(value).split())


def _texts(values: Iterable[Any] | None) -> list[str]:
    return list(dict.fromkeys(text for text in map(_text, values or []) if text))


def _named(values: Iterable[Any] | None, *, code_key: str) -> list[Any]:
    """Texts, and `{name, <code_key>}` kept as such: the concept the DPO named (a
    data-category code, a measure family) reaches the document, not only its wording."""
    entries: list[Any] = []
    for value in values or []:
        if isinstance(value, Mapping) and value.get(code_key) and _text(value.get("name") or ""):
            entries.append({"name": _text(value["name"]), code_key: str(value[code_key])})
        elif text := _text(value):
            entries.append(text)
    return _dedupe(entries)


def _basis(value: Any) -> str:
    """A legal basis entry ({code, wording} or text) as text the recognition reads."""
    if isinstance(value, Mapping):
        wording = str(value.get("wording") or "").strip()
        code = str(value.get("code") or "").strip()
        if wording and recognise_legal_basis(wording) is not None:
            return wording
        return code or wording
    return str(value).strip()


def _purposes(activity: ProcessingActivity) -> tuple[list[str], list[dict[str, str]]]:
    """Purpose texts, and {purpose, legalBasis} for purposes that name their basis."""
    texts: list[str] = []
    with_basis: list[dict[str, str]] = []
    for entry in activity.purposes or []:
        text = _text(entry)
        if not text:
            continue
        texts.append(text)
        if isinstance(entry, Mapping) and entry.get("legalBasis"):
            with_basis.append({"purpose": text, "legalBasis": _basis(entry["legalBasis"])})
    return list(dict.fromkeys(texts)), with_basis


def _retention(values: Iterable[Any] | None) -> list[Any]:
    rules: list[Any] = []
    for value in values or []:
        if isinstance(value, Mapping):
            rule = {
                key: str(value[key]) for key in ("category", "period", "criteria") if value.get(key)
            }
            if rule.get("period") or rule.get("criteria"):
                rules.append(rule)
            elif rule:
                rules.append(_text(rule))
        elif str(value).strip():
            rules.append(str(value).strip())
    return rules


ADEQUACY = "adequacy-decision"


def _mechanism(code: str, wording: str, *, country: str | None) -> str | None:
    """The recorded mechanism; else, for a country an adequacy decision covers whoever the
    recipient (Art. 45(1)), that decision, as the register report counts it
    (compliance.report.transfers_without_mechanism): document and report agree."""
    given = (wording or code or "").strip()
    if given:
        return given
    if country and not is_in_eea(country) and covering_adequacy(country):
        return ADEQUACY
    return None


def _recipient(value: Any) -> Any:
    if not isinstance(value, Mapping):
        return _text(value)
    recipient = {key: str(value[key]) for key in ("name", "role", "country") if value.get(key)}
    safeguard = value.get("safeguard") or value.get("mechanism")
    if safeguard:
        recipient["safeguard"] = _text(safeguard)
    elif mechanism := _mechanism("", "", country=recipient.get("country")):
        recipient["safeguard"] = mechanism
    return recipient if recipient.get("name") else _text(value)


def vendor_recipient(vendor: Vendor) -> dict[str, str]:
    recipient = {"name": vendor.name}
    role = _VENDOR_ROLES.get(vendor.role)  # type: ignore[call-overload]
    if role:
        recipient["role"] = role
    if vendor.country:
        recipient["country"] = vendor.country
        mechanism = _mechanism(
            vendor.transfer_mechanism, vendor.transfer_mechanism_wording, country=vendor.country
        )
        if mechanism and not is_in_eea(vendor.country):
            recipient["safeguard"] = mechanism
    return recipient


def transfer_input(transfer: Transfer, *, role: str | None = None) -> dict[str, str]:
    entry = {"country": transfer.country, "recipient": transfer.recipient}
    mechanism = _mechanism(transfer.mechanism, transfer.mechanism_wording, country=transfer.country)
    if mechanism:
        entry["safeguard"] = mechanism
    if transfer.details:
        entry["safeguardDetails"] = transfer.details
    if role:
        entry["role"] = role
    return entry


def _dedupe(values: Iterable[Any]) -> list[Any]:
    seen: dict[str, Any] = {}
    for value in values:
        key = repr(sorted(value.items())) if isinstance(value, Mapping) else repr(value)
        seen.setdefault(key, value)
    return list(seen.values())


def own_vendors(activity: ProcessingActivity) -> list[Vendor]:
    """The activity's vendors of its own organization (a link across tenants never leaks)."""
    return [v for v in activity.vendors.all() if v.organization_id == activity.organization_id]


def activity_facts(activity: ProcessingActivity) -> dict[str, Any]:
    """One activity (with its vendors and transfers) in the record's create-body shape."""
    purposes, purpose_bases = _purposes(activity)
    vendors = own_vendors(activity)
    bases = [
        *(_basis(value) for value in activity.legal_bases or []),
        *(entry["legalBasis"] for entry in purpose_bases),
        *(_basis(value) for value in activity.art9_conditions or []),
    ]
    transfers = [transfer_input(transfer) for transfer in activity.transfers.all()]
    for vendor in vendors:
        role = _VENDOR_ROLES.get(vendor.role)  # type: ignore[call-overload]
        transfers.extend(transfer_input(t, role=role) for t in vendor.transfers.all())
    described: dict[str, Any] = {"name": activity.name, "purposes": purposes}
    if activity.description:
        described["description"] = activity.description
    facts: dict[str, Any] = {
        "processingActivity": described,
        "purposes": purposes,
        "purposeLegalBases": purpose_bases,
        "legalBasis": list(dict.fromkeys(basis for basis in bases if basis)),
        "dataSubjects": _texts(activity.data_subjects),
        "dataCategories": _named(activity.data_categories, code_key="category"),
        "specialCategories": _named(activity.special_categories, code_key="category"),
        "retentionPeriods": _retention(activity.retention),
        "securityMeasures": _named(activity.security_measures, code_key="family"),
        "recipients": _dedupe(
            [*map(_recipient, activity.recipients or []), *map(vendor_recipient, vendors)]
        ),
        "thirdCountryTransfers": _dedupe(transfers),
        "consentWithdrawalMethod": activity.consent_withdrawal,
    }
    if not facts["specialCategories"]:
        # The register's empty column is no statement that none is processed: left out, so
        # gdpr asks rather than stating an absence (an explicit ["none"] still says it).
        del facts["specialCategories"]
    if activity.role == ActivityRole.PROCESSOR:
        # The register has no separate column for the controllers an organization serves:
        # for an activity carried out as processor, "joint controllers" names them.
        facts["actsAsProcessor"] = True
        facts["controllersServed"] = _texts(activity.joint_controllers)
        facts["processingCategoriesPerController"] = purposes
    else:
        facts["actsAsProcessor"] = False
        facts["jointControllers"] = _texts(activity.joint_controllers)
    for key, value in (activity.dpia_screening or {}).items():
        facts.setdefault(str(key), value)
    return {key: value for key, value in facts.items() if value not in (None, "", [], {})}


def _union(facts: list[dict[str, Any]], key: str) -> list[Any]:
    return _dedupe(value for entry in facts for value in entry.get(key) or [])


def _retention_text(rules: list[Any]) -> str:
    parts = []
    for rule in rules:
        if isinstance(rule, Mapping):
            period = "; ".join(str(rule[k]) for k in ("period", "criteria") if rule.get(k))
            parts.append(f"{rule['category']}: {period}" if rule.get("category") else period)
        else:
            parts.append(str(rule))
    return "; ".join(parts)


def privacy_policy_facts(facts: list[dict[str, Any]]) -> dict[str, Any]:
    """The activities of a privacy notice: one row per purpose, with that activity's facts."""
    rows = []
    for entry in facts:
        recipients = [_text(value) for value in entry.get("recipients") or []]
        bases = {item["purpose"]: item["legalBasis"] for item in entry.get("purposeLegalBases", [])}
        for purpose in entry.get("purposes") or []:
            row: dict[str, Any] = {
                "purpose": purpose,
                "dataCategories": entry.get("dataCategories") or [],
                "legalBasis": [bases[purpose]] if purpose in bases else entry.get("legalBasis", []),
                "retention": _retention_text(entry.get("retentionPeriods") or []),
                "recipients": recipients,
            }
            rows.append({key: value for key, value in row.items() if value not in ("", [])})
    names = [entry["processingActivity"]["name"] for entry in facts]
    merged: dict[str, Any] = {
        "processingActivity": names[0] if len(names) == 1 else "; ".join(names),
        "processingPurposes": rows,
    }
    if len(facts) == 1:
        merged["processingActivity"] = facts[0]["processingActivity"]
    for key in ("purposes", "legalBasis", "dataSubjects", "dataCategories", "recipients",
                "thirdCountryTransfers", "retentionPeriods"):  # fmt: skip
        merged[key] = _union(facts, key)
    withdrawal = _texts(entry.get("consentWithdrawalMethod") for entry in facts)
    if withdrawal:
        merged["consentWithdrawalMethod"] = "; ".join(withdrawal)
    return merged


def _sub_processor(value: Any) -> Any:
    if not isinstance(value, Mapping):
        return _text(value)
    entry = {key: str(value[key]) for key in ("name", "country", "address") if value.get(key)}
    service = value.get("service") or value.get("services")
    if service:
        entry["service"] = _text(service)
    return entry if entry.get("name") else _text(value)


def dpa_facts(vendor: Vendor, facts: list[dict[str, Any]]) -> dict[str, Any]:
    """One vendor as the processor of a DPA; its activities give what is processed."""
    processor = {"name": vendor.name}
    if vendor.address:
        processor["address"] = vendor.address
    if vendor.country:
        processor["country"] = vendor.country
    transfers = [transfer_input(t, role="processor") for t in vendor.transfers.all()]
    if vendor.country and not is_in_eea(vendor.country):
        entry = {"country": vendor.country, "recipient": vendor.name, "role": "processor"}
        mechanism = _mechanism(
            vendor.transfer_mechanism, vendor.transfer_mechanism_wording, country=vendor.country
        )
        if mechanism:
            entry["safeguard"] = mechanism
        transfers.insert(0, entry)
    names = [entry["processingActivity"]["name"] for entry in facts]
    special = _union(facts, "specialCategories")
    merged: dict[str, Any] = {
        "processor": processor,
        "processorCountry": vendor.country,
        "processingNature": vendor.services,
        "subjectMatter": (
            "Processing of personal data on behalf of the controller for: " + "; ".join(names)
            if names
            else vendor.services
        ),
        "purposes": _union(facts, "purposes"),
        "dataCategories": _union(facts, "dataCategories"),
        "dataSubjects": _union(facts, "dataSubjects"),
        "securityMeasures": _union(facts, "securityMeasures"),
        "subprocessors": [_sub_processor(value) for value in vendor.sub_processors or []],
        "thirdCountryTransfers": _dedupe(transfers),
        # The agreement's own text field: the wordings (the codes stay in dataCategories).
        "sensitiveData": "; ".join(_texts(special)),
    }
    return {key: value for key, value in merged.items() if value not in (None, "", [], {})}


# --- reading the register ---------------------------------------------------------------------
def _activities(organization_id: Any, ids: list[str] | None) -> list[ProcessingActivity]:
    queryset = ProcessingActivity.objects.filter(organization_id=organization_id).prefetch_related(
        "vendors", "vendors__transfers", "transfers"
    )
    if ids is None:
        return list(queryset.order_by("name"))
    found = {str(activity.pk): activity for activity in queryset.filter(pk__in=ids)}
    unknown = [value for value in ids if value not in found]
    if unknown:
        raise UnknownRegisterEntries(
            field=ACTIVITY_IDS,
            ids=unknown,
            references=(
                UnknownReference(
                    model=ProcessingActivity,
                    ids=tuple(unknown),
                    object_type="processing_activity",
                    field=ACTIVITY_IDS,
                ),
            ),
        )
    return [found[value] for value in dict.fromkeys(ids)]


def _vendor(organization_id: Any, vendor_id: str) -> Vendor:
    vendor = (
        Vendor.objects.filter(organization_id=organization_id, pk=vendor_id)
        .prefetch_related("transfers")
        .first()
    )
    if vendor is None:
        raise UnknownRegisterEntries(
            field=VENDOR_ID,
            ids=[vendor_id],
            references=(
                UnknownReference(
                    model=Vendor, ids=(str(vendor_id),), object_type="vendor", field=VENDOR_ID
                ),
            ),
        )
    return vendor


def _only_own_fields(document_type: str, facts: Mapping[str, Any]) -> dict[str, Any]:
    """The facts the type's create body has a field for (no unknown keys in `inputs`)."""
    fields = set(get_document_type(document_type).input_serializer().fields)
    # Special categories are read by every writer of Art. 9 data (gdpr special_categories),
    # though only the DPIA's body declares the field.
    fields.add("specialCategories")
    return {key: value for key, value in facts.items() if key in fields}


def is_whole_register(document_type: str, body: Mapping[str, Any]) -> bool:
    """A record naming no activity and giving no per-activity fact (SEED: the register)."""
    if document_type != RECORD or body.get(ACTIVITY_IDS):
        return False
    return set(body) <= ORGANIZATION_FIELDS


def _revisions(entries: Iterable[ProcessingActivity | Vendor]) -> dict[str, int]:
    return {str(entry.pk): entry.revision for entry in entries}


def resolve_register_inputs(
    *, organization_id: Any, document_type: str, body: Mapping[str, Any]
) -> RegisterInputs:
    """The inputs to write `document_type` from: `body` plus the register facts it names.

    Without register ids (and for a record that is not the whole register) the body is
    returned as it is, with empty sources. Raises UnknownRegisterEntries (400) naming the
    ids that are not the organization's; a DPIA describes one activity (checked by its
    serializer), a DPA one vendor.
    """
    explicit = {key: value for key, value in body.items() if key not in (ACTIVITY_IDS, VENDOR_ID)}
    ids = [str(value) for value in body.get(ACTIVITY_IDS) or []]
    whole = is_whole_register(document_type, body)
    if document_type not in REGISTER_TYPES or not (ids or body.get(VENDOR_ID) or whole):
        return RegisterInputs(inputs=dict(body))
    activities = _activities(organization_id, None if whole else ids)
    vendor = _vendor(organization_id, str(body[VENDOR_ID])) if body.get(VENDOR_ID) else None
    if vendor is not None and not ids:
        activities = list(
            vendor.activities.filter(organization_id=organization_id)
            .prefetch_related("vendors", "vendors__transfers", "transfers")
            .order_by("name")
        )
    facts = [activity_facts(activity) for activity in activities]
    if whole and not facts:
        # An empty register: the record is written from the body as before, and goes stale
        # (refresh then writes the register) as soon as a first activity is recorded.
        return RegisterInputs(
            inputs=dict(body),
            sources={"activities": {}, "vendors": {}, "explicit": sorted(explicit),
                     "wholeRegister": True},
        )  # fmt: skip
    if document_type == RECORD and (whole or len(facts) > 1):
        resolved: dict[str, Any] = {REGISTER_ACTIVITIES: facts}
    elif document_type == PRIVACY_POLICY:
        resolved = privacy_policy_facts(facts)
    elif document_type == DPA:
        resolved = dpa_facts(vendor, facts) if vendor is not None else {}
    else:
        resolved = _only_own_fields(document_type, facts[0]) if facts else {}
    resolved = {**resolved, **explicit}
    if ids:
        resolved[ACTIVITY_IDS] = ids
    if vendor is not None:
        resolved[VENDOR_ID] = str(vendor.pk)
    vendors = {vendor} if vendor is not None else set()
    for activity in activities:
        vendors.update(own_vendors(activity))
    sources: dict[str, Any] = {
        "activities": _revisions(activities),
        "vendors": _revisions(vendors),
        "explicit": sorted(explicit),
    }
    if whole:
        sources["wholeRegister"] = True
    return RegisterInputs(inputs=resolved, sources=sources)
