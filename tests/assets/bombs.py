"""Small hostile files built here that make a parser allocate far more than their size."""

from __future__ import annotations

import io
import random
import zipfile

from tests.assets.samples import docx_bytes

# The last column (XFD = 16,384) and the last row (1,048,576) of an Excel sheet.
LAST_CELL = "XFD1048576"


def xlsx_bytes_with_cells(cells: dict[str, str]) -> bytes:
    """A workbook whose one sheet holds exactly these cells; openpyxl declares their span
    as the sheet's dimension (A1 + XFD1048576 -> "A1:XFD1048576")."""
    from openpyxl import Workbook

    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "Bomb"
    for reference, value in cells.items():
        sheet[reference] = value
    output = io.BytesIO()
    workbook.save(output)
    return output.getvalue()


def corner_cells_xlsx() -> bytes:
    """About 5 KB: A1 and XFD1048576. pandas padded every row to 16,384 columns."""
    return xlsx_bytes_with_cells({"A1": "first corner", LAST_CELL: "last corner"})


def wide_first_row_xlsx(rows: int) -> bytes:
    """XFD1 plus column A on ``rows`` rows (and A1048576): every row padded to XFD."""
    cells = {"XFD1": "far right heading", "A1048576": "bottom row"}
    cells.update({f"A{row}": f"entry {row}" for row in range(2, rows + 2)})
    return xlsx_bytes_with_cells(cells)


def grid_span_bomb_docx() -> bytes:
    """A DOCX whose one table cell spans 2,147,483,647 grid columns."""
    source = zipfile.ZipFile(
        io.BytesIO(
            docx_bytes(
                ["Data processing agreement, annex on sub-processors."],
                [["Spanning sub-processor", "Oslo"], ["Second row", "Bergen"]],
            )
        )
    )
    output = io.BytesIO()
    with zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED) as bomb:
        for item in source.infolist():
            data = source.read(item)
            if item.filename == "word/document.xml":
                data = data.replace(b"</w:tcPr>", b'<w:gridSpan w:val="2147483647"/></w:tcPr>', 1)
                assert b"2147483647" in data
            bomb.writestr(item, data)
    return output.getvalue()


def paragraph_flood_docx(paragraphs: int) -> bytes:
    """A DOCX of ``paragraphs`` tiny paragraphs with random ids: the XML tree that
    python-docx builds takes hundreds of bytes per paragraph (a generic memory hog)."""
    namespace = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    generator = random.Random(7)
    body = "".join(
        f'<w:p w:rsidR="{generator.getrandbits(32):08X}"><w:r><w:t>x</w:t></w:r></w:p>'
        for _ in range(paragraphs)
    )
    document = f'<?xml version="1.0"?><w:document xmlns:w="{namespace}"><w:body>{body}'
    document += "</w:body></w:document>"
    source = zipfile.ZipFile(io.BytesIO(docx_bytes(["placeholder"])))
    output = io.BytesIO()
    with zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED) as flood:
        for item in source.infolist():
            data = source.read(item)
            if item.filename == "word/document.xml":
                data = document.encode()
            flood.writestr(item, data)
    return output.getvalue()


# Output bombs (issue 25): small files whose text, as extracted, is thousands of times
# their size. Built like /work/shared/hostile/mk_asset_docx_vmerge.py and
# mk_asset_xlsx_amplify.py, scaled by the arguments.
_WORD_NAMESPACE = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
_SHEET_NAMESPACE = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_RELATIONSHIP_NAMESPACE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PACKAGE_RELATIONSHIPS = "http://schemas.openxmlformats.org/package/2006/relationships"
_XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'


def _letters(length: int, *, seed: int, spaces: bool) -> str:
    generator = random.Random(seed)
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" + (" " if spaces else "")
    return "".join(generator.choice(alphabet) for _ in range(length))


