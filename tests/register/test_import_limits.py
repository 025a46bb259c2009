"""The register import's read-side bounds: a crafted file costs little and says what it hit.

Sheets per workbook, cells per file (empty ones included), characters per cell, values per
cell, text per file, the delimiter sniffer's sample, the headers echoed in an error, and the
vendor matcher's work. CPU bounds are asserted by their effect: how many interpreter steps
(tests/support/steps.py) or how much input a stage gets, never by a clock (bench/ times
them: bench/bench_register_import.py).
"""

from __future__ import annotations

import contextlib
import csv
import json
import random

import pytest

from organizations.models import Organization
from register.importing.errors import RegisterFileUnreadable
from register.importing.headers import (
    _LOOKUP,
    _MIN_PREFIX_CHARS,
    SheetKind,
    detect_layout,
    field_for,
    normalise,
)
from register.importing.parsing import parse_row
from register.importing.planning import VendorNames, build_plan
from register.importing.reading import read_register_file
from tests.support.hostile.register_files import (
    empty_cells_workbook,
    joined_list_workbook,
    long_headers_workbook,
    many_vendors_workbook,
    padded_workbook,
    sniffer_line,
)
from tests.support.steps import steps_of


def refusal(content: bytes, file_name: str = "register.xlsx") -> RegisterFileUnreadable:
    with pytest.raises(RegisterFileUnreadable) as refused:
        read_register_file(content=content, file_name=file_name)
    return refused.value


def parsed_rows(content: bytes, file_name: str = "register.xlsx") -> list:
    (sheet,) = read_register_file(content=content, file_name=file_name)
    layout = detect_layout(sheet)
    return [
        parse_row(layout=layout, row=number, cells=cells, match_vendor=lambda text: None)
        for number, cells in sheet.rows
        if number > layout.header_row
    ]


# -- sheets and cells -------------------------------------------------------------------------


def test_it_refuses_a_workbook_with_more_sheets_than_the_limit(settings):
    settings.REGISTER_IMPORT_MAX_SHEETS = 3

    refused = refusal(padded_workbook(sheets=4, last_row=10))

    assert refused.details["limit"] == {"setting": "REGISTER_IMPORT_MAX_SHEETS", "maximum": 3}
    assert "more than 3 sheets" in refused.message


def test_a_workbook_with_as_many_sheets_as_the_limit_is_read(settings):
    settings.REGISTER_IMPORT_MAX_SHEETS = 3

    sheets = read_register_file(content=padded_workbook(sheets=3, last_row=10), file_name="r.xlsx")

    assert [sheet.name for sheet in sheets] == ["S1", "S2", "S3"]


def test_a_sheet_padded_to_its_last_row_costs_no_more_than_one_padded_to_row_fifty():
    near, near_steps = steps_of(
        read_register_file, content=padded_workbook(last_row=50), file_name="r.xlsx"
    )
    far, far_steps = steps_of(
        read_register_file, content=padded_workbook(last_row=5_000), file_name="r.xlsx"
    )

    assert [number for number, _ in far[0].rows] == [number for number, _ in near[0].rows] == [1]
    # The rows in between are not in the file: reading them would be work for nothing.
    assert far_steps <= near_steps + 100


def test_a_sheet_padded_to_row_1048576_is_read_as_its_header_row():
    (sheet,) = read_register_file(content=padded_workbook(), file_name="r.xlsx")

    assert [number for number, _ in sheet.rows] == [1]


def test_every_cell_the_file_holds_counts_towards_the_cell_limit_empty_ones_included(settings):
    settings.REGISTER_IMPORT_MAX_CELLS = 1_000

    refused = refusal(empty_cells_workbook(rows=100, columns=20))  # 2,003 cells, all empty

    assert refused.details["limit"] == {"setting": "REGISTER_IMPORT_MAX_CELLS", "maximum": 1000}
    (sheet,) = read_register_file(
        content=empty_cells_workbook(rows=40, columns=20), file_name="r.xlsx"
    )
    assert len(sheet.rows) == 1


def test_the_cell_limit_counts_the_empty_rows_and_cells_of_a_csv_too(settings):
    settings.REGISTER_IMPORT_MAX_CELLS = 1_000
    content = b"Name;Purpose;Legal basis\n" + b";;;\n" * 300 + b"\n" * 300

    refused = refusal(content, "register.csv")

    assert refused.details["limit"]["setting"] == "REGISTER_IMPORT_MAX_CELLS"


