"""The DPIA's risks tables read back from its Markdown, for the risk map the exports draw.

A document version is stored as Markdown only, and its text may have been edited since it
was composed: the map is drawn from the numbers the tables print (in the document's
language, `write_risks`), never from the inputs again, so the picture always shows the table
printed beside it, for the current version as for an old one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gdpr.composition.assessments.risk_map import RiskMap, risk_map
from gdpr.composition.writers.dpia import POSITION_HEADER, RESIDUAL_POSITION_HEADER
from gdpr.i18n import _

# | label | severity | likelihood | position | residual severity | ... likelihood | ... position |
_COLUMNS = 7
_CELL_SEPARATOR = re.compile(r"(?<!\\)\|")
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")
# A value cell starts with the number: "3 (Significant)" or "3 (Significant), set by the
# controller (proposed: 2 (Limited))"; the proposal after it is not where the risk sits.
_VALUE = re.compile(r"^\s*([1-4])(?!\d)")


@dataclass(frozen=True, slots=True)
class TableRisk:
    label: str
    severity: int
    likelihood: int
    residual_severity: int
    residual_likelihood: int


@dataclass(frozen=True, slots=True)
class RiskTables:
    """The rows of every risks table, and the line the map goes before (0-based)."""

    risks: tuple[TableRisk, ...]
    end_line: int

    @property
    def map(self) -> RiskMap:
        return risk_map(self.risks)


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in _CELL_SEPARATOR.split(line.strip().strip("|"))]


def _is_risk_header(line: str) -> bool:
    cells = _cells(line) if line.lstrip().startswith("|") else []
    return (
        len(cells) == _COLUMNS
        and cells[3] == _(POSITION_HEADER)
        and cells[6] == _(RESIDUAL_POSITION_HEADER)
    )


def _row(cells: list[str]) -> TableRisk | None:
    if len(cells) != _COLUMNS:
        return None
    values = [_VALUE.match(_ESCAPED.sub(r"\1", cells[index])) for index in (1, 2, 4, 5)]
    if not all(values):
        return None  # a row edited into something else is left off the map, not guessed
    severity, likelihood, residual_severity, residual_likelihood = (
        int(match.group(1)) for match in values if match
    )
    return TableRisk(
        label=_ESCAPED.sub(r"\1", cells[0]),
        severity=severity,
        likelihood=likelihood,
        residual_severity=residual_severity,
        residual_likelihood=residual_likelihood,
    )


def read_risk_tables(markdown: str) -> RiskTables | None:
    """Every row of the risks tables (feared events, then risks to rights) in order.

    The headers are matched in the active language (`gdpr.i18n.activate` the document's).
    None when the Markdown has no such table or no row that reads as one.
    """
    lines = markdown.split("\n")
    risks: list[TableRisk] = []
    end_line = None
    index = 0
    while index < len(lines):
        if not _is_risk_header(lines[index]):
            index += 1
            continue
        index += 2  # the header and the |---| line
        while index < len(lines) and lines[index].lstrip().startswith("|"):
            row = _row(_cells(lines[index]))
            if row is not None:
                risks.append(row)
            index += 1
        end_line = index
    if not risks or end_line is None:
        return None
    return RiskTables(risks=tuple(risks), end_line=end_line)
