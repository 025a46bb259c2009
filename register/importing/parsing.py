"""One register row -> the field values of an activity or a vendor, and what could not be read.

Values take the shapes of the register's JSON fields (register.models): lists of strings, or
objects where the cell says more (`{code, wording}` for a recognised legal basis,
`{category, period}` for "Bewerbungen: 6 Monate", `{name, country, safeguard}` for a
recipient in a third country). Only the columns the sheet has become values: a register
without a "Systems" column leaves the systems of existing entries alone.

Recipients that name a vendor of the register are links to that vendor, not recipients.
"""

from __future__ import annotations

import datetime
import itertools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from gdpr.composition.recognition import is_in_eea, recognise_role, recognise_safeguard
from gdpr.composition.transfers import covering_adequacy
from register.importing import wording
from register.importing.headers import SheetKind, SheetLayout, normalise, shown_header
from register.importing.reading import Cell, CutText
from register.models import ActivityRole, DpaStatus, Transfer, VendorRole

# Several values in one cell: one per line, or separated by semicolons or bullets.
_SEPARATORS = re.compile(r"\s*(?:\n|;|•|\u2022|\r)\s*")
_LEADING_BULLET = re.compile(r"^\s*(?:[-*\u2013\u00b7]\s+)")
_PARENTHESIS = re.compile(r"^(?P<base>[^()]+?)\s*\((?P<inner>[^()]+)\)\s*$")
_DATE_FORMATS = ("%Y-%m-%d", "%d.%m.%Y", "%d/%m/%Y", "%d.%m.%y", "%d-%m-%Y")
_DATE_IN_TEXT = re.compile(r"\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}[./]\d{2,4}")
_LIST_FIELDS = (
    "purposes", "data_subjects", "data_categories", "special_categories",
    "security_measures", "systems", "joint_controllers",
)  # fmt: skip
_TEXT_FIELDS = ("description", "owner", "consent_withdrawal")

