"""Small real files of every accepted format, built here, and the repository's corpus."""

from __future__ import annotations

import io

from tests.support.corpus import CORPUS, corpus_file

__all__ = ["CORPUS", "corpus_file"]


def pdf_bytes(pages: list[str]) -> bytes:
    """A PDF with one page per text (xhtml2pdf)."""
    from xhtml2pdf import pisa

    body = "<pdf:nextpage />".join(f"<p>{text}</p>" for text in pages)
    output = io.BytesIO()
    result = pisa.CreatePDF(f"<html><body>{body}</body></html>", dest=output)
    assert not result.err
    return output.getvalue()


def docx_bytes(paragraphs: list[str], table: list[list[str]] | None = None) -> bytes:
    import docx

    document = docx.Document()
    for paragraph in paragraphs:
        document.add_paragraph(paragraph)
    if table:
        grid = document.add_table(rows=len(table), cols=len(table[0]))
        for row, values in zip(grid.rows, table, strict=True):
            for cell, value in zip(row.cells, values, strict=True):
                cell.text = value
    output = io.BytesIO()
    document.save(output)
    return output.getvalue()


def pptx_bytes(slides: list[tuple[str, str]]) -> bytes:
    """(title, speaker notes) per slide."""
    from pptx import Presentation

    presentation = Presentation()
    for title, notes in slides:
        slide = presentation.slides.add_slide(presentation.slide_layouts[5])
        slide.shapes.title.text = title
        slide.notes_slide.notes_text_frame.text = notes
    output = io.BytesIO()
    presentation.save(output)
    return output.getvalue()


def xlsx_bytes(sheets: dict[str, list[list[object]]]) -> bytes:
    from openpyxl import Workbook

    workbook = Workbook()
    workbook.remove(workbook.active)
    for name, rows in sheets.items():
        sheet = workbook.create_sheet(name)
        for row in rows:
            sheet.append(row)
    output = io.BytesIO()
    workbook.save(output)
    return output.getvalue()


HTML = (
    "<!doctype html><html><head><title>Retention policy</title>"
    "<style>body{color:red}</style><script>var secret = 'do not index';</script></head>"
    "<body><h1>Retention schedule</h1><ul><li>Invoices: ten years</li>"
    "<li>Applications: six months</li></ul></body></html>"
)

# name -> (bytes, a phrase that must be found by search after processing)
SAMPLES: dict[str, tuple[bytes, str]] = {
    "notes.txt": (b"Quarterly review of the whistleblower hotline.\n", "whistleblower"),
    "notes.md": (b"# Vendor list\n\n- Lighthouse Analytics GmbH\n", "Lighthouse Analytics"),
    "ledger.csv": (b"vendor,country\nNorthwind Traders,Iceland\n", "Northwind Traders"),
    "policy.html": (HTML.encode(), "Invoices: ten years"),
}


def all_format_samples() -> dict[str, tuple[bytes, str]]:
    """One file per accepted format, each with a phrase of its own."""
    return {
        **SAMPLES,
        "report.pdf": (pdf_bytes(["Encrypted backups in Frankfurt", "Pseudonymised exports"]),
                       "Pseudonymised exports"),
        "contract.docx": (docx_bytes(["Processor agreement with Acme Cloud"],
                                     [["Subprocessor", "Country"], ["Blue Harbor", "Norway"]]),
                          "Blue Harbor"),
        "deck.pptx": (pptx_bytes([("Onboarding", "Remember the consent banner audit")]),
                      "consent banner audit"),
        "budget.xlsx": (xlsx_bytes({"Revenue": [["Region", "Amount"], ["Nordics", 1200]],
                                    "Costs": [["Item", "Amount"], ["Hosting Zurich", 300]]}),
                        "Hosting Zurich"),
    }  # fmt: skip
