"""The parser registry: one registration per format, read by everything that handles files.

Each format module declares ``FORMATS``, a tuple of :class:`Format`: its media types and
file extensions, how its content is recognised (a signature in the first bytes, the main
part of an Office Open XML container, or text), its reader (text as located segments), its
conversion (the file kept beside the original: XLSX -> CSV, HTML -> text), and, for tables,
its row reader (the register import). Detection (detection.py), extraction
(extraction.py), the asset pipeline's conversion and bounds, and the register import all
look a format up here; a new format is a module listed in ``_FORMAT_MODULES`` with its
``FileKind`` member, and nothing else.

The bounds are the callers' (limits.py: the numbers come from their settings); the rules
that apply them (zip-bomb check, encoding detection, cell and text counting) are the
formats', so the asset pipeline and the register import read under the same rules.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from formats.errors import ConversionFailed, ExtractionFailed
from formats.kinds import FileKind
from formats.limits import ReadLimits, RowLimits
from formats.segments import Segment
from formats.source import Source
from formats.tabular import Sheet

# The modules that declare the formats, each with its FORMATS.
_FORMAT_MODULES = (
    "formats.pdf", "formats.office", "formats.xlsx", "formats.ods", "formats.text", "formats.html",
)  # fmt: skip

Reader = Callable[[Path, ReadLimits], Iterator[Segment]]
RowReader = Callable[[Source, str, RowLimits], list[Sheet]]
ConvertedWriter = Callable[[Iterable[Segment], IO[str]], Iterator[Segment]]


@dataclass(frozen=True, slots=True)
class Conversion:
    """The converted file kept beside a format's original: its extension (``target``) and
    ``write``, which passes the reader's segments on while writing them as that file."""

    target: str
    write: ConvertedWriter


@dataclass(frozen=True, slots=True)
class Format:
    """Everything the project knows about one format (see the module docstring)."""

    kind: FileKind
    media_type: str
    extensions: tuple[str, ...]
    read: Reader
    # Media types a browser may declare for it besides ``media_type``.
    other_media_types: frozenset[str] = frozenset()
    # Text content (no binary signature): its kind comes from the file's extension.
    text_content: bool = False
    # Read as a plain character stream (CSV, TXT, MD; HTML is text but gets converted).
    plain_text: bool = False
    # Recognises the first bytes of a binary file of this format.
    signature: Callable[[bytes], bool] | None = None
    # The part an Office Open XML container of this format holds ("word/document.xml").
    zip_main_part: str | None = None
    # The ``mimetype`` member an OpenDocument container of this format holds.
    zip_mimetype: str | None = None
    # Read as rows only (the register import): detected only for a caller reading rows, so
    # that an asset upload refuses it (detection.py).
    rows_only: bool = False
    conversion: Conversion | None = None
    read_rows: RowReader | None = None
    label: str = field(default="")

    @property
    def accepted_media_types(self) -> frozenset[str]:
        return self.other_media_types | {self.media_type}

    @property
    def name(self) -> str:
        """How messages name it ("XLSX")."""
        return self.label or self.kind.value.upper()

    def failure(self, message: str) -> ExtractionFailed:
        """The error of a file of this format that could not be read: ConversionFailed for a
        format that is converted (its reading is the conversion), else ExtractionFailed."""
        if self.conversion is None:
            return ExtractionFailed(message)
        return ConversionFailed(
            message, original_format=self.kind.value, target_format=self.conversion.target
        )


_registry: dict[FileKind, Format] | None = None


def _load() -> dict[FileKind, Format]:
    global _registry
    if _registry is None:
        found: dict[FileKind, Format] = {}
        for module_name in _FORMAT_MODULES:
            module = importlib.import_module(module_name)
            for declared in module.FORMATS:
                if declared.kind in found:
                    raise RuntimeError(f"format {declared.kind} is registered twice")
                found[declared.kind] = declared
        _registry = found
    return _registry


def all_formats() -> tuple[Format, ...]:
    """Every registered format, in FileKind order."""
    registry = _load()
    return tuple(registry[kind] for kind in FileKind if kind in registry)


def format_of(kind: FileKind) -> Format:
    """The registration of ``kind`` (KeyError for a kind nobody registered)."""
    return _load()[kind]


def format_by_extension(extension: str) -> Format | None:
    """The format whose files end in ``extension`` (".pdf", any case), or None."""
    extension = extension.lower()
    for declared in all_formats():
        if extension in declared.extensions:
            return declared
    return None


def conversion_target(kind: FileKind) -> str | None:
    """The extension of the file ``kind`` is converted to ("csv"), None if it is not."""
    conversion = format_of(kind).conversion
    return None if conversion is None else conversion.target
