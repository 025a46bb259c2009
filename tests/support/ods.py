"""A small OpenDocument spreadsheet (.ods) written by hand, as LibreOffice lays one out: a ZIP
whose first member, stored uncompressed, is `mimetype`, then `content.xml` and the manifest.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

MEDIA_TYPE = "application/vnd.oasis.opendocument.spreadsheet"
_NAMESPACES = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"'
)


def _cell(value: str) -> str:
    if not value:
        return "<table:table-cell/>"
    lines = "".join(f"<text:p>{escape(line)}</text:p>" for line in value.split("\n"))
    return f'<table:table-cell office:value-type="string">{lines}</table:table-cell>'


def ods_file(
    sheets: Sequence[tuple[str, Sequence[Sequence[str]]]], *, after_rows: str = "", head: str = ""
) -> bytes:
    """The spreadsheet: each sheet's rows of texts (a line break makes a second paragraph),
    then `after_rows` (raw XML, e.g. repeated rows) in each sheet; `head` goes before the
    root element (a document type)."""
    tables = []
    for name, rows in sheets:
        body = "".join(
            "<table:table-row>" + "".join(_cell(str(value)) for value in row) + "</table:table-row>"
            for row in rows
        )
        tables.append(f"<table:table table:name={quoteattr(name)}>{body}{after_rows}</table:table>")
    content = (
        f'<?xml version="1.0" encoding="UTF-8"?>{head}<office:document-content {_NAMESPACES}'
        ' office:version="1.2"><office:body><office:spreadsheet>'
        + "".join(tables)
        + "</office:spreadsheet></office:body></office:document-content>"
    )
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest='
        '"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
        f'<manifest:file-entry manifest:full-path="/" manifest:media-type="{MEDIA_TYPE}"/>'
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
        "</manifest:manifest>"
    )
    output = io.BytesIO()
    with zipfile.ZipFile(output, "w") as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), MEDIA_TYPE)  # stored, first
        archive.writestr("content.xml", content, compress_type=zipfile.ZIP_DEFLATED)
        archive.writestr("META-INF/manifest.xml", manifest, compress_type=zipfile.ZIP_DEFLATED)
    return output.getvalue()
