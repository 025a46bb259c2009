"""The plan of an import: for every row, what applying it would do, decided before any write.

A row matches an existing entry of the organization by its register id (the "Register ID"
column of the project's own export) when it names one, else by its `reference` (the
register's own ID column) when it has one, else by name, case-insensitively. A matched entry
whose cells all read as the row's (cells.comparable) is `unchanged`, so that importing the
same file twice writes nothing, and importing an export with one cell edited changes that
one field of that one entry. The dry run shows exactly this plan; applying.py carries it out.
"""

from __future__ import annotations

import bisect
import collections
import copy
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from gdpr.composition.recognition import is_in_eea
from gdpr.composition.transfers import covering_adequacy
from organizations.models import Organization
from register.importing.cells import comparable
from register.importing.errors import RegisterFileUnreadable
from register.importing.headers import (
    EXPECTED_HEADERS,
    SheetKind,
    SheetLayout,
    detect_layout,
    headers_found,
    normalise,
)
from register.importing.parsing import ParsedRow, parse_row
from register.importing.reading import Sheet
from register.models import ProcessingActivity, RegisterEntry, Transfer, Vendor
from register.services import transfers_owner, wanted_transfers

CREATED, UPDATED, UNCHANGED, SKIPPED = "created", "updated", "unchanged", "skipped"
ACTIONS = (CREATED, UPDATED, UNCHANGED, SKIPPED)
_MIN_CONTAINED_NAME = 4


@dataclass(slots=True)
class PlannedRow:
    parsed: ParsedRow
    action: str
    entry: RegisterEntry | None = None
    changed_fields: list[str] = field(default_factory=list)

    @property
    def problems(self) -> list[str]:
        return self.parsed.problems

    def as_dict(self) -> dict[str, Any]:
        return {
            "sheet": self.parsed.sheet,
            "row": self.parsed.row,
            "entity": "activity" if self.parsed.entity is SheetKind.ACTIVITIES else "vendor",
            "action": self.action,
            "id": str(self.entry.pk) if self.entry is not None else None,
            "name": self.parsed.name,
            "reference": self.parsed.reference,
            "changedFields": self.changed_fields,
            "problems": self.problems,
        }


@dataclass(slots=True)
class ImportPlan:
    organization: Organization
    layouts: list[SheetLayout]
    vendors: list[PlannedRow]
    activities: list[PlannedRow]
    # Normalised vendor name -> the vendor of the organization it names (existing ones).
    existing_vendors: dict[str, Vendor]
    # Sheets with no header row of a register (notes, instructions, lists of values).
    ignored_sheets: list[str] = field(default_factory=list)

    @property
    def rows(self) -> list[PlannedRow]:
        # In the order of the file: its sheets as they come, each sheet's rows top down.
        order = {layout.sheet: index for index, layout in enumerate(self.layouts)}
        return sorted(
            [*self.vendors, *self.activities],
            key=lambda r: (order.get(r.parsed.sheet, 0), r.parsed.row),
        )

    def totals(self) -> dict[str, Any]:
        def count(rows: Iterable[PlannedRow]) -> dict[str, int]:
            rows = list(rows)
            return {action: sum(r.action == action for r in rows) for action in ACTIONS}

        return {
            **count(self.rows),
            "activities": count(self.activities),
            "vendors": count(self.vendors),
        }

    @property
    def writes(self) -> bool:
        return any(row.action in (CREATED, UPDATED) for row in self.rows)


class VendorNames:
    """Finds the vendor a recipient cell names: its full name, or its name without "(...)".

    Indexed once, so that matching a value costs the same against 2,000 vendors as against
    two (comparing every alias with every value took hours on a crafted sheet): the aliases
    in a dict, sorted for the names a value begins, and in a word automaton (Aho-Corasick)
    for the names a value contains.
    """

    def __init__(self, names: Iterable[str]) -> None:
        self._aliases: dict[str, str] = {}
        for name in names:
            key = normalise(name)
            self._aliases.setdefault(key, key)
            self._aliases.setdefault(normalise(name.split("(")[0]), key)
        self._aliases.pop("", None)
        # Sorted aliases and, for each, where the next alias of another vendor starts.
        self._sorted = sorted(self._aliases)
        self._keys = [self._aliases[alias] for alias in self._sorted]
        self._next_other = list(range(1, len(self._keys) + 1))
        for index in range(len(self._keys) - 2, -1, -1):
            if self._keys[index] == self._keys[index + 1]:
                self._next_other[index] = self._next_other[index + 1]
        self._contained = _WordAutomaton(
            alias for alias in self._aliases if len(alias) >= _MIN_CONTAINED_NAME
        )

    def match(self, text: str) -> str | None:
        candidate = normalise(text)
        base = normalise(text.split("(")[0])
        for form in (candidate, base):
            if form in self._aliases:
                return self._aliases[form]
        # "Zoom" for "Zoom Video Communications, Inc.": a unique vendor starting with it.
        if len(candidate) >= _MIN_CONTAINED_NAME:
            # The aliases starting with the value and a space sort between "value " and
            # "value!" (normalised names hold only letters, digits and single spaces).
            low = bisect.bisect_left(self._sorted, candidate + " ")
            high = bisect.bisect_left(self._sorted, candidate + "!")
            if low < high and self._next_other[low] >= high:
                return self._keys[low]
        contained = self._contained.longest_in(candidate)
        return self._aliases[contained] if contained is not None else None