# Checked in order, each as the start of a word; the export writes its labels in the five
# languages (legal_documents.exports.xlsx), and these read every one of them back.
_ACTIVITY_ROLES: tuple[tuple[str, str], ...] = (
    ("joint", ActivityRole.JOINT_CONTROLLER),
    ("corresponsable", ActivityRole.JOINT_CONTROLLER),
    ("contitolare", ActivityRole.JOINT_CONTROLLER),
    ("gemeinsam", ActivityRole.JOINT_CONTROLLER),
    ("conjoint", ActivityRole.JOINT_CONTROLLER),
    ("co responsable", ActivityRole.JOINT_CONTROLLER),
    ("processor", ActivityRole.PROCESSOR),
    ("auftragsverarbeit", ActivityRole.PROCESSOR),
    ("sous traitant", ActivityRole.PROCESSOR),
    ("encargado", ActivityRole.PROCESSOR),
    ("responsabile", ActivityRole.PROCESSOR),
    ("controller", ActivityRole.CONTROLLER),
    ("titolare", ActivityRole.CONTROLLER),
    ("verantwortlich", ActivityRole.CONTROLLER),
    ("responsable", ActivityRole.CONTROLLER),
)
_VENDOR_ROLES: tuple[tuple[str, str], ...] = (
    ("sub", VendorRole.SUB_PROCESSOR),
    ("unterauftrag", VendorRole.SUB_PROCESSOR),
    ("ulterieur", VendorRole.SUB_PROCESSOR),
    ("joint", VendorRole.JOINT_CONTROLLER),
    ("gemeinsam", VendorRole.JOINT_CONTROLLER),
    ("conjoint", VendorRole.JOINT_CONTROLLER),
    ("corresponsable", VendorRole.JOINT_CONTROLLER),
    ("contitolare", VendorRole.JOINT_CONTROLLER),
    ("processor", VendorRole.PROCESSOR),
    ("auftragsverarbeit", VendorRole.PROCESSOR),
    ("sous traitant", VendorRole.PROCESSOR),
    ("encargado", VendorRole.PROCESSOR),
    ("responsabile", VendorRole.PROCESSOR),
    ("authority", VendorRole.PUBLIC_AUTHORITY),
    ("behorde", VendorRole.PUBLIC_AUTHORITY),
    ("autorite", VendorRole.PUBLIC_AUTHORITY),
    ("autoridad", VendorRole.PUBLIC_AUTHORITY),
    ("autorita", VendorRole.PUBLIC_AUTHORITY),
    ("administration", VendorRole.PUBLIC_AUTHORITY),
    ("controller", VendorRole.CONTROLLER),
    ("verantwortlich", VendorRole.CONTROLLER),
    ("responsable", VendorRole.CONTROLLER),
    ("titolare", VendorRole.CONTROLLER),
    ("other", VendorRole.OTHER),
    ("sonstige", VendorRole.OTHER),
    ("autre", VendorRole.OTHER),
    ("otro", VendorRole.OTHER),
    ("altro", VendorRole.OTHER),
)
# Checked in order: "not required" before "no", "not signed" before "signed".
_DPA_STATUSES: tuple[tuple[str, str], ...] = (
    ("not required", DpaStatus.NOT_REQUIRED),
    ("no necesario", DpaStatus.NOT_REQUIRED),
    ("non necessario", DpaStatus.NOT_REQUIRED),
    ("nicht erforderlich", DpaStatus.NOT_REQUIRED),
    ("entfallt", DpaStatus.NOT_REQUIRED),
    ("non requis", DpaStatus.NOT_REQUIRED),
    ("sans objet", DpaStatus.NOT_REQUIRED),
    ("n a", DpaStatus.NOT_REQUIRED),
    ("not signed", DpaStatus.NONE),
    ("nicht unterzeichnet", DpaStatus.NONE),
    ("non signe", DpaStatus.NONE),
    ("requested", DpaStatus.REQUESTED),
    ("pending", DpaStatus.REQUESTED),
    ("in progress", DpaStatus.REQUESTED),
    ("negotiation", DpaStatus.REQUESTED),
    ("angefragt", DpaStatus.REQUESTED),
    ("angefordert", DpaStatus.REQUESTED),
    ("verhandlung", DpaStatus.REQUESTED),
    ("in prufung", DpaStatus.REQUESTED),
    ("demande", DpaStatus.REQUESTED),
    ("en cours", DpaStatus.REQUESTED),
    ("negociation", DpaStatus.REQUESTED),
    ("solicitado", DpaStatus.REQUESTED),
    ("richiesto", DpaStatus.REQUESTED),
    ("signed", DpaStatus.SIGNED),
    ("yes", DpaStatus.SIGNED),
    ("ja", DpaStatus.SIGNED),
    ("unterzeichnet", DpaStatus.SIGNED),
    ("unterschrieben", DpaStatus.SIGNED),
    ("abgeschlossen", DpaStatus.SIGNED),
    ("vorhanden", DpaStatus.SIGNED),
    ("signe", DpaStatus.SIGNED),
    ("oui", DpaStatus.SIGNED),
    ("firmado", DpaStatus.SIGNED),
    ("firmato", DpaStatus.SIGNED),
    ("in place", DpaStatus.SIGNED),
    ("concluded", DpaStatus.SIGNED),
    ("none", DpaStatus.NONE),
    ("no", DpaStatus.NONE),
    ("nein", DpaStatus.NONE),
    ("fehlt", DpaStatus.NONE),
    ("kein", DpaStatus.NONE),
    ("non", DpaStatus.NONE),
    ("aucun", DpaStatus.NONE),
    ("ningun", DpaStatus.NONE),
    ("nessun", DpaStatus.NONE),
    ("missing", DpaStatus.NONE),
)

# A third-country cell saying there is none.
_NO_TRANSFER = frozenset(
    {"", "nein", "keine", "keiner", "no", "none", "non", "aucun", "aucune", "n a", "entfallt"}
)

VendorMatcher = Callable[[str], str | None]
# A transfer's recipient and country are columns of these lengths: a longer text (a sentence,
# a table row) is no country, and writing it would fail the whole import.
_COUNTRY_CHARS = Transfer._meta.get_field("country").max_length or 100
_RECIPIENT_CHARS = Transfer._meta.get_field("recipient").max_length or 300


