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
* a macro-enabled Office file (DOCM/XLSM/PPTM content) is refused even when renamed;
* an OpenDocument spreadsheet (a ZIP whose ``mimetype`` member names it) is ODS, a format
  read as rows only: accepted for the register import (``as_rows``), refused for an upload.

Only the first 8 KiB and, for ZIPs, the central directory and ``[Content_Types].xml`` are
read. No failure other than InvalidFileType escapes (an unreadable path raises OSError).

Each format's extensions, media types and signature are its registration's (registry.py);
the asset upload and the register import both detect a file here.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import PurePath

from formats.encoding import (
    decodes_as_utf8,
    detect_encoding,
    encoding_from_bom,
    encoding_from_nul_pattern,
)
from formats.errors import InvalidFileType
from formats.kinds import FileKind
from formats.registry import Format, all_formats, format_by_extension, format_of
from formats.source import Source, read_prefix, zip_input

HEAD_BYTES = 8192
_CONTENT_TYPES_LIMIT = 1024 * 1024

_GENERIC_MEDIA_TYPES = {"", "application/octet-stream", "binary/octet-stream"}
_OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_MACRO_ENABLED = re.compile(rb"macroEnabled", re.I)
_HTML_MARKUP = re.compile(
    rb"<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>]|<meta\s|<title>|<(?:div|p|table|h[1-6])[\s>]",
    re.I,
)
# Bytes that never appear in text: C0 controls other than \t \n \v \f \r and ESC.
_BINARY_CONTROL = re.compile(rb"[\x00-\x08\x0e-\x1a\x1c-\x1f]")


def detect_file_type(
    path: Source,
    *,
    declared_name: str,
    declared_content_type: str | None,
    as_rows: bool = False,
) -> FileKind:
    """Return the file's kind (``kind.media_type`` is its canonical media type).

    ``path`` is the file, or its bytes. Raises InvalidFileType when the content is not an
    accepted format or contradicts the declared extension or media type; see the module
    docstring for the exact rules. Formats read as rows only (ODS) are accepted only when
    the caller reads the file ``as_rows`` (the register import), never for an asset upload.
    """
    extension = PurePath(declared_name).suffix.lower()
    declared = format_by_extension(extension) if extension else None
    if extension and declared is None:
        raise InvalidFileType(f"file extension {extension!r} is not an accepted format")
    if declared is not None and declared.rows_only and not as_rows:
        raise _rows_only(declared)

    content = _format_from_content(path)
    if content is not None and content.rows_only and not as_rows:
        raise _rows_only(content)
    if content is None:
        # Text: the extension says which text kind; without one, look for markup.
        if declared is None:
            kind = FileKind.HTML if _looks_like_html(path) else FileKind.TXT
        elif declared.text_content:
            kind = declared.kind
        else:
            raise InvalidFileType(
                f"file is named {extension!r} but its content is plain text, not {declared.name}"
            )
    else:
        if declared is not None and declared is not content:
            raise InvalidFileType(f"file is named {extension!r} but its content is {content.name}")
        kind = content.kind

    media_type = _normalise_media_type(declared_content_type)
    accepted = format_of(kind).accepted_media_types
    if media_type not in _GENERIC_MEDIA_TYPES and media_type not in accepted:
        raise InvalidFileType(
            f"declared content type {media_type!r} does not match the content "
            f"({kind.value.upper()})"
        )
    return kind


def _rows_only(declared: Format) -> InvalidFileType:
    return InvalidFileType(
        f"{declared.name} files are read by the register import only; save the file as"
        " XLSX to upload it"
    )


def _normalise_media_type(content_type: str | None) -> str:
    return (content_type or "").split(";", 1)[0].strip().lower()


def _format_from_content(path: Source) -> Format | None:
    """A binary format, None for acceptable text; raises InvalidFileType for anything else."""
    head = read_prefix(path, HEAD_BYTES)
    for declared in all_formats():
        if declared.signature is not None and declared.signature(head):
            return declared
    if head.startswith(_OLE2_MAGIC):
        if "EncryptedPackage".encode("utf-16-le") in read_prefix(path, 1024 * 1024):
            raise InvalidFileType(
                "file is a password-protected (encrypted) Office document; "
                "remove the password and upload it again"
            )
        raise InvalidFileType(
            "legacy binary Office formats (.doc, .xls, .ppt) are not accepted; "
            "save the file as DOCX, XLSX or PPTX"
        )
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return _office_format_of_zip(path)
    if not head or _is_text(head):
        return None
    raise InvalidFileType("file content is binary and not an accepted format")


def _office_format_of_zip(path: Source) -> Format:
    try:
        with zipfile.ZipFile(zip_input(path)) as archive:
            names = set(archive.namelist())
            content_types = _read_bounded_member(archive, "[Content_Types].xml")
    except (zipfile.BadZipFile, OSError, ValueError) as error:
        raise InvalidFileType(
            f"damaged or truncated ZIP container: {error}", damaged=True
        ) from error
    if content_types is None:
        return _open_document_format(path)
    for declared in all_formats():
        if declared.zip_main_part is not None and declared.zip_main_part in names:
            if _MACRO_ENABLED.search(content_types):
                raise InvalidFileType("macro-enabled Office documents are not accepted")
            return declared
    raise InvalidFileType("ZIP archive is not a DOCX, XLSX or PPTX document")


def _open_document_format(path: Source) -> Format:
    """The format an OpenDocument container names in its ``mimetype`` member (ODS)."""
    try:
        with zipfile.ZipFile(zip_input(path)) as archive:
            mimetype = _read_bounded_member(archive, "mimetype")
    except (zipfile.BadZipFile, OSError, ValueError) as error:
        raise InvalidFileType(
            f"damaged or truncated ZIP container: {error}", damaged=True
        ) from error
    named = (mimetype or b"").strip().decode("ascii", "replace")
    for declared in all_formats():
        if declared.zip_mimetype is not None and declared.zip_mimetype == named:
            return declared
    raise InvalidFileType("ZIP archive is not an Office Open XML document")


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


def _looks_like_html(path: Source) -> bool:
    head = read_prefix(path, HEAD_BYTES)
    text = head.decode(detect_encoding(head, html=True), errors="replace")
    return bool(_HTML_MARKUP.search(text.encode("ascii", "ignore")))
