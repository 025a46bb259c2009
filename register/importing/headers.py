"""Which column holds what: header names of common register templates, in the five document
languages.

The names are data (header_synonyms.json: kind -> field -> language -> spellings), taken from
the templates DPOs actually start from: the CNIL's "registre des activités de traitement", the
German "Verzeichnis von Verarbeitungstätigkeiten" templates of the DSK and Bitkom, the ICO's
documentation template, the AEPD's and the Garante's registers, and this project's own XLSX
record, which must import again. A header and a known name are compared folded the same way
(`header_fold`: case, accents, punctuation, "ß" as "ss", "ae"/"oe"/"ue" as "a"/"o"/"u", an
Art. 30 lettering such as "(b)" dropped), exactly first, then by a leading match so that
"Zweck der Verarbeitung (Art. 30 Abs. 1 lit. b)" still reads as the purpose.

A sheet is an activities sheet or a vendors sheet by its headers (plus a hint from its
name): each kind has headers that only it uses ("Legal basis" against "DPA status").
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from register.importing.reading import Cell, Sheet

HEADER_SEARCH_ROWS = 15
# A leading match only counts for names at least this long ("name" must match exactly).
_MIN_PREFIX_CHARS = 5
# What an error or a plan shows of the headers a sheet has: a sheet may hold 100 headers of
# 10,000 characters each, and echoing them made a 1 MB file a 2 GB error body.
HEADERS_SHOWN = 20
HEADER_SHOWN_CHARS = 100


class SheetKind(StrEnum):
    ACTIVITIES = "activities"
    VENDORS = "vendors"


def normalise(text: str) -> str:
    """Lower case, no accents, "ß" as "ss", punctuation as single spaces."""
    text = unicodedata.normalize("NFKD", str(text).replace("ß", "ss").replace("ẞ", "ss"))
    text = "".join(char for char in text if not unicodedata.combining(char)).lower()
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text).split())


# The Art. 30(1) lettering in front of a header ("(b) Purposes", "f) Löschfristen").
_LETTERING = re.compile(r"^\s*\(?[a-zA-Z]\)\s+")
# German umlauts typed as two letters fold like the umlaut itself ("Loeschfristen" is
# "Löschfristen"): both sides fold alike, so an English "queue" folding to "queu" is harmless.
_DIGRAPHS = re.compile(r"(?<=[aou])e")


def header_fold(text: str) -> str:
    """A header as it is compared with the known names (which are folded the same way)."""
    return _DIGRAPHS.sub("", normalise(_LETTERING.sub("", str(text))))


SYNONYMS_FILE = Path(__file__).with_name("header_synonyms.json")
_DATA = json.loads(SYNONYMS_FILE.read_text(encoding="utf-8"))
LANGUAGES: tuple[str, ...] = tuple(_DATA["languages"])


def _spellings(by_language: dict[str, list[str]]) -> tuple[str, ...]:
    return tuple(name for language in LANGUAGES for name in by_language.get(language, ()))


# field -> every known spelling (all languages), per kind of sheet.
ACTIVITY_HEADERS: dict[str, tuple[str, ...]] = {
    name: _spellings(languages) for name, languages in _DATA["activities"].items()
}
VENDOR_HEADERS: dict[str, tuple[str, ...]] = {
    name: _spellings(languages) for name, languages in _DATA["vendors"].items()
}

# Fields whose values may be spread over several columns; their cells are joined.
MULTI_COLUMN_FIELDS = frozenset(
    {
        "purposes", "data_subjects", "data_categories", "special_categories", "recipients",
        "processors", "third_countries", "security_measures", "systems", "sub_processors",
    }
)  # fmt: skip
_HEADERS = {SheetKind.ACTIVITIES: ACTIVITY_HEADERS, SheetKind.VENDORS: VENDOR_HEADERS}
# Fields that tell the two kinds apart (the others, such as "name" or "role", are shared).
_DISTINCTIVE = {
    kind: set(table) - set(_HEADERS[other])
    for kind, table, other in (
        (SheetKind.ACTIVITIES, ACTIVITY_HEADERS, SheetKind.VENDORS),
        (SheetKind.VENDORS, VENDOR_HEADERS, SheetKind.ACTIVITIES),
    )
}
_VENDOR_SHEET_NAMES = tuple(header_fold(name) for name in _spellings(_DATA["vendor_sheet_names"]))


def _lookup(table: dict[str, tuple[str, ...]]) -> dict[str, str]:
    """Folded name -> field; two fields sharing a folded name is an error in the data."""
    lookup: dict[str, str] = {}
    for name, spellings in table.items():
        for spelling in spellings:
            key = header_fold(spelling)
            if lookup.setdefault(key, name) != name:
                raise ValueError(
                    f"{SYNONYMS_FILE.name}: '{spelling}' names {lookup[key]} and {name}"
                )
    return lookup


_LOOKUP = {kind: _lookup(table) for kind, table in _HEADERS.items()}
# No known name is longer: only this much of a header can name a field, so a 10,000-character
# cell costs no more to look up than a short one.
_LONGEST_NAME = max(len(name) for lookup in _LOOKUP.values() for name in lookup)
_HEADER_READ_CHARS = 4 * _LONGEST_NAME


def header_key(header: str) -> str:
    """The header as it is compared: normalised, and only as long as a name can be."""
    return header_fold(str(header)[:_HEADER_READ_CHARS])[: _LONGEST_NAME + 1]


def field_for(header: str, kind: SheetKind) -> str | None:
    """The field a header names in a sheet of `kind`, or None."""
    return _field_for_key(header_key(header), kind)


def _field_for_key(key: str, kind: SheetKind) -> str | None:
    if not key:
        return None
    lookup = _LOOKUP[kind]
    if key in lookup:
        return lookup[key]
    # The longest known name the header starts with, followed by more words: looked up at
    # each word boundary (longest first) rather than by comparing every name.
    for end in reversed([index for index, char in enumerate(key) if char == " "]):
        if end >= _MIN_PREFIX_CHARS and key[:end] in lookup:
            return lookup[key[:end]]
    return None


def shown_header(header: str) -> str:
    """A header as errors and plans show it: at most HEADER_SHOWN_CHARS characters."""
    text = str(header)
    return text if len(text) <= HEADER_SHOWN_CHARS else text[: HEADER_SHOWN_CHARS - 1] + "…"


@dataclass(slots=True)
class SheetLayout:
    """Where a sheet's header row is and which column holds which field."""

    sheet: str
    kind: SheetKind
    header_row: int
    columns: dict[int, str] = field(default_factory=dict)  # 0-based column -> field
    headers: dict[int, str] = field(default_factory=dict)  # 0-based column -> header text
    ignored: list[str] = field(default_factory=list)  # headers that name nothing known

    def as_dict(self) -> dict[str, object]:
        return {
            "sheet": self.sheet,
            "kind": self.kind.value,
            "headerRow": self.header_row,
            "columns": {
                shown_header(self.headers[column]): name for column, name in self.columns.items()
            },
            "ignoredColumns": [shown_header(header) for header in self.ignored[:HEADERS_SHOWN]],
        }


