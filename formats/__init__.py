"""The file formats the project reads, one registration each (registry.py), no framework.

``detect_file_type`` says what a file is; ``extract_segments`` reads its text (the asset
pipeline); ``format_of(kind).read_rows`` reads a table's rows (the register import);
``format_of(kind).conversion`` is the file kept beside an original. Every reader applies
the same rules (zipguard.py, encoding.py, tabular.py) under the bounds its caller passes
(limits.py).
"""

from __future__ import annotations

from formats.detection import detect_file_type
from formats.errors import (
    ConversionFailed,
    ExtractionFailed,
    FormatError,
    InvalidFileType,
    RowsRefused,
)
from formats.extraction import extract_segments
from formats.kinds import FileKind
from formats.limits import ReadLimits, RowLimits, ZipLimits
from formats.registry import Conversion, Format, all_formats, conversion_target, format_of
from formats.segments import Segment
from formats.tabular import Cell, CutText, Sheet

__all__ = [
    "Cell",
    "Conversion",
    "ConversionFailed",
    "CutText",
    "ExtractionFailed",
    "FileKind",
    "Format",
    "FormatError",
    "InvalidFileType",
    "ReadLimits",
    "RowLimits",
    "RowsRefused",
    "Segment",
    "Sheet",
    "ZipLimits",
    "all_formats",
    "conversion_target",
    "detect_file_type",
    "extract_segments",
    "format_of",
]
