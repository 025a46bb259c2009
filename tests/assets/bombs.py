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
