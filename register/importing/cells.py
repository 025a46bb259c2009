"""The register's values as spreadsheet cells, and how a cell is compared with an entry.

One place decides how each field is written into a cell (the record of processing's XLSX
export, legal_documents.exports.xlsx) so that the import (parsing.py) reads it back: one
value per line; a legal basis as its wording; a retention rule as "category: period"; a
recipient in a third country as "Country (Recipient)" in the transfers column, with its
safeguard in the safeguards column; a vendor the activity uses by its name among the
recipients; a date as a date. The export writes a role or DPA status as its label in the
file's language (parsing.py reads those labels in every language).

`comparable(name, value)` is what an import compares (planning.py): a stored value and a
read one are the same when their cells would read the same. An object's details that no
cell carries (a purpose's own legal basis, a measure's family, a recipient's role) then
never count as a change, and are kept, since an import writes only the fields whose cells
differ.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from typing import Any

from gdpr.composition.recognition import is_in_eea
from register.importing.parsing import split_values
from register.models import ProcessingActivity, Vendor

__all__ = [
    "activity_cells",
    "comparable",
    "vendor_cells",
]

_BASIS_FIELDS = frozenset({"legal_bases", "art9_conditions"})
# The key holding an object's text, per list field (objects of the API's shapes).
_TEXT_KEYS = {
    "purposes": ("purpose", "name"),
    "data_categories": ("name", "category"),
    "special_categories": ("name", "category"),
    "security_measures": ("name", "measure"),
}


def _lines(values: Iterable[str]) -> str:
    return "\n".join(value for value in values if value)


def element_text(name: str, element: Any) -> str:
    """The text of one element of a list field, as a line of its cell."""
    if isinstance(element, str):
        return element.strip()
    if not isinstance(element, Mapping):
        return str(element)
    if name in _BASIS_FIELDS:
        return str(element.get("wording") or element.get("code") or "").strip()
    if name == "retention":
        period = str(element.get("period") or "").strip()
        criteria = str(element.get("criteria") or "").strip()
        if criteria:
            period = f"{period} ({criteria})" if period else criteria
        category = str(element.get("category") or "").strip()
        return f"{category}: {period}" if category and period else (period or category)
    if name in ("recipients", "sub_processors"):
        who = str(element.get("name") or "").strip()
        country = str(element.get("country") or "").strip()
        return f"{who} ({country})" if who and country else (who or country)
    for key in _TEXT_KEYS.get(name, ("name",)):
        if element.get(key):
            return str(element[key]).strip()
    return ""


def _is_transfer(recipient: Any) -> bool:
    """A recipient written as a third-country transfer: an object with a country outside the
    EEA (one inside is a recipient like any other, "Name (Country)")."""
    return (
        isinstance(recipient, Mapping)
        and bool(str(recipient.get("country") or "").strip())
        and not is_in_eea(str(recipient["country"]))
    )


def _transfer_text(recipient: Mapping[str, Any]) -> str:
    country = str(recipient["country"]).strip()
    who = str(recipient.get("name") or "").strip()
    return f"{country} ({who})" if who and who != country else country


def _recipient_columns(recipients: list[Any], vendor_names: list[str]) -> dict[str, str]:
    plain = [element_text("recipients", r) for r in recipients if not _is_transfer(r)]
    transfers = [r for r in recipients if _is_transfer(r)]
    safeguards = dict.fromkeys(
        str(r.get("safeguard") or "").strip() for r in transfers if r.get("safeguard")
    )
    return {
        "recipients": _lines([*plain, *vendor_names]),
        "third_countries": _lines(_transfer_text(r) for r in transfers),
        "safeguards": _lines(safeguards),
    }


def _list_cell(name: str, values: Any) -> str:
    texts = [element_text(name, value) for value in values or []]
    if name in _BASIS_FIELDS:  # one wording naming two bases is two entries of it
        texts = list(dict.fromkeys(texts))
    return _lines(texts)


def activity_cells(activity: ProcessingActivity) -> dict[str, Any]:
    """The cells of the activity's row: field -> text, date, or (`role`) the code the export
    writes as its label in the file's language."""
    cells: dict[str, Any] = {
        "reference": activity.reference,
        "name": activity.name,
        "description": activity.description,
        "owner": activity.owner,
        "consent_withdrawal": activity.consent_withdrawal,
        "role": activity.role,
        "next_review_date": activity.next_review_date,
        "entry_id": str(activity.pk),
    }
    for name in (
        "purposes", "legal_bases", "data_subjects", "data_categories", "special_categories",
        "art9_conditions", "retention", "security_measures", "systems", "joint_controllers",
    ):  # fmt: skip
        cells[name] = _list_cell(name, getattr(activity, name))
    vendors = sorted(vendor.name for vendor in activity.vendors.all())
    cells.update(_recipient_columns(list(activity.recipients or []), vendors))
    return cells


def vendor_cells(vendor: Vendor) -> dict[str, Any]:
    """The cells of the vendor's row: field -> text, date, or (`role`, `dpa_status`) the code
    the export writes as its label in the file's language."""
    return {
        "reference": vendor.reference,
        "name": vendor.name,
        "address": vendor.address,
        "country": vendor.country,
        "role": vendor.role,
        "services": vendor.services,
        "dpa_status": vendor.dpa_status,
        "dpa_signed_on": vendor.dpa_signed_on,
        "sub_processors": _list_cell("sub_processors", vendor.sub_processors),
        "transfer_mechanism": vendor.transfer_mechanism_wording or vendor.transfer_mechanism,
        "entry_id": str(vendor.pk),
    }


def _values(text: str) -> tuple[str, ...]:
    return tuple(split_values(text))


def comparable(name: str, value: Any) -> Any:
    """What an import compares of a field's value: the values its cell reads as."""
    if name == "recipients":
        recipients = list(value or [])
        columns = _recipient_columns(recipients, [])
        # The import gives every transfer of the row the row's safeguards, joined.
        safeguards = {
            part for r in recipients if _is_transfer(r)
            for part in _values(str(r.get("safeguard") or ""))
        }  # fmt: skip
        return (_values(columns["recipients"]), _values(columns["third_countries"]), safeguards)
    if isinstance(value, list):
        return _values(_list_cell(name, value))
    if isinstance(value, str) and name in ("services", "description", "address"):
        return _values(value) if name == "services" else value.strip()
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, datetime.datetime):
        return value.date()
    return value
