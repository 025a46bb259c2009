"""The CNIL risk map as data: the 4 x 4 grid of zones and each risk's markers on it.

Severity runs upward (4 Maximum at the top), likelihood across (1 Negligible on the left).
A cell's zone is `risk_level`, the function the DPIA's "Position on the map" column prints,
so a zone on the picture and a word in the table cannot disagree. Each risk has two markers:
where it sits before the measures and where it sits with the measures in place. The exports
draw this (SVG, coloured cells, a Word table); none of them computes a position itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from gdpr.composition.assessments.risk_scale import risk_level

# Top to bottom, left to right: the order in which every drawing lays the grid out.
SEVERITY_ROWS = (4, 3, 2, 1)
LIKELIHOOD_COLUMNS = (1, 2, 3, 4)
BEFORE = "before"
AFTER = "after"


class RatedRisk(Protocol):
    """What a risk needs to be placed on the map (a `RiskRating`, a row read from a table)."""

    @property
    def label(self) -> str: ...
    @property
    def severity(self) -> int: ...
    @property
    def likelihood(self) -> int: ...
    @property
    def residual_severity(self) -> int: ...
    @property
    def residual_likelihood(self) -> int: ...


@dataclass(frozen=True, slots=True)
class MappedRisk:
    """A risk as the map numbers it (1, 2, ... in the order of the risks tables)."""

    number: int
    label: str
    severity: int
    likelihood: int
    residual_severity: int
    residual_likelihood: int


@dataclass(frozen=True, slots=True)
class MapMarker:
    """One risk at one stage (`BEFORE` or `AFTER` the measures), in its cell at `slot`."""

    number: int
    label: str
    stage: str
    severity: int
    likelihood: int
    slot: int  # index among the markers of its cell: before-markers first, by number


@dataclass(frozen=True, slots=True)
class MapCell:
    severity: int
    likelihood: int
    level: str  # the code `risk_level` returns: "low", "medium (likely)", ..., "high"
    markers: tuple[MapMarker, ...]


@dataclass(frozen=True, slots=True)
class RiskMap:
    risks: tuple[MappedRisk, ...]
    rows: tuple[tuple[MapCell, ...], ...]  # SEVERITY_ROWS down, LIKELIHOOD_COLUMNS across

    @property
    def markers(self) -> tuple[MapMarker, ...]:
        return tuple(marker for row in self.rows for cell in row for marker in cell.markers)

    def cell(self, *, severity: int, likelihood: int) -> MapCell:
        return self.rows[SEVERITY_ROWS.index(severity)][LIKELIHOOD_COLUMNS.index(likelihood)]


def risk_map(risks: Iterable[RatedRisk]) -> RiskMap:
    """The map of `risks`, numbered from 1 in the order given.

    A value outside 1-4 (a hand-edited table) is a programming or editing error the caller
    filters out; here it raises ValueError rather than drawing a marker off the grid.
    """
    mapped = tuple(
        MappedRisk(
            number=number,
            label=risk.label,
            severity=risk.severity,
            likelihood=risk.likelihood,
            residual_severity=risk.residual_severity,
            residual_likelihood=risk.residual_likelihood,
        )
        for number, risk in enumerate(risks, start=1)
    )
    placed: dict[tuple[int, int], list[tuple[str, MappedRisk]]] = {}
    for stage in (BEFORE, AFTER):
        for risk in mapped:
            position = (
                (risk.severity, risk.likelihood)
                if stage == BEFORE
                else (risk.residual_severity, risk.residual_likelihood)
            )
            if position[0] not in SEVERITY_ROWS or position[1] not in LIKELIHOOD_COLUMNS:
                raise ValueError(f"risk {risk.number} is off the 1-4 scale: {position}")
            placed.setdefault(position, []).append((stage, risk))
    rows = tuple(
        tuple(
            MapCell(
                severity=severity,
                likelihood=likelihood,
                level=risk_level(severity, likelihood),
                markers=tuple(
                    MapMarker(
                        number=risk.number,
                        label=risk.label,
                        stage=stage,
                        severity=severity,
                        likelihood=likelihood,
                        slot=slot,
                    )
                    for slot, (stage, risk) in enumerate(placed.get((severity, likelihood), []))
                ),
            )
            for likelihood in LIKELIHOOD_COLUMNS
        )
        for severity in SEVERITY_ROWS
    )
    return RiskMap(risks=mapped, rows=rows)
