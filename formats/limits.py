"""The bounds a caller reads a file under. The numbers come from the caller (the settings
of the asset pipeline or of the register import); the rules that apply them are the
formats' own, the same for every caller."""

from __future__ import annotations

from dataclasses import dataclass, field

from formats.ocr import OcrOptions

# A default fit for real registers and exports; ASSET_XLSX_MAX_CELLS_PER_SHEET overrides.
DEFAULT_MAX_CELLS_PER_SHEET = 5_000_000


@dataclass(frozen=True, slots=True)
class ZipLimits:
    """The bounds of a ZIP container (DOCX, XLSX, PPTX), checked from its central directory
    before any parser opens it (zipguard.py).

    Office XML compresses well (10-30x is common, 100x happens on repetitive sheets); a
    large member beyond 200x is a bomb, not a document.
    """

    max_total_uncompressed: int = 500 * 1024 * 1024
    max_members: int = 10_000
    max_ratio: float = 200
    # Members smaller than this are not held to the ratio (tiny XML parts compress wildly).
    ratio_check_min_bytes: int = 10 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class ReadLimits:
    """The bounds of reading a file's text: non-empty cells per sheet, characters of text
    (None: unbounded), and the container's; and how the pages of a PDF that are pictures
    are recognised (None: they are not, and a PDF of pictures only is "no text found")."""

    max_sheet_cells: int = DEFAULT_MAX_CELLS_PER_SHEET
    max_chars: int | None = None
    zip: ZipLimits = field(default_factory=ZipLimits)
    ocr: OcrOptions | None = None


@dataclass(frozen=True, slots=True)
class RowLimits:
    """The bounds of reading a file as rows of cells (tabular.py): rows per sheet (refused
    past, never cut), columns (the ones past are not read), sheets per workbook, cells per
    file (empty ones and row elements included), characters of text per file, characters
    kept of one cell (cut past it), and the container's."""

    max_rows: int
    max_columns: int
    max_sheets: int
    max_cells: int
    max_chars: int
    max_cell_chars: int
    zip: ZipLimits = field(default_factory=ZipLimits)
