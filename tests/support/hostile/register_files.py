"""Crafted register-import files (the XLSX written by hand, stdlib only), scaled down.

Copied from the review's generators for issue 25 item 2: `padded_workbook` (a sheet whose
one empty cell sits at row 1,048,576), `sniffer_line` (a CSV line that makes csv.Sniffer's
quote regex quadratic), `joined_list_workbook` (many "Purpose" columns pointing at one long
"x;x;..." shared string), `long_headers_workbook` (no register header, long unknown headers
echoed back in the error) and `many_vendors_workbook` (recipient cells matched against
thousands of vendors). Every function returns the file's bytes.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence

_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_RELATIONSHIPS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PACKAGE_RELATIONSHIPS = "http://schemas.openxmlformats.org/package/2006/relationships"
_XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
_WORKSHEET_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"


def column_letter(index: int) -> str:
    """The letters of the 0-based column `index` (0 -> A, 26 -> AA)."""
    letters = ""
    index += 1
    while index:
        index, remainder = divmod(index - 1, 26)
        letters = chr(65 + remainder) + letters
    return letters


def inline_cell(reference: str, text: str) -> str:
    return f'<c r="{reference}" t="inlineStr"><is><t>{text}</t></is></c>'


def shared_cell(reference: str, index: int) -> str:
    return f'<c r="{reference}" t="s"><v>{index}</v></c>'


def workbook(sheets: Sequence[tuple[str, str]], shared_strings: Sequence[str] = ()) -> bytes:
    """An XLSX of `sheets` ((name, sheetData inner XML) each) and a shared-string table."""
    content_types = [
        f'{_XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">',
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
        'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>',
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
        'officedocument.spreadsheetml.sheet.main+xml"/>',
        '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.'
        'openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>',
    ]
    book = [f'{_XML}<workbook xmlns="{_MAIN}" xmlns:r="{_RELATIONSHIPS}"><sheets>']
    relations = [f'{_XML}<Relationships xmlns="{_PACKAGE_RELATIONSHIPS}">']
    for number, (name, _) in enumerate(sheets, start=1):
        content_types.append(
            f'<Override PartName="/xl/worksheets/sheet{number}.xml"'
            f' ContentType="{_WORKSHEET_TYPE}"/>'
        )
        book.append(f'<sheet name="{name}" sheetId="{number}" r:id="rId{number}"/>')
        relations.append(
            f'<Relationship Id="rId{number}" Type="{_RELATIONSHIPS}/worksheet"'
            f' Target="worksheets/sheet{number}.xml"/>'
        )
    content_types.append("</Types>")
    book.append("</sheets></workbook>")
    relations.append(
        f'<Relationship Id="rId{len(sheets) + 1}" Type="{_RELATIONSHIPS}/sharedStrings"'
        ' Target="sharedStrings.xml"/></Relationships>'
    )
    strings = "".join(f"<si><t>{text}</t></si>" for text in shared_strings)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "".join(content_types))
        archive.writestr(
            "_rels/.rels",
            f'{_XML}<Relationships xmlns="{_PACKAGE_RELATIONSHIPS}"><Relationship Id="rId1"'
            f' Type="{_RELATIONSHIPS}/officeDocument" Target="xl/workbook.xml"/>'
            "</Relationships>",
        )
        archive.writestr("xl/workbook.xml", "".join(book))
        archive.writestr("xl/_rels/workbook.xml.rels", "".join(relations))
        archive.writestr("xl/sharedStrings.xml", f'{_XML}<sst xmlns="{_MAIN}">{strings}</sst>')
        for number, (_, rows) in enumerate(sheets, start=1):
            archive.writestr(
                f"xl/worksheets/sheet{number}.xml",
                f'{_XML}<worksheet xmlns="{_MAIN}"><sheetData>{rows}</sheetData></worksheet>',
            )
    return buffer.getvalue()


def padded_workbook(*, sheets: int = 1, last_row: int = 1_048_576) -> bytes:
    """Sheets of a register header row and one empty cell at `last_row` (read-only openpyxl
    pads every row in between: ~6 s of CPU per sheet at row 1,048,576 before the fix)."""
    header = (
        '<row r="1">'
        + inline_cell("A1", "Name of processing activity")
        + inline_cell("B1", "Purpose")
        + inline_cell("C1", "Legal basis")
        + "</row>"
    )
    rows = header + f'<row r="{last_row}"><c r="A{last_row}"/></row>'
    return workbook([(f"S{number}", rows) for number in range(1, sheets + 1)])


def empty_cells_workbook(*, rows: int, columns: int) -> bytes:
    """A register header, then `rows` rows of `columns` empty (styled) cells each, as Excel
    writes a pre-formatted table: every one of them is in the file and costs parsing."""
    header = (
        '<row r="1">'
        + inline_cell("A1", "Name of processing activity")
        + inline_cell("B1", "Purpose")
        + inline_cell("C1", "Legal basis")
        + "</row>"
    )
    body = "".join(
        f'<row r="{row}">'
        + "".join(f'<c r="{column_letter(column)}{row}" s="1"/>' for column in range(columns))
        + "</row>"
        for row in range(2, rows + 2)
    )
    return workbook([("Register", header + body)])


def sniffer_line(*, characters: int = 65_535) -> bytes:
    """One CSV line ',"x,"x,"x...' (13.4 s of csv.Sniffer at 64 KB before the fix)."""
    return (',"x' * (characters // 3 + 1))[:characters].encode()


def joined_list_workbook(*, rows: int, columns: int, values_per_cell: int) -> bytes:
    """A name column, then `columns` columns (all "Purpose" but the last, "Data subjects")
    all pointing at one shared "x;x;..." string of `values_per_cell` values: the "Purpose"
    columns are joined, then split into values (99 columns: ~495,000 values a row)."""
    strings = ["x;" * values_per_cell, "Processing activity", "Purpose", "Data subjects"]
    strings += [f"Activity {number}" for number in range(rows)]
    header = (
        '<row r="1">'
        + shared_cell("A1", 1)
        + "".join(
            shared_cell(f"{column_letter(c)}1", 3 if c == columns else 2)
            for c in range(1, columns + 1)
        )
        + "</row>"
    )
    body = "".join(
        f'<row r="{row}">'
        + shared_cell(f"A{row}", row + 2)
        + "".join(shared_cell(f"{column_letter(c)}{row}", 0) for c in range(1, columns + 1))
        + "</row>"
        for row in range(2, rows + 2)
    )
    return workbook([("Register", header + body)], strings)


def long_headers_workbook(*, sheets: int, columns: int = 100, characters: int = 10_000) -> bytes:
    """Sheets with no register header: one row of `columns` cells of one long shared string
    (before the fix, the error's `headersFound` echoed every one in full)."""
    long_text = ("zq " * (characters // 3 + 1))[:characters]
    row = (
        '<row r="1">'
        + "".join(shared_cell(f"{column_letter(c)}1", 0) for c in range(columns))
        + "</row>"
    )
    return workbook([(f"S{number}", row) for number in range(1, sheets + 1)], [long_text])


def many_vendors_workbook(*, vendors: int, rows: int = 1, recipient_columns: int = 4,
                          values_per_cell: int = 5_000) -> bytes:  # fmt: skip
    """A vendors sheet of `vendors` vendors, then activities whose `recipient_columns`
    Recipients cells each hold `values_per_cell` values "x" (each matched against the
    vendors: before the fix, against every alias of every vendor)."""
    strings = ["x;" * values_per_cell, "Vendor", "DPA status", "Services", "signed",
               "hosting", "Processing activity", "Purpose", "Recipients", "Payroll",
               "Data subjects"]  # fmt: skip
    base = len(strings)
    strings += [f"Vendor {number} GmbH" for number in range(vendors)]
    strings += [f"Activity {number}" for number in range(rows)]
    vendor_rows = ['<row r="1">' + shared_cell("A1", 1) + shared_cell("B1", 2)
                   + shared_cell("C1", 3) + "</row>"]  # fmt: skip
    for number in range(vendors):
        row = number + 2
        vendor_rows.append(
            f'<row r="{row}">' + shared_cell(f"A{row}", base + number)
            + shared_cell(f"B{row}", 4) + shared_cell(f"C{row}", 5) + "</row>"
        )  # fmt: skip
    recipients = [column_letter(3 + column) for column in range(recipient_columns)]
    activity_rows = [
        '<row r="1">' + shared_cell("A1", 6) + shared_cell("B1", 7) + shared_cell("C1", 10)
        + "".join(shared_cell(f"{letter}1", 8) for letter in recipients) + "</row>"
    ]  # fmt: skip
    for number in range(rows):
        row = number + 2
        activity_rows.append(
            f'<row r="{row}">' + shared_cell(f"A{row}", base + vendors + number)
            + shared_cell(f"B{row}", 9) + shared_cell(f"C{row}", 9)
            + "".join(shared_cell(f"{letter}{row}", 0) for letter in recipients) + "</row>"
        )  # fmt: skip
    return workbook(
        [("Vendors", "".join(vendor_rows)), ("Activities", "".join(activity_rows))], strings
    )