@dataclass(slots=True)
class ParsedRow:
    """What one row says. `values` holds model fields; `vendor_keys` the linked vendors."""

    sheet: str
    row: int
    entity: SheetKind
    name: str
    reference: str
    values: dict[str, Any] = field(default_factory=dict)
    # Activities: normalised names of the vendors the row names (None: no such column).
    vendor_keys: list[str] | None = None
    problems: list[str] = field(default_factory=list)
    # The register's id of the entry the row was exported from ("" when the file has none).
    entry_id: str = ""


def split_values(cell: Cell) -> list[str]:
    """The values of a cell: one per line, semicolon or bullet; empty ones dropped."""
    return list(_each_value(cell))


def _each_value(cell: Cell) -> Iterator[str]:
    # One at a time: a cell of "x;x;x..." is 5,000 values, of which only the first
    # REGISTER_IMPORT_MAX_VALUES_PER_CELL are ever made.
    if isinstance(cell, datetime.date):
        yield cell.isoformat()
        return
    start = 0
    for separator in itertools.chain(_SEPARATORS.finditer(cell), [None]):
        part = cell[start : separator.start()] if separator else cell[start:]
        if value := _LEADING_BULLET.sub("", part).strip():
            yield value
        if separator:
            start = separator.end()


def _values(parsed: ParsedRow, cells: dict[str, Cell], name: str) -> list[str]:
    """The values of a field's cell, at most REGISTER_IMPORT_MAX_VALUES_PER_CELL of them
    (the row's problems say when there were more)."""
    limit: int = settings.REGISTER_IMPORT_MAX_VALUES_PER_CELL
    values = list(itertools.islice(_each_value(cells.get(name, "")), limit + 1))
    if len(values) > limit:
        parsed.problems.append(
            f"{name.replace('_', ' ')}: more than {limit:,} values in the cell; only the"
            f" first {limit:,} are imported (limit: REGISTER_IMPORT_MAX_VALUES_PER_CELL)"
        )
        del values[limit:]
    return values


def _text(cell: Cell) -> str:
    return cell.isoformat() if isinstance(cell, datetime.date) else cell.strip()


def parse_date(cell: Cell) -> datetime.date | None:
    if isinstance(cell, datetime.date):
        return cell
    text = cell.strip()
    for pattern in _DATE_FORMATS:
        try:
            return datetime.datetime.strptime(text, pattern).date()
        except ValueError:
            continue
    return None


def _choice(text: str, table: tuple[tuple[str, str], ...]) -> str | None:
    padded = f" {normalise(text)} "
    for word, value in table:
        if f" {word}" in padded:
            return value
    return None


def _role(text: str, table: tuple[tuple[str, str], ...]) -> str | None:
    """The role of the table (the register's own: sub-processor, other), else the role the
    recipient-role vocabulary recognises in any language, if the table has it."""
    found = _choice(text, table) or recognise_role(text)
    return found if found in {value for _, value in table} else None


def _cells_by_field(layout: SheetLayout, cells: tuple[Cell, ...]) -> dict[str, Cell]:
    # Per row, not a DataFrame of the sheet: building one from the bounded rows, reindexing
    # it to the layout and reading the rows back took 15x the CPU (5,000 rows: 0.51 s against
    # 0.033 s), and every import's fresh child would import pandas (0.46 s, 35 MB) first
    # (bench/bench_tabular_pandas.py).
    by_field: dict[str, Cell] = {}
    for column, name in layout.columns.items():
        cell = cells[column] if column < len(cells) else ""
        if name in by_field:  # a list field over several columns: one value per line
            cell = "\n".join(text for text in (_text(by_field[name]), _text(cell)) if text)
        by_field[name] = cell
    return by_field


def parse_row(
    *, layout: SheetLayout, row: int, cells: tuple[Cell, ...], match_vendor: VendorMatcher
) -> ParsedRow | None:
    """The row as values; None for a row with nothing in the mapped columns."""
    by_field = _cells_by_field(layout, cells)
    if not any(_text(value) for value in by_field.values()):
        return None
    parsed = ParsedRow(
        sheet=layout.sheet,
        row=row,
        entity=layout.kind,
        name=" ".join(_text(by_field.get("name", "")).split()),
        reference=_text(by_field.get("reference", "")),
        entry_id=_text(by_field.get("entry_id", "")),
    )
    if not parsed.name:
        parsed.problems.append("no name: the row is skipped")
        return parsed
    _cut_cells(parsed, layout, cells)
    if layout.kind is SheetKind.ACTIVITIES:
        _activity(parsed, by_field, match_vendor)
    else:
        _vendor(parsed, by_field)
    return parsed


