"""Files read as rows of cells (a workbook's sheets, a CSV file): the values and the budget.

Nothing here knows what the columns mean. A reader yields only the cells a file holds
(never a row padded to a declared width) and takes each from a :class:`RowBudget`, which
refuses a file whose cells or text would cost more than the caller's bounds before the cost
is paid, and cuts a cell past its own bound (as a :class:`CutText`, which the caller can
report).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from formats.errors import RowsRefused
from formats.limits import RowLimits


class CutText(str):
    """A cell's text cut at the cell bound (``RowLimits.max_cell_chars``): a caller names it
    (a table that silently lost the end of a cell would mislead)."""

    __slots__ = ()


Cell = str | datetime.date


@dataclass(frozen=True, slots=True)
class Sheet:
    """One sheet (a CSV file is one sheet): its rows as (1-based row number, cell texts)."""

    name: str
    rows: tuple[tuple[int, tuple[Cell, ...]], ...]


class RowBudget:
    """What reading the file may still cost: cells (empty ones and rows included) and
    characters of text (a cell counted each time it is shown)."""

    def __init__(self, limits: RowLimits) -> None:
        self.limits = limits
        self.cells = limits.max_cells
        self.characters = limits.max_chars

    def take_cells(self, count: int) -> None:
        self.cells -= count
        if self.cells < 0:
            raise RowsRefused(
                f"The file holds more than {self.limits.max_cells:,} cells (empty ones included).",
                problem="too many cells",
                limit="cells",
                maximum=self.limits.max_cells,
            )

    def text(self, text: str) -> str:
        """`text` as kept (cut, as a CutText, past the cell bound), its length counted."""
        if len(text) > self.limits.max_cell_chars:
            text = CutText(text[: self.limits.max_cell_chars])
        self.characters -= len(text)
        if self.characters < 0:
            raise RowsRefused(
                f"The file's cells hold more than {self.limits.max_chars:,} characters of text.",
                problem="too much text",
                limit="text",
                maximum=self.limits.max_chars,
            )
        return text

    def row(self, number: int, sheet: str) -> None:
        """Refuse a row past the last one read (refused rather than cut: a table that
        silently left rows out would mislead)."""
        if number > self.limits.max_rows:
            raise RowsRefused(
                f"Sheet '{sheet}' has rows past row {self.limits.max_rows:,}; at most"
                f" {self.limits.max_rows:,} rows per sheet are read.",
                problem="too many rows",
                limit="rows",
                maximum=self.limits.max_rows,
            )


def trim(cells: tuple[Cell, ...]) -> tuple[Cell, ...]:
    """The cells without the empty ones at the end of the row."""
    end = len(cells)
    while end and cells[end - 1] == "":
        end -= 1
    return cells[:end]
