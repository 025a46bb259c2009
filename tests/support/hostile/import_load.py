"""Crafted register files that cost an import CPU: the issue 25 "must show" load.

Copied (and trimmed) from the review's generators: a CSV line that makes csv.Sniffer
quadratic, a workbook whose sheets are padded to the last row, and a workbook of thousands of
vendors and recipient cells of thousands of values (every value matched against every
vendor). Each returns the file's bytes.
"""

from __future__ import annotations

import io
import zipfile

_XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
_OFFICE_RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_SHEET_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"
_WORKSHEET_REL = f"{_OFFICE_RELS}/worksheet"


def sniffer_line_csv(*, length: int = 65_535) -> bytes:
    """One line ',"x,"x,...': csv.Sniffer's quote regex is quadratic on it (13 s at 64 KiB)."""
    return (',"x' * (length // 3)).encode()


def _column(index: int) -> str:
    name, index = "", index + 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(65 + rest) + name
    return name


def _workbook(sheets: list[tuple[str, str]], shared_strings: list[str] | None = None) -> bytes:
    """An XLSX of (name, sheetData XML) sheets, with an optional shared-string table."""
    types = [
        f'{_XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">',
        '<Default Extension="rels"'
        ' ContentType="application/vnd.openxmlformats-package.relationships+xml"/>',
        '<Default Extension="xml" ContentType="application/xml"/>',
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
        'officedocument.spreadsheetml.sheet.main+xml"/>',
    ]
    book = [f'{_XML}<workbook xmlns="{_MAIN}" xmlns:r="{_OFFICE_RELS}"><sheets>']
    links = [f'{_XML}<Relationships xmlns="{_RELS}">']
    for number, (name, _) in enumerate(sheets, start=1):
        types.append(
            f'<Override PartName="/xl/worksheets/sheet{number}.xml" ContentType="{_SHEET_TYPE}"/>'
        )
        book.append(f'<sheet name="{name}" sheetId="{number}" r:id="rId{number}"/>')
        links.append(
            f'<Relationship Id="rId{number}" Type="{_WORKSHEET_REL}"'
            f' Target="worksheets/sheet{number}.xml"/>'
        )
    if shared_strings is not None:
        types.append(
            '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.'
            'openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
        )
        links.append(
            f'<Relationship Id="rId{len(sheets) + 1}" Type="{_OFFICE_RELS}/sharedStrings"'
            ' Target="sharedStrings.xml"/>'
        )
    types.append("</Types>")
    book.append("</sheets></workbook>")
    links.append("</Relationships>")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "".join(types))
        archive.writestr(
            "_rels/.rels",
            f'{_XML}<Relationships xmlns="{_RELS}"><Relationship Id="rId1"'
            f' Type="{_OFFICE_RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        )
        archive.writestr("xl/workbook.xml", "".join(book))
        archive.writestr("xl/_rels/workbook.xml.rels", "".join(links))
        if shared_strings is not None:
            items = "".join(f"<si><t>{text}</t></si>" for text in shared_strings)
            archive.writestr("xl/sharedStrings.xml", f'{_XML}<sst xmlns="{_MAIN}">{items}</sst>')
        for number, (_, data) in enumerate(sheets, start=1):
            archive.writestr(
                f"xl/worksheets/sheet{number}.xml",
                f'{_XML}<worksheet xmlns="{_MAIN}"><sheetData>{data}</sheetData></worksheet>',
            )
    return buffer.getvalue()


def padded_sheets_xlsx(*, sheets: int = 20, last_row: int = 1_048_576) -> bytes:
    """Sheets of a header row and one empty cell on the last row (each read to its end)."""

    def cell(reference: str, text: str) -> str:
        return f'<c r="{reference}" t="inlineStr"><is><t>{text}</t></is></c>'

    data = (
        '<row r="1">' + cell("A1", "Name of processing activity") + cell("B1", "Purpose")
        + cell("C1", "Legal basis") + f'</row><row r="{last_row}"><c r="A{last_row}"/></row>'
    )  # fmt: skip
    return _workbook([(f"S{number}", data) for number in range(1, sheets + 1)])


def many_vendors_xlsx(*, vendors: int = 2_000, recipient_columns: int = 4) -> bytes:
    """A sheet of `vendors` vendors, then an activity whose recipient cells hold 5,000 values
    each: every value is matched against every vendor name."""
    strings = ["x;" * 5000, "Vendor", "DPA status", "Services", "signed", "hosting",
               "Processing activity", "Purpose", "Recipients", "Payroll",
               "Data subjects"]  # fmt: skip
    base = len(strings)
    strings += [f"Vendor {number} GmbH" for number in range(vendors)]
    strings.append("Activity 0")

    def cell(reference: str, index: int) -> str:
        return f'<c r="{reference}" t="s"><v>{index}</v></c>'

    rows = ['<row r="1">' + cell("A1", 1) + cell("B1", 2) + cell("C1", 3) + "</row>"]
    for number in range(vendors):
        row = number + 2
        rows.append(
            f'<row r="{row}">{cell(f"A{row}", base + number)}{cell(f"B{row}", 4)}'
            f"{cell(f'C{row}', 5)}</row>"
        )
    header = cell("A1", 6) + cell("B1", 7) + cell("C1", 10)
    header += "".join(cell(f"{_column(3 + n)}1", 8) for n in range(recipient_columns))
    activity = cell("A2", base + vendors) + cell("B2", 9) + cell("C2", 9)
    activity += "".join(cell(f"{_column(3 + n)}2", 0) for n in range(recipient_columns))
    activities = f'<row r="1">{header}</row><row r="2">{activity}</row>'
    return _workbook([("Vendors", "".join(rows)), ("Activities", activities)], strings)