class _WordAutomaton:
    """Aho-Corasick over words: the longest of its names found, as whole words, in a text.

    One pass over the text's words whatever the number of names. Among names of the same
    length, the one given first wins (as max() over the names in order did).
    """

    def __init__(self, names: Iterable[str]) -> None:
        self._goto: list[dict[str, int]] = [{}]
        self._name: list[str | None] = [None]  # the name that ends at a state
        order: dict[str, int] = {}
        for name in names:
            order.setdefault(name, len(order))
            state = 0
            for word in name.split(" "):
                if word not in self._goto[state]:
                    self._goto.append({})
                    self._name.append(None)
                    self._goto[state][word] = len(self._goto) - 1
                state = self._goto[state][word]
            self._name[state] = name
        self._order = order
        # Failure links, breadth first; `_found[state]` is the longest name ending there:
        # the state's own, else its failure state's (a suffix of it, so shorter).
        self._fail = [0] * len(self._goto)
        self._found = list(self._name)
        queue = collections.deque(self._goto[0].values())
        while queue:
            state = queue.popleft()
            for word, child in self._goto[state].items():
                fallback = self._fail[state]
                while fallback and word not in self._goto[fallback]:
                    fallback = self._fail[fallback]
                self._fail[child] = self._goto[fallback].get(word, 0)
                if self._found[child] is None:
                    self._found[child] = self._found[self._fail[child]]
                queue.append(child)

    def longest_in(self, text: str) -> str | None:
        best: str | None = None
        state = 0
        for word in text.split(" "):
            while state and word not in self._goto[state]:
                state = self._fail[state]
            state = self._goto[state].get(word, 0)
            found = self._found[state]
            if found is not None and (
                best is None
                or len(found) > len(best)
                or (len(found) == len(best) and self._order[found] < self._order[best])
            ):
                best = found
        return best


def build_plan(*, organization: Organization, sheets: list[Sheet]) -> ImportPlan:
    """What importing `sheets` into the organization's register would do, row by row.

    Raises RegisterFileUnreadable when no sheet has a recognisable header row; the details
    list the headers found in each sheet and the names expected.
    """
    layouts = [(sheet, detect_layout(sheet)) for sheet in sheets]
    found = [(sheet, layout) for sheet, layout in layouts if layout is not None]
    if not found:
        raise RegisterFileUnreadable(
            "No sheet has a header row this import recognises: a register needs a column"
            " naming the processing activity (or the vendor) and at least two columns such as"
            " purpose, legal basis, data subjects or recipients.",
            details={
                "headersFound": {sheet.name: headers_found(sheet) for sheet in sheets},
                "expectedHeaders": EXPECTED_HEADERS,
            },
        )
    existing_vendors = {
        normalise(vendor.name): vendor
        for vendor in Vendor.objects.filter(organization=organization)
    }
    vendor_rows = _parse(found, SheetKind.VENDORS, match_vendor=lambda _: None)
    names = VendorNames(
        [*(vendor.name for vendor in existing_vendors.values()), *(r.name for r in vendor_rows)]
    )
    activity_rows = _parse(found, SheetKind.ACTIVITIES, match_vendor=names.match)
    return ImportPlan(
        organization=organization,
        layouts=[layout for _, layout in found],
        vendors=_decide(organization, Vendor, vendor_rows),
        activities=_decide(organization, ProcessingActivity, activity_rows),
        existing_vendors=existing_vendors,
        ignored_sheets=[sheet.name for sheet, layout in layouts if layout is None],
    )


def _parse(
    found: list[tuple[Sheet, SheetLayout]], kind: SheetKind, match_vendor: Any
) -> list[ParsedRow]:
    parsed = []
    for sheet, layout in found:
        if layout.kind is not kind:
            continue
        for number, cells in sheet.rows:
            if number <= layout.header_row:
                continue
            row = parse_row(layout=layout, row=number, cells=cells, match_vendor=match_vendor)
            if row is not None:
                parsed.append(row)
    return parsed