def _layout(
    sheet: Sheet, row_number: int, cells: tuple[Cell, ...], keys: list[str], kind: SheetKind
) -> SheetLayout:
    layout = SheetLayout(sheet=sheet.name, kind=kind, header_row=row_number)
    taken: set[str] = set()
    for column, cell in enumerate(cells):
        header = str(cell).strip()
        if not header:
            continue
        name = _field_for_key(keys[column], kind)
        layout.headers[column] = header
        # The first column naming a field wins: "Name" after "Verarbeitungstätigkeit" is
        # then just an unknown column, not a second name. List fields take every column
        # naming them ("Finalité principale", "Sous-finalité 1", "Sous-finalité 2").
        if name is None or (name in taken and name not in MULTI_COLUMN_FIELDS):
            layout.ignored.append(header)
            continue
        taken.add(name)
        layout.columns[column] = name
    return layout


def _score(layout: SheetLayout, sheet_name: str) -> int:
    fields = set(layout.columns.values())
    if "name" not in fields:
        return 0
    score = len(fields & _DISTINCTIVE[layout.kind])
    named_like_vendors = any(word in header_fold(sheet_name) for word in _VENDOR_SHEET_NAMES)
    if layout.kind is SheetKind.VENDORS and named_like_vendors:
        score += 1
    return score


def detect_layout(sheet: Sheet) -> SheetLayout | None:
    """The header row and kind of the sheet that fit best, or None for no register sheet.

    The header row is searched among the first HEADER_SEARCH_ROWS non-empty rows, since
    templates put a title, the controller's name and a date above the table.
    """
    best: tuple[int, SheetLayout] | None = None
    for row_number, cells in sheet.rows[:HEADER_SEARCH_ROWS]:
        keys = [header_key(str(cell).strip()) for cell in cells]  # once for both kinds
        for kind in SheetKind:
            layout = _layout(sheet, row_number, cells, keys, kind)
            score = _score(layout, sheet.name)
            # At least two distinctive columns, so that a title row is never a header.
            if score >= 2 and (best is None or score > best[0]):
                best = (score, layout)
    return best[1] if best else None


def headers_found(sheet: Sheet) -> list[str]:
    """The texts of the sheet's first non-empty row (shown when no header row is found): the
    first HEADERS_SHOWN of them, each cut to HEADER_SHOWN_CHARS."""
    for _, cells in sheet.rows[:1]:
        found = [str(cell) for cell in cells if str(cell).strip()]
        return [shown_header(header) for header in found[:HEADERS_SHOWN]]
    return []


def _suggestion(kind: str, name: str) -> str:
    """ "Retention period / Löschfrist / Durée de conservation / ...": a field's first
    spelling in each language."""
    spellings = _DATA[kind][name]
    return " / ".join(dict.fromkeys(spellings[language][0] for language in LANGUAGES))


# What the error that finds no header row suggests, per kind (the names users recognise).
EXPECTED_HEADERS: dict[str, list[str]] = {
    kind: [_suggestion(kind, name) for name in names] for kind, names in _DATA["suggested"].items()
}