def test_a_file_whose_cells_add_up_to_more_text_than_the_limit_is_refused(settings):
    settings.REGISTER_IMPORT_MAX_TEXT_CHARS = 100_000
    # 99 columns pointing at one 200-character string: 19,800 characters a row, counted
    # each time a cell shows it (joined and split, every copy would be held).
    content = joined_list_workbook(rows=20, columns=99, values_per_cell=100)

    refused = refusal(content)

    assert refused.details["limit"] == {
        "setting": "REGISTER_IMPORT_MAX_TEXT_CHARS",
        "maximum": 100_000,
    }


# -- per cell: cut, and said on the row -------------------------------------------------------


def test_a_cell_longer_than_the_limit_is_cut_and_the_row_says_so(settings):
    settings.REGISTER_IMPORT_MAX_CELL_CHARS = 100
    content = (
        "Verarbeitungstätigkeit;Zweck;Rechtsgrundlage;Beschreibung\n"
        f"Lohnabrechnung;Gehalt;Art. 6 Abs. 1 lit. b DSGVO;{'d' * 150}\n"
    ).encode()

    (row,) = parsed_rows(content, "register.csv")

    assert row.values["description"] == "d" * 100
    assert row.problems == [
        "Beschreibung: longer than 100 characters; only the first 100 are imported"
        " (limit: REGISTER_IMPORT_MAX_CELL_CHARS)"
    ]


def test_a_cell_with_more_values_than_the_limit_keeps_the_first_and_the_row_says_so(settings):
    settings.REGISTER_IMPORT_MAX_VALUES_PER_CELL = 10
    # Three "Purpose" columns of 8 values each, joined: 24 values; "Data subjects": 8.
    (row,) = parsed_rows(joined_list_workbook(rows=1, columns=4, values_per_cell=8))

    assert row.values["purposes"] == ["x"] * 10
    assert row.values["data_subjects"] == ["x"] * 8
    assert row.problems == [
        "purposes: more than 10 values in the cell; only the first 10 are imported"
        " (limit: REGISTER_IMPORT_MAX_VALUES_PER_CELL)"
    ]


def test_a_cell_within_the_value_limit_is_read_whole(settings):
    settings.REGISTER_IMPORT_MAX_VALUES_PER_CELL = 24

    (row,) = parsed_rows(joined_list_workbook(rows=1, columns=4, values_per_cell=8))

    assert row.values["purposes"] == ["x"] * 24
    assert row.problems == []


# -- the CSV delimiter sniffer ------------------------------------------------------------------


def test_the_delimiter_is_sniffed_from_at_most_4_kb(monkeypatch):
    samples: list[int] = []
    sniff = csv.Sniffer.sniff

    def recording_sniff(self, sample, delimiters=None):  # the real sniffer, its input noted
        samples.append(len(sample))
        return sniff(self, sample, delimiters)

    monkeypatch.setattr(csv.Sniffer, "sniff", recording_sniff)

    # The line is no register; what matters is what the sniffer was given.
    with contextlib.suppress(RegisterFileUnreadable):
        read_register_file(content=sniffer_line(characters=20_000), file_name="r.csv")

    assert samples
    assert max(samples) <= 4096


def test_a_csv_is_still_sniffed_by_its_first_lines():
    header = "Verarbeitungstätigkeit;Zweck;Rechtsgrundlage"
    content = (header + "\n" + "Lohn;Gehalt;Vertrag\n" * 2_000).encode()

    (sheet,) = read_register_file(content=content, file_name="r.csv")

    assert sheet.rows[0] == (1, tuple(header.split(";")))


# -- headers: what the error echoes, what detection costs ---------------------------------------


def test_the_headers_found_in_the_error_are_a_few_short_ones():
    sheets = read_register_file(
        content=long_headers_workbook(sheets=3, columns=100, characters=10_000),
        file_name="r.xlsx",
    )

    with pytest.raises(RegisterFileUnreadable) as refused:
        build_plan(organization=Organization(name="Unsaved"), sheets=sheets)

    found = refused.value.details["headersFound"]
    assert set(found) == {"S1", "S2", "S3"}
    for headers in found.values():
        assert 0 < len(headers) <= 20
        assert all(len(header) <= 100 for header in headers)
        assert headers[0].startswith("zq zq")
        assert headers[0].endswith("…")
    assert len(json.dumps(refused.value.details)) < 20_000


def test_short_headers_found_are_shown_as_they_are():
    (sheet,) = read_register_file(content=b"Kunde;Umsatz;Datum\nMeier;100;1.1.\n",
                                  file_name="export.csv")  # fmt: skip

    with pytest.raises(RegisterFileUnreadable) as refused:
        build_plan(organization=Organization(name="Unsaved"), sheets=[sheet])

    assert refused.value.details["headersFound"] == {"export.csv": ["Kunde", "Umsatz", "Datum"]}