def _decide(
    organization: Organization,
    model: type[RegisterEntry],
    rows: list[ParsedRow],
) -> list[PlannedRow]:
    entries = list(model._default_manager.filter(organization=organization))
    by_reference = {entry.reference.strip().lower(): entry for entry in entries if entry.reference}
    by_name = {entry.name.lower(): entry for entry in entries}
    by_id = {str(entry.pk): entry for entry in entries}
    seen: dict[str, int] = {}
    names: dict[str, int] = {}
    planned = []
    for row in rows:
        if not row.name:
            planned.append(PlannedRow(parsed=row, action=SKIPPED))
            continue
        identity = (row.reference or row.name).lower()
        if identity in seen:
            row.problems.append(f"the same entry as row {seen[identity]}: the row is skipped")
            planned.append(PlannedRow(parsed=row, action=SKIPPED))
            continue
        seen[identity] = row.row
        # Another identity under a name this file already gave: the name is unique per
        # organization, so writing both would fail the whole import.
        if row.name.lower() in names:
            row.problems.append(
                f"the name is already given by row {names[row.name.lower()]}: the row is skipped"
            )
            planned.append(PlannedRow(parsed=row, action=SKIPPED))
            continue
        names[row.name.lower()] = row.row
        too_long = _too_long(model, row)
        if too_long:
            row.problems.append(too_long)
            planned.append(PlannedRow(parsed=row, action=SKIPPED))
            continue
        # The register's own id (the export's "Register ID") first: a row renamed in the
        # spreadsheet is a rename. An id of no entry here (a file of another organization)
        # matches nothing, and the reference or the name decide.
        entry = by_id.get(row.entry_id.lower()) if row.entry_id else None
        entry = entry or (by_reference.get(row.reference.lower()) if row.reference else None)
        entry = entry or by_name.get(row.name.lower())
        clash = by_name.get(row.name.lower())
        if entry is not None and clash is not None and clash.pk != entry.pk:
            row.problems.append(
                f"renaming to '{row.name}' clashes with another entry of that name: skipped"
            )
            planned.append(PlannedRow(parsed=row, action=SKIPPED, entry=entry))
            continue
        if model is Vendor and {"country", "transfer_mechanism"} & row.values.keys():
            _check_vendor_transfer(row, entry)
        if entry is None:
            planned.append(PlannedRow(parsed=row, action=CREATED))
            continue
        changed = _changed_fields(entry, row)
        planned.append(
            PlannedRow(parsed=row, action=UPDATED if changed else UNCHANGED, entry=entry,
                       changed_fields=changed)
        )  # fmt: skip
    return planned


def _too_long(model: type[RegisterEntry], row: ParsedRow) -> str:
    """What is over its column's length (the database would refuse the whole import)."""
    for name, value in {"name": row.name, **row.values}.items():
        limit = getattr(model._meta.get_field(name), "max_length", None)
        if limit and isinstance(value, str) and len(value) > limit:
            return f"{name} is longer than {limit} characters: the row is skipped"
    return ""


def _changed_fields(entry: RegisterEntry, row: ParsedRow) -> list[str]:
    """The fields whose cells say something else than the entry: compared as cells read
    (cells.comparable), so that a value the file cannot tell apart from the stored one (an
    object's details no cell carries) is no change, and is not written (applying.py)."""
    changed = [
        name
        for name, value in row.values.items()
        if comparable(name, getattr(entry, name)) != comparable(name, value)
    ]
    if entry.name != row.name:
        changed.insert(0, "name")
    if row.vendor_keys is not None and isinstance(entry, ProcessingActivity):
        linked = {normalise(vendor.name) for vendor in entry.vendors.all()}
        if linked != set(row.vendor_keys):
            changed.append("vendors")
    if _transfers_change(entry, row, changed):
        changed.append("transfers")
    return changed


def _check_vendor_transfer(row: ParsedRow, entry: RegisterEntry | None) -> None:
    """A problem for a vendor outside the EEA without a transfer mechanism.

    A column the sheet lacks keeps the entry's current value (a sheet with countries but no
    mechanism column does not erase the mechanisms on file).
    """

    def value(name: str) -> str:
        if name in row.values:
            return str(row.values[name] or "")
        return str(getattr(entry, name)) if entry is not None else ""

    country = value("country")
    if (
        country
        and not is_in_eea(country)
        and covering_adequacy(country) is None  # else Art. 45 is the mechanism
        and value("transfer_mechanism") in ("", "none")
    ):
        row.problems.append(f"outside the EEA ({country}) with no transfer mechanism")


def _transfers_change(entry: RegisterEntry, row: ParsedRow, changed: list[str]) -> bool:
    """Whether the entry's Transfers differ from what its imported fields call for (the
    `changed` ones: the others keep their values), by the rule every register write follows
    (register.services.wanted_transfers)."""
    planned = copy.copy(entry)
    for name, value in {**row.values, "name": row.name}.items():
        if name in changed or name == "name":
            setattr(planned, name, value)
    current = {
        (transfer.recipient, transfer.country): {
            "recipient": transfer.recipient, "country": transfer.country,
            "mechanism": transfer.mechanism, "mechanism_wording": transfer.mechanism_wording,
        }
        for transfer in Transfer.objects.filter(**transfers_owner(entry))
    }  # fmt: skip
    return current != wanted_transfers(planned)