def vertical_merge_docx(*, rows: int, text_length: int) -> bytes:
    """A DOCX of one table: the first cell holds ``text_length`` characters and starts a
    vertical merge that ``rows`` rows continue (``<w:vMerge/>``). Reading the source's text
    again on every continuation row made rows x text_length characters."""
    text = _letters(text_length, seed=25, spaces=True)
    first = (
        '<w:tr><w:tc><w:tcPr><w:vMerge w:val="restart"/></w:tcPr>'
        f"<w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:tc></w:tr>"
    )
    continuation = "<w:tr><w:tc><w:tcPr><w:vMerge/></w:tcPr><w:p/></w:tc></w:tr>"
    document = (
        f"{_XML_DECLARATION}<w:document {_WORD_NAMESPACE}><w:body><w:tbl>"
        + first
        + continuation * rows
        + "</w:tbl><w:p/></w:body></w:document>"
    )
    content_types = (
        f"{_XML_DECLARATION}<Types "
        'xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" '
        'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/word/document.xml" ContentType="application/'
        'vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'
    )
    relationships = (
        f'{_XML_DECLARATION}<Relationships xmlns="{_PACKAGE_RELATIONSHIPS}">'
        f'<Relationship Id="rId1" Type="{_RELATIONSHIP_NAMESPACE}/officeDocument" '
        'Target="word/document.xml"/></Relationships>'
    )
    output = io.BytesIO()
    with zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as bomb:
        bomb.writestr("[Content_Types].xml", content_types)
        bomb.writestr("_rels/.rels", relationships)
        bomb.writestr("word/document.xml", document)
    return output.getvalue()


def shared_string_xlsx(*, rows: int, columns: int, string_length: int) -> bytes:
    """A workbook whose rows x columns cells all refer to one shared string of
    ``string_length`` characters: each cell costs a few bytes zipped and the whole string in
    the CSV (1,000 x 10 cells of 32,000 characters: 47 KB -> 320 MB)."""
    text = _letters(string_length, seed=13, spaces=False)
    content_types = (
        f"{_XML_DECLARATION}<Types "
        'xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" '
        'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/xl/workbook.xml" ContentType="application/'
        'vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
        '<Override PartName="/xl/sharedStrings.xml" ContentType="application/'
        'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/'
        'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>'
    )
    relationships = (
        f'{_XML_DECLARATION}<Relationships xmlns="{_PACKAGE_RELATIONSHIPS}">'
        f'<Relationship Id="rId1" Type="{_RELATIONSHIP_NAMESPACE}/officeDocument" '
        'Target="xl/workbook.xml"/></Relationships>'
    )
    workbook = (
        f'{_XML_DECLARATION}<workbook xmlns="{_SHEET_NAMESPACE}" '
        f'xmlns:r="{_RELATIONSHIP_NAMESPACE}"><sheets>'
        '<sheet name="Amplified" sheetId="1" r:id="rId1"/></sheets></workbook>'
    )
    workbook_relationships = (
        f'{_XML_DECLARATION}<Relationships xmlns="{_PACKAGE_RELATIONSHIPS}">'
        f'<Relationship Id="rId1" Type="{_RELATIONSHIP_NAMESPACE}/worksheet" '
        'Target="worksheets/sheet1.xml"/>'
        f'<Relationship Id="rId2" Type="{_RELATIONSHIP_NAMESPACE}/sharedStrings" '
        'Target="sharedStrings.xml"/></Relationships>'
    )
    shared_strings = (
        f'{_XML_DECLARATION}<sst xmlns="{_SHEET_NAMESPACE}" count="1" uniqueCount="1">'
        f"<si><t>{text}</t></si></sst>"
    )
    body = "".join(
        f'<row r="{row}">'
        + "".join(
            f'<c r="{_column_letters(column)}{row}" t="s"><v>0</v></c>' for column in range(columns)
        )
        + "</row>"
        for row in range(1, rows + 1)
    )
    sheet = (
        f'{_XML_DECLARATION}<worksheet xmlns="{_SHEET_NAMESPACE}"><sheetData>{body}'
        "</sheetData></worksheet>"
    )
    output = io.BytesIO()
    with zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as bomb:
        bomb.writestr("[Content_Types].xml", content_types)
        bomb.writestr("_rels/.rels", relationships)
        bomb.writestr("xl/workbook.xml", workbook)
        bomb.writestr("xl/_rels/workbook.xml.rels", workbook_relationships)
        bomb.writestr("xl/sharedStrings.xml", shared_strings)
        bomb.writestr("xl/worksheets/sheet1.xml", sheet)
    return output.getvalue()


def _column_letters(index: int) -> str:
    """Excel's column name of the 0-based ``index`` (0 -> A, 26 -> AA)."""
    name = ""
    number = index + 1
    while number:
        number, remainder = divmod(number - 1, 26)
        name = chr(ord("A") + remainder) + name
    return name
