"""ODS (OpenDocument spreadsheets): detected by the `mimetype` member, read as rows by the
register import, refused for an asset upload, and bounded before calamine opens the file."""

from __future__ import annotations

import dataclasses
import datetime
import io
import zipfile

import pytest

from formats import FileKind, InvalidFileType, RowLimits, RowsRefused, ZipLimits, format_of
from formats.detection import detect_file_type
from tests.support.ods import ods_file

LIMITS = RowLimits(
    max_rows=5_000, max_columns=100, max_sheets=5, max_cells=100_000, max_chars=1_000_000,
    max_cell_chars=10_000,
)  # fmt: skip
REGISTER = [
    ("Verzeichnis", [["Verarbeitungstätigkeit", "Zwecke"], ["Lohnabrechnung", "Lohn\nSteuer"]])
]


def _rows(content: bytes, limits: RowLimits = LIMITS):  # type: ignore[no-untyped-def]
    read_rows = format_of(FileKind.ODS).read_rows
    assert read_rows is not None
    return read_rows(content, "register.ods", limits)


def test_it_detects_an_ods_by_its_mimetype_member_for_a_reader_of_rows():
    content = ods_file(REGISTER)

    for name in ("register.ods", "register"):
        kind = detect_file_type(content, declared_name=name, declared_content_type=None,
                                as_rows=True)  # fmt: skip
        assert kind is FileKind.ODS


@pytest.mark.parametrize("name", ["register.ods", "register"])
def test_an_asset_upload_refuses_an_ods_and_says_what_to_do(name):
    with pytest.raises(InvalidFileType, match="register import only; save the file as XLSX"):
        detect_file_type(ods_file(REGISTER), declared_name=name, declared_content_type=None)


def test_it_refuses_an_ods_named_as_an_xlsx():
    with pytest.raises(InvalidFileType, match="content is ODS"):
        detect_file_type(ods_file(REGISTER), declared_name="register.xlsx",
                         declared_content_type=None, as_rows=True)  # fmt: skip


def test_it_reads_the_sheets_as_rows_with_a_cell_of_several_paragraphs_as_lines():
    (sheet,) = _rows(ods_file(REGISTER))

    assert sheet.name == "Verzeichnis"
    assert sheet.rows == (
        (1, ("Verarbeitungstätigkeit", "Zwecke")),
        (2, ("Lohnabrechnung", "Lohn\nSteuer")),
    )


def test_it_reads_dates_as_dates_and_keeps_row_numbers_past_empty_rows():
    date_cell = '<table:table-cell office:value-type="date" office:date-value="2027-01-31"/>'
    content = ods_file(
        [("S", [["Name"], []])], after_rows=f"<table:table-row>{date_cell}</table:table-row>"
    )

    (sheet,) = _rows(content)

    assert sheet.rows == ((1, ("Name",)), (3, (datetime.date(2027, 1, 31),)))


def test_it_refuses_repeated_cells_past_the_cell_bound_before_calamine_expands_them():
    repeated = (
        '<table:table-row table:number-rows-repeated="2000"><table:table-cell'
        ' office:value-type="string" table:number-columns-repeated="2000"><text:p>x</text:p>'
        "</table:table-cell></table:table-row>"
    )

    with pytest.raises(RowsRefused) as refused:
        _rows(ods_file(REGISTER, after_rows=repeated))

    assert refused.value.limit == "cells"


def test_it_does_not_count_the_repeated_empty_cells_libreoffice_writes_after_a_table():
    empty = (
        '<table:table-row table:number-rows-repeated="1048000">'
        '<table:table-cell table:number-columns-repeated="1024"/></table:table-row>'
    )

    (sheet,) = _rows(ods_file(REGISTER, after_rows=empty))

    assert len(sheet.rows) == 2


def test_it_refuses_a_document_type_in_the_content():
    head = '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">]>'

    with pytest.raises(RowsRefused, match="document type"):
        _rows(ods_file(REGISTER, head=head))


def test_it_refuses_a_zip_bomb_before_reading_it():
    output = io.BytesIO()
    with zipfile.ZipFile(output, "w") as archive:
        archive.writestr(
            zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet"
        )
        archive.writestr("content.xml", b" " * (20 * 2**20), compress_type=zipfile.ZIP_DEFLATED)
    limits = dataclasses.replace(LIMITS, zip=ZipLimits(ratio_check_min_bytes=2**20))

    with pytest.raises(RowsRefused, match="zip bomb"):
        _rows(output.getvalue(), limits)


def test_it_refuses_more_sheets_than_the_bound():
    sheets = [(f"S{number}", [["a"]]) for number in range(6)]

    with pytest.raises(RowsRefused) as refused:
        _rows(ods_file(sheets))

    assert refused.value.limit == "sheets"