def _cut_cells(parsed: ParsedRow, layout: SheetLayout, cells: tuple[Cell, ...]) -> None:
    limit: int = settings.REGISTER_IMPORT_MAX_CELL_CHARS
    for column in layout.columns:
        if column < len(cells) and isinstance(cells[column], CutText):
            parsed.problems.append(
                f"{shown_header(layout.headers[column])}: longer than {limit:,} characters;"
                f" only the first {limit:,} are imported (limit: REGISTER_IMPORT_MAX_CELL_CHARS)"
            )


# -- activities -------------------------------------------------------------------------------


def _activity(parsed: ParsedRow, cells: dict[str, Cell], match_vendor: VendorMatcher) -> None:
    values = parsed.values
    for name in _TEXT_FIELDS:
        if name in cells:
            values[name] = _text(cells[name])
    for name in _LIST_FIELDS:
        if name in cells:
            values[name] = _values(parsed, cells, name)
    if "reference" in cells:
        values["reference"] = parsed.reference
    if "legal_bases" in cells or "art9_conditions" in cells:
        _legal_bases(parsed, cells)
    if "retention" in cells:
        values["retention"] = [_retention(value) for value in _values(parsed, cells, "retention")]
    if "role" in cells and _text(cells["role"]):
        role = _role(_text(cells["role"]), _ACTIVITY_ROLES)
        if role is None:
            parsed.problems.append(f"role not recognised: '{_text(cells['role'])}'")
        else:
            values["role"] = role
    if "next_review_date" in cells:
        _date_field(parsed, cells["next_review_date"], "next_review_date", "next review date")
    if {"recipients", "processors", "third_countries"} & set(cells):
        _recipients(parsed, cells, match_vendor)


def _legal_bases(parsed: ParsedRow, cells: dict[str, Cell]) -> None:
    bases: list[Any] = []
    conditions: list[Any] = []
    for text in _values(parsed, cells, "legal_bases"):
        codes, letters = wording.legal_basis(text)
        bases.extend({"code": code, "wording": text} for code in codes)
        conditions.extend({"code": letter, "wording": text} for letter in letters)
        if not codes and not letters:
            # As every register write stores a wording without a code (register.bases), so
            # that importing the same file again finds the entry unchanged.
            bases.append({"code": "", "wording": text})
            parsed.problems.append(f"legal basis not recognised (kept as written): '{text}'")
    for text in _values(parsed, cells, "art9_conditions"):
        _, letters = wording.legal_basis(text)
        conditions.extend({"code": letter, "wording": text} for letter in letters)
        if not letters:
            conditions.append({"code": "", "wording": text})
            parsed.problems.append(f"Art. 9(2) condition not recognised (kept): '{text}'")
    if "legal_bases" in cells:
        parsed.values["legal_bases"] = bases
    parsed.values["art9_conditions"] = conditions


def _retention(text: str) -> Any:
    category, separator, period = text.partition(":")
    if separator and category.strip() and period.strip() and len(category) <= 80:
        return {"category": category.strip(), "period": period.strip()}
    return text


