"""Exports of a document version: `export_document(markdown, meta, fmt)`.

Pure functions over the Markdown and an `ExportMeta`; no models, no settings, no I/O besides
reading the vendored fonts. The view maps `UnsupportedExportFormat` to 400 and
`ExportRenderError` to 422 using their `code`, and sends `ExportedFile` as an attachment.
"""

from __future__ import annotations

from collections.abc import Callable

from gdpr.i18n import activate
from legal_documents.exports.base import (
    ExportedFile,
    ExportMeta,
    ExportRenderError,
    UnsupportedExportFormat,
    export_filename,
)
from legal_documents.rendering import markdown_to_text

__all__ = [
    "EXPORT_FORMATS",
    "ExportMeta",
    "ExportRenderError",
    "ExportedFile",
    "UnsupportedExportFormat",
    "export_document",
    "formats_for",
]


def _html(markdown: str, meta: ExportMeta) -> bytes:
    from legal_documents.exports.html import render_html

    return render_html(markdown, meta).encode("utf-8")


def _pdf(markdown: str, meta: ExportMeta) -> bytes:
    # Imported on use: xhtml2pdf and ReportLab take ~0.25 s to import, which every process
    # importing the app (migrations, the web server, Celery) would otherwise pay.
    from legal_documents.exports.pdf import render_pdf

    return render_pdf(markdown, meta)


def _docx(markdown: str, meta: ExportMeta) -> bytes:
    from legal_documents.exports.docx import render_docx

    return render_docx(markdown, meta)


def _xlsx(markdown: str, meta: ExportMeta) -> bytes:
    from legal_documents.exports.xlsx import render_xlsx

    return render_xlsx(markdown, meta)


def _markdown(markdown: str, meta: ExportMeta) -> bytes:
    return markdown.encode("utf-8")


def _text(markdown: str, meta: ExportMeta) -> bytes:
    return markdown_to_text(markdown).encode("utf-8")


_Renderer = Callable[[str, ExportMeta], bytes]

# format -> (renderer, Content-Type, file extension)
_FORMATS: dict[str, tuple[_Renderer, str, str]] = {
    "html": (_html, "text/html; charset=utf-8", "html"),
    "pdf": (_pdf, "application/pdf", "pdf"),
    "md": (_markdown, "text/markdown; charset=utf-8", "md"),
    "txt": (_text, "text/plain; charset=utf-8", "txt"),
    "docx": (
        _docx,
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "docx",
    ),
    "xlsx": (
        _xlsx,
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "xlsx",
    ),
}
# Formats that only some document types have (the record of processing as a spreadsheet).
TYPE_FORMATS: dict[str, frozenset[str]] = {"xlsx": frozenset({"RECORD_OF_PROCESSING"})}


def formats_for(document_type: str) -> tuple[str, ...]:
    """The export formats a document of `document_type` can be exported as."""
    return tuple(
        fmt for fmt in _FORMATS if fmt not in TYPE_FORMATS or document_type in TYPE_FORMATS[fmt]
    )


EXPORT_FORMATS: tuple[str, ...] = tuple(_FORMATS)
# The media types the export endpoint answers with (its OpenAPI responses list each).
EXPORT_MEDIA_TYPES: tuple[str, ...] = tuple(
    content_type.split(";")[0] for _, content_type, _ in _FORMATS.values()
)


def export_document(markdown: str, meta: ExportMeta, fmt: str) -> ExportedFile:
    """Render `markdown` as `fmt` (one of `EXPORT_FORMATS`, case-insensitive).

    Returns the bytes, the Content-Type and a download name like `dpia-v3.pdf` (ASCII
    letters, digits and hyphens only, safe in a Content-Disposition header).
    Raises `UnsupportedExportFormat` (naming the valid formats) for any other `fmt`, and
    `ExportRenderError` when a renderer cannot produce the file.
    """
    normalized = (fmt or "").strip().lower()
    if normalized not in formats_for(meta.document_type):
        raise UnsupportedExportFormat(fmt, formats_for(meta.document_type))
    renderer, content_type, extension = _FORMATS[normalized]
    with activate(meta.language):  # labels, footer and contents heading in its language
        content = renderer(markdown, meta)
    return ExportedFile(
        content=content,
        content_type=content_type,
        filename=export_filename(meta, extension),
    )
