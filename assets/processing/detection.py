"""File-type detection from content, checked against the declared name and media type.

The content decides what a file is; the declared extension and media type must agree with
it. Contract of :func:`detect_file_type`:

* binary kinds (PDF, DOCX, XLSX, PPTX) must carry their own extension: a PDF named
  ``.docx``, an executable named ``.pdf`` or a DOCX named ``.csv`` raises InvalidFileType;
* text content (no binary signature, decodable) takes its kind from the extension:
  ``.csv``, ``.txt``, ``.md``/``.markdown`` are accepted for any plain text, since they only
  differ in how people read them; ``.html``/``.htm`` for text (markup or not);
* a file without an extension gets its kind from the content (HTML markup or plain text);
* an unknown extension (``.exe``, ``.doc``) is refused whatever the content;
* the declared media type must fit the kind; ``application/octet-stream`` and a missing
  type are accepted (browsers send them for anything), as are ``application/zip`` for
  Office files and ``application/vnd.ms-excel`` for CSV (Windows browsers send it);
* a password-protected Office file (an OLE2 "EncryptedPackage", not a ZIP) is refused
  with a message that says so; legacy binary .doc/.xls/.ppt (also OLE2) are refused too;
* a macro-enabled Office file (DOCM/XLSM/PPTM content) is refused even when renamed.

Only the first 8 KiB and, for ZIPs, the central directory and ``[Content_Types].xml`` are
read. No failure other than InvalidFileType escapes (an unreadable path raises OSError).
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path, PurePath

from assets.processing.datatypes import FileKind
from assets.processing.encoding import (
    decodes_as_utf8,
    detect_encoding,
    encoding_from_bom,
    encoding_from_nul_pattern,
)
from assets.processing.errors import InvalidFileType

HEAD_BYTES = 8192
_CONTENT_TYPES_LIMIT = 1024 * 1024

_EXTENSIONS: dict[str, FileKind] = {
    ".pdf": FileKind.PDF,
    ".docx": FileKind.DOCX,
    ".xlsx": FileKind.XLSX,
    ".pptx": FileKind.PPTX,
    ".csv": FileKind.CSV,
    ".txt": FileKind.TXT,
    ".text": FileKind.TXT,
    ".md": FileKind.MD,
    ".markdown": FileKind.MD,
    ".html": FileKind.HTML,
    ".htm": FileKind.HTML,
}

_GENERIC_MEDIA_TYPES = {"", "application/octet-stream", "binary/octet-stream"}
_ZIP_MEDIA_TYPES = {"application/zip", "application/x-zip-compressed"}
_PLAIN_TEXT_TYPES = {"text/plain", "text/csv", "text/markdown", "text/x-markdown"}
_ACCEPTED_MEDIA_TYPES: dict[FileKind, set[str]] = {
    FileKind.PDF: {"application/pdf", "application/x-pdf"},
    FileKind.DOCX: {FileKind.DOCX.media_type} | _ZIP_MEDIA_TYPES,
    FileKind.XLSX: {FileKind.XLSX.media_type} | _ZIP_MEDIA_TYPES,
    FileKind.PPTX: {FileKind.PPTX.media_type} | _ZIP_MEDIA_TYPES,
    FileKind.CSV: _PLAIN_TEXT_TYPES
    | {"application/csv", "text/comma-separated-values", "text/x-csv", "application/vnd.ms-excel"},
    FileKind.TXT: _PLAIN_TEXT_TYPES,
    FileKind.MD: _PLAIN_TEXT_TYPES,
    FileKind.HTML: {"text/html", "application/xhtml+xml"},
}

_OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_OOXML_MAIN_PARTS: tuple[tuple[str, FileKind], ...] = (
    ("word/document.xml", FileKind.DOCX),
    ("xl/workbook.xml", FileKind.XLSX),
    ("ppt/presentation.xml", FileKind.PPTX),
)
_MACRO_ENABLED = re.compile(rb"macroEnabled", re.I)
_HTML_MARKUP = re.compile(
    rb"<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>]|<meta\s|<title>|<(?:div|p|table|h[1-6])[\s>]",
    re.I,
)
# Bytes that never appear in text: C0 controls other than \t \n \v \f \r and ESC.
_BINARY_CONTROL = re.compile(rb"[\x00-\x08\x0e-\x1a\x1c-\x1f]")


def detect_file_type(
    path: Path, *, declared_name: str, declared_content_type: str | None
) -> FileKind:
    """Return the file's kind (``kind.media_type`` is its canonical media type).

    Raises InvalidFileType when the content is not an accepted format or contradicts the
    declared extension or media type; see the module docstring for the exact rules.
    """
    extension = PurePath(declared_name).suffix.lower()
    declared_kind = _EXTENSIONS.get(extension)
    if extension and declared_kind is None:
        raise InvalidFileType(f"file extension {extension!r} is not an accepted format")

    content_kind = _kind_from_content(path)
    if content_kind is None:
        # Text: the extension says which text kind; without one, look for markup.
        if declared_kind is None:
            kind = FileKind.HTML if _looks_like_html(path) else FileKind.TXT
        elif declared_kind.is_text or declared_kind is FileKind.HTML:
            kind = declared_kind
        else:
            raise InvalidFileType(
                f"file is named {extension!r} but its content is plain text, "
                f"not {declared_kind.value.upper()}"
            )
    else:
        if declared_kind is not None and declared_kind is not content_kind:
            raise InvalidFileType(
                f"file is named {extension!r} but its content is {content_kind.value.upper()}"
            )
        kind = content_kind

    media_type = _normalise_media_type(declared_content_type)
    if media_type not in _GENERIC_MEDIA_TYPES and media_type not in _ACCEPTED_MEDIA_TYPES[kind]:
        raise InvalidFileType(
            f"declared content type {media_type!r} does not match the content "
            f"({kind.value.upper()})"
        )
    return kind


def _normalise_media_type(content_type: str | None) -> str:
    return (content_type or "").split(";", 1)[0].strip().lower()


def _kind_from_content(path: Path) -> FileKind | None:
    """A binary kind, None for acceptable text; raises InvalidFileType for anything else."""
    with path.open("rb") as handle:
        head = handle.read(HEAD_BYTES)
    # PDF readers accept junk before the header within the first KiB; so do we.
    if b"%PDF-" in head[:1024]:
        return FileKind.PDF
    if head.startswith(_OLE2_MAGIC):
        if "EncryptedPackage".encode("utf-16-le") in _read_prefix(path, 1024 * 1024):
            raise InvalidFileType(
                "file is a password-protected (encrypted) Office document; "
                "remove the password and upload it again"
            )
        raise InvalidFileType(
            "legacy binary Office formats (.doc, .xls, .ppt) are not accepted; "
            "save the file as DOCX, XLSX or PPTX"
        )
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return _office_kind_of_zip(path)
    if not head or _is_text(head):
        return None
    raise InvalidFileType("file content is binary and not an accepted format")


def _read_prefix(path: Path, size: int) -> bytes:
    with path.open("rb") as handle:
        return handle.read(size)


def _office_kind_of_zip(path: Path) -> FileKind:
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
            content_types = _read_bounded_member(archive, "[Content_Types].xml")
    except (zipfile.BadZipFile, OSError, ValueError) as error:
        raise InvalidFileType(f"damaged or truncated ZIP container: {error}") from error
    if content_types is None:
        raise InvalidFileType("ZIP archive is not an Office Open XML document")
    for main_part, kind in _OOXML_MAIN_PARTS:
        if main_part in names:
            if _MACRO_ENABLED.search(content_types):
                raise InvalidFileType("macro-enabled Office documents are not accepted")
            return kind
    raise InvalidFileType("ZIP archive is not a DOCX, XLSX or PPTX document")


def _read_bounded_member(archive: zipfile.ZipFile, name: str) -> bytes | None:
    try:
        info = archive.getinfo(name)
    except KeyError:
        return None
    if info.file_size > _CONTENT_TYPES_LIMIT:
        raise InvalidFileType(f"{name} is implausibly large")
    return archive.read(info)


def _is_text(head: bytes) -> bool:
    """True when the head decodes as text: BOM, UTF-16/32 NUL pattern, or few control bytes."""
    if encoding_from_bom(head) or encoding_from_nul_pattern(head):
        return True
    if b"\x00" in head:
        return False
    if decodes_as_utf8(head):
        return not _BINARY_CONTROL.search(head)
    # Legacy 8-bit text (cp1252, latin-1...): tolerate a stray control byte, not many.
    return len(_BINARY_CONTROL.findall(head)) <= max(1, len(head) // 1000)


def _looks_like_html(path: Path) -> bool:
    head = _read_prefix(path, HEAD_BYTES)
    text = head.decode(detect_encoding(head, html=True), errors="replace")
    return bool(_HTML_MARKUP.search(text.encode("ascii", "ignore")))