def _recipients(parsed: ParsedRow, cells: dict[str, Cell], match_vendor: VendorMatcher) -> None:
    recipients: list[Any] = []
    vendor_keys: list[str] = []
    for text in [
        *_values(parsed, cells, "recipients"),
        *_values(parsed, cells, "processors"),
    ]:
        key = match_vendor(text)
        if key is not None:
            vendor_keys.append(key)
        elif text not in recipients:
            recipients.append(text)
    safeguard_text = "; ".join(_values(parsed, cells, "safeguards"))
    for text in _values(parsed, cells, "third_countries"):
        if normalise(text) in _NO_TRANSFER:
            continue
        match = _PARENTHESIS.match(text)
        country, who = (match["base"], match["inner"]) if match else (text, "")
        if len(country) > _COUNTRY_CHARS or len(who) > _RECIPIENT_CHARS:
            parsed.problems.append(
                f"third country not read (longer than {_COUNTRY_CHARS} characters):"
                f" '{shown_header(text)}'"
            )
            continue
        key = match_vendor(who) if who else None
        if key is not None:
            vendor_keys.append(key)  # the vendor holds its country and transfer mechanism
            continue
        recipient: dict[str, str] = {"name": who or country, "country": country}
        if safeguard_text:
            recipient.update(_safeguard_fields(safeguard_text))
        elif not is_in_eea(country) and covering_adequacy(country) is None:
            parsed.problems.append(f"transfer to {country} without a safeguard named")
        # The recipients column may name the same recipient: one entry, with its country.
        recipients = [r for r in recipients if not _same_recipient(r, recipient["name"])]
        recipients.append(recipient)
    parsed.values["recipients"] = recipients
    parsed.vendor_keys = list(dict.fromkeys(vendor_keys))


def _same_recipient(recipient: Any, name: str) -> bool:
    if not isinstance(recipient, str):
        return False
    return normalise(recipient.split("(")[0]) == normalise(name.split("(")[0])


def _safeguard_fields(text: str) -> dict[str, str]:
    """`safeguard` as the cell words it: every reader recognises it the same way, in any
    language (gdpr.composition.recognition.recognise_safeguard)."""
    return {"safeguard": text}


def _date_field(parsed: ParsedRow, cell: Cell, name: str, label: str) -> None:
    if not _text(cell):
        parsed.values[name] = None
        return
    date = parse_date(cell)
    if date is None:
        parsed.problems.append(f"{label} not a date (use YYYY-MM-DD): '{_text(cell)}'")
    else:
        parsed.values[name] = date


# -- vendors ----------------------------------------------------------------------------------


def _vendor(parsed: ParsedRow, cells: dict[str, Cell]) -> None:
    values = parsed.values
    if "reference" in cells:
        values["reference"] = parsed.reference
    if "address" in cells:
        values["address"] = _text(cells["address"])
    if "services" in cells:
        values["services"] = "\n".join(_values(parsed, cells, "services"))
    if "country" in cells:
        values["country"] = _text(cells["country"])
    if "role" in cells and _text(cells["role"]):
        role = _role(_text(cells["role"]), _VENDOR_ROLES)
        if role is None:
            parsed.problems.append(f"role not recognised: '{_text(cells['role'])}'")
        else:
            values["role"] = role
    if "dpa_status" in cells:
        _dpa(parsed, cells)
    if "dpa_signed_on" in cells:
        _date_field(parsed, cells["dpa_signed_on"], "dpa_signed_on", "DPA date")
    if "sub_processors" in cells:
        values["sub_processors"] = [
            _sub_processor(v) for v in _values(parsed, cells, "sub_processors")
        ]
    if "transfer_mechanism" in cells:
        text = "; ".join(_values(parsed, cells, "transfer_mechanism"))
        code = recognise_safeguard(text) if text else None
        if text and code is None:
            parsed.problems.append(f"transfer mechanism not recognised (kept): '{text}'")
        values["transfer_mechanism"] = code or ""
        values["transfer_mechanism_wording"] = text


def _dpa(parsed: ParsedRow, cells: dict[str, Cell]) -> None:
    cell = cells["dpa_status"]
    text = _text(cell)
    if not text:
        parsed.values["dpa_status"] = DpaStatus.NONE
        return
    status = _choice(text, _DPA_STATUSES)
    date = parse_date(cell)
    if date is None and isinstance(cell, str) and (found := _DATE_IN_TEXT.search(cell)):
        date = parse_date(found.group())
    if date is not None:  # a date in the status column: signed on that day
        status = status or DpaStatus.SIGNED
        if "dpa_signed_on" not in cells:
            parsed.values["dpa_signed_on"] = date
    if status is None:
        parsed.problems.append(f"DPA status not recognised: '{text}'")
        return
    parsed.values["dpa_status"] = status


def _sub_processor(text: str) -> Any:
    match = _PARENTHESIS.match(text)
    if match:
        return {"name": match["base"], "country": match["inner"]}
    return text