def test_a_very_long_header_costs_no_more_to_recognise_than_a_long_one():
    def sheet_of(characters: int):
        content = long_headers_workbook(sheets=1, columns=20, characters=characters)
        return read_register_file(content=content, file_name="r.xlsx")[0]

    _, long_steps = steps_of(detect_layout, sheet_of(1_000))
    _, very_long_steps = steps_of(detect_layout, sheet_of(10_000))

    assert very_long_steps <= long_steps * 1.2


def _leading_field_by_scanning(header: str, kind: SheetKind) -> str | None:
    """field_for's leading match as it was specified: scan every known name."""
    key = normalise(header)
    lookup = _LOOKUP[kind]
    if key in lookup:
        return lookup[key]
    leading = [
        name for name in lookup if len(name) >= _MIN_PREFIX_CHARS and key.startswith(name + " ")
    ]
    return lookup[max(leading, key=len)] if leading else None


def test_headers_are_recognised_exactly_as_a_scan_of_every_known_name_would():
    known = [name for table in _LOOKUP.values() for name in table]
    tails = ["", " (Art. 30)", " der Verarbeitung", " s", " 1", " - bitte ausfüllen", "x"]
    headers = [name + tail for name in known for tail in tails]
    headers += [name.upper().replace(" ", "-") + " (optional)" for name in known]

    for kind in SheetKind:
        for header in headers:
            assert field_for(header, kind) == _leading_field_by_scanning(header, kind), header


# -- vendor matching ---------------------------------------------------------------------------


def _match_by_scanning(names: list[str], text: str) -> str | None:
    """VendorNames.match as it was specified: compare the value with every alias."""
    aliases: dict[str, str] = {}
    for name in names:
        key = normalise(name)
        aliases.setdefault(key, key)
        aliases.setdefault(normalise(name.split("(")[0]), key)
    aliases.pop("", None)
    candidate = normalise(text)
    base = normalise(text.split("(")[0])
    for form in (candidate, base):
        if form in aliases:
            return aliases[form]
    starting = {
        key for alias, key in aliases.items()
        if len(candidate) >= 4 and alias.startswith(candidate + " ")
    }  # fmt: skip
    if len(starting) == 1:
        return starting.pop()
    padded = f" {candidate} "
    contained = [alias for alias in aliases if len(alias) >= 4 and f" {alias} " in padded]
    return aliases[max(contained, key=len)] if contained else None


def test_vendors_are_matched_exactly_as_a_scan_of_every_alias_would():
    randomly = random.Random(25)
    words = ["Zoom", "Video", "Communications", "Inc", "Acme", "GmbH", "Cloud", "AWS",
             "Amazon", "Web", "Services", "EU", "DATEV", "eG", "SAP", "SE", "Data", "x",
             "Ab", "Abcd", "Microsoft", "Ireland", "Operations", "Ltd"]  # fmt: skip

    def phrase(length: int) -> str:
        return " ".join(randomly.choice(words) for _ in range(length))

    for _ in range(40):
        names = [phrase(randomly.randint(1, 4)) for _ in range(randomly.randint(1, 12))]
        names += [f"{phrase(2)} ({phrase(1)})" for _ in range(randomly.randint(0, 3))]
        matcher = VendorNames(names)
        for _ in range(60):
            text = randomly.choice(
                [phrase(randomly.randint(1, 6)), f"{phrase(2)} ({phrase(2)})",
                 randomly.choice(names), randomly.choice(names).upper() + ", Berlin"]
            )  # fmt: skip
            assert matcher.match(text) == _match_by_scanning(names, text), (names, text)


def test_matching_a_value_costs_the_same_against_two_thousand_vendors_as_against_two():
    few = VendorNames([f"Vendor {number} GmbH" for number in range(2)])
    many = VendorNames([f"Vendor {number} GmbH" for number in range(2_000)])

    for text in ("xxxx", "Vendor 1", "Payroll by Vendor 1 GmbH, Berlin", "Zoom (USA)"):
        _, few_steps = steps_of(few.match, text)
        _, many_steps = steps_of(many.match, text)

        assert many_steps <= few_steps + 20, text


def test_the_crafted_vendor_sheet_plans_its_recipients_without_scanning_every_vendor():
    (vendors, activities) = read_register_file(
        content=many_vendors_workbook(vendors=300, values_per_cell=50), file_name="r.xlsx"
    )
    names = VendorNames([cells[0] for _, cells in vendors.rows[1:]])
    layout = detect_layout(activities)
    number, cells = activities.rows[1]

    _, steps = steps_of(parse_row, layout=layout, row=number, cells=cells, match_vendor=names.match)

    # 4 columns x 50 values "x", each looked up once: far below 200 x 600 alias compares.
    assert steps < 60_000
