"""The DPIA's risk map drawn into the HTML and PDF exports (and the admin's document page).

The map is read from the risks tables of the Markdown (`read_risk_tables`) and drawn right
after the last of them. The Markdown stays as composed (the map is a picture of its tables,
not text of its own); the drawing is added to the sanitizer's output, never passed through
Markdown: a one-off token paragraph marks the place before rendering and is replaced after
sanitizing, so no text of the document can produce or move it. Every label is escaped here.

HTML gets an inline SVG (no request, no script). xhtml2pdf would rasterize an SVG image at
one pixel per point (a blurred map, and text that cannot be searched), so the PDF gets the
same grid as a table of coloured cells with the markers as circled numbers (DejaVu Sans has
them: ① before the measures, ❶ with the measures in place); the Word file does the same
(`risk_map_docx`).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from html import escape

from gdpr.composition.assessments.risk_map import (
    AFTER,
    BEFORE,
    LIKELIHOOD_COLUMNS,
    SEVERITY_ROWS,
    MapMarker,
    RiskMap,
)
from gdpr.composition.assessments.risk_scale import SCALE_LABELS
from gdpr.composition.writers.dpia_risk_tables import RiskTables, read_risk_tables
from gdpr.i18n import N_, _
from legal_documents.rendering import markdown_to_safe_html

MAP_DOCUMENT_TYPES = frozenset({"DPIA"})
# The zones as the CNIL PIA method colours them: green (may be accepted), orange (to be
# reduced), red (to be avoided). Light enough for dark numbers to read on every one.
ZONE_COLOURS = {
    "low": "#9bd18b",
    "medium (severe impact)": "#f7c15c",
    "medium (likely)": "#f7c15c",
    "high": "#ec7063",
}
ZONE_ORDER = ("low", "medium (severe impact)", "medium (likely)", "high")
MARKER_COLOUR = "#1f3a5f"
TITLE = N_("Risk map")
STAGE_LABELS = {BEFORE: N_("before the measures"), AFTER: N_("with the measures in place")}
SEVERITY = N_("Severity")
LIKELIHOOD = N_("Likelihood")
# Circled digits of DejaVu Sans: hollow (U+2460...) before, filled (U+2776...) after.
_GLYPH_BASE = {BEFORE: 0x2460, AFTER: 0x2776}
_GLYPHS = 10


def document_risk_tables(markdown: str, document_type: str) -> RiskTables | None:
    """The risks tables of a DPIA (read in the active language); None for other types."""
    if document_type not in MAP_DOCUMENT_TYPES:
        return None
    return read_risk_tables(markdown)


@dataclass(frozen=True, slots=True)
class MarkedMarkdown:
    """The Markdown with a token paragraph where the map goes, the token and the map."""

    markdown: str
    token: str
    risk_map: RiskMap


def mark_risk_map(markdown: str, document_type: str) -> MarkedMarkdown | None:
    """A paragraph of a one-off token after the last risks table (None: no map to draw).

    The token is random per call: no text of the document can contain it, so the renderer
    that replaces it puts the map there and nowhere else.
    """
    tables = document_risk_tables(markdown, document_type)
    if tables is None:
        return None
    token = f"riskmap{secrets.token_hex(12)}"
    lines = markdown.split("\n")
    lines.insert(tables.end_line, f"\n{token}\n")
    return MarkedMarkdown(markdown="\n".join(lines), token=token, risk_map=tables.map)


def body_with_risk_map(markdown: str, document_type: str, *, draw: Callable[[RiskMap], str]) -> str:
    """`markdown_to_safe_html(markdown)`, with `draw(map)` after the last risks table."""
    marked = mark_risk_map(markdown, document_type)
    if marked is None:
        return markdown_to_safe_html(markdown)
    html = markdown_to_safe_html(marked.markdown)
    placeholder = f"<p>{marked.token}</p>"
    if placeholder not in html:  # cannot happen with a table ending at a block boundary
        return markdown_to_safe_html(markdown)
    return html.replace(placeholder, draw(marked.risk_map), 1)


def marker_glyph(number: int, stage: str) -> str:
    """① before, ❶ after (up to 10; beyond, the number in brackets)."""
    if 1 <= number <= _GLYPHS:
        return chr(_GLYPH_BASE[stage] + number - 1)
    return f"({number})" if stage == BEFORE else f"[{number}]"


def scale_label(value: int) -> str:
    return f"{value} {_(SCALE_LABELS[value])}"


def marker_title(marker: MapMarker) -> str:
    return f"{marker.number}. {marker.label}: {_(STAGE_LABELS[marker.stage])}"


# -- HTML: inline SVG --------------------------------------------------------------------------

_LEFT, _TOP, _CELL_WIDTH, _CELL_HEIGHT, _BOTTOM, _RIGHT = 132, 8, 110, 76, 58, 8
_WIDTH = _LEFT + _CELL_WIDTH * len(LIKELIHOOD_COLUMNS) + _RIGHT
_HEIGHT = _TOP + _CELL_HEIGHT * len(SEVERITY_ROWS) + _BOTTOM
_PER_ROW = 4


def cell_origin(severity: int, likelihood: int) -> tuple[int, int]:
    """Top-left corner of a cell in the SVG's user units."""
    return (
        _LEFT + LIKELIHOOD_COLUMNS.index(likelihood) * _CELL_WIDTH,
        _TOP + SEVERITY_ROWS.index(severity) * _CELL_HEIGHT,
    )


def marker_centre(marker: MapMarker, count: int) -> tuple[float, float, float]:
    """(cx, cy, r) of a marker among `count` in its cell: rows of four, centred."""
    radius = 11.0 if count <= 2 * _PER_ROW else 7.5
    step = 2 * radius + 4
    columns, rows = min(count, _PER_ROW), -(-count // _PER_ROW)
    x, y = cell_origin(marker.severity, marker.likelihood)
    column, row = marker.slot % _PER_ROW, marker.slot // _PER_ROW
    return (
        x + (_CELL_WIDTH - columns * step) / 2 + step / 2 + column * step,
        y + (_CELL_HEIGHT - rows * step) / 2 + step / 2 + row * step,
        radius,
    )


def _svg_marker(marker: MapMarker, count: int) -> str:
    cx, cy, radius = marker_centre(marker, count)
    filled = marker.stage == AFTER
    fill, ink = (MARKER_COLOUR, "#ffffff") if filled else ("#ffffff", MARKER_COLOUR)
    return (
        f'<g class="risk-marker risk-marker-{marker.stage}" data-risk="{marker.number}"'
        f' data-stage="{marker.stage}" data-severity="{marker.severity}"'
        f' data-likelihood="{marker.likelihood}">'
        f"<title>{escape(marker_title(marker))}</title>"
        f'<circle cx="{cx:g}" cy="{cy:g}" r="{radius:g}" fill="{fill}"'
        f' stroke="{MARKER_COLOUR}" stroke-width="2"/>'
        f'<text x="{cx:g}" y="{cy:g}" dy="0.35em" text-anchor="middle" font-size="{radius:g}"'
        f' font-weight="bold" fill="{ink}">{marker.number}</text></g>'
    )


def _svg_text(x: float, y: float, text: str, *, anchor: str = "middle", bold: bool = False) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text x="{x:g}" y="{y:g}" text-anchor="{anchor}" font-size="11"{weight}'
        f' fill="#1a1a1a">{escape(text)}</text>'
    )


def risk_map_svg(risk_map: RiskMap) -> str:
    """The grid, its axes and every marker as one inline SVG element."""
    parts = []
    for row in risk_map.rows:
        for cell in row:
            x, y = cell_origin(cell.severity, cell.likelihood)
            parts.append(
                f'<g class="risk-cell" data-severity="{cell.severity}"'
                f' data-likelihood="{cell.likelihood}" data-level="{escape(cell.level)}">'
                f'<rect x="{x}" y="{y}" width="{_CELL_WIDTH}" height="{_CELL_HEIGHT}"'
                f' fill="{ZONE_COLOURS[cell.level]}" stroke="#ffffff" stroke-width="2"/>'
                + "".join(_svg_marker(marker, len(cell.markers)) for marker in cell.markers)
                + "</g>"
            )
    for severity in SEVERITY_ROWS:
        y = cell_origin(severity, 1)[1]
        parts.append(_svg_text(_LEFT - 8, y + _CELL_HEIGHT / 2 - 3, str(severity), anchor="end",
                               bold=True))  # fmt: skip
        parts.append(
            _svg_text(_LEFT - 8, y + _CELL_HEIGHT / 2 + 11, _(SCALE_LABELS[severity]), anchor="end")
        )
    bottom = _TOP + _CELL_HEIGHT * len(SEVERITY_ROWS)
    for likelihood in LIKELIHOOD_COLUMNS:
        x = cell_origin(1, likelihood)[0]
        parts.append(_svg_text(x + _CELL_WIDTH / 2, bottom + 15, str(likelihood), bold=True))
        parts.append(_svg_text(x + _CELL_WIDTH / 2, bottom + 29, _(SCALE_LABELS[likelihood])))
    parts.append(
        _svg_text(_LEFT + _CELL_WIDTH * 2, bottom + 50, f"{_(LIKELIHOOD)} \N{RIGHTWARDS ARROW}",
                  bold=True)
    )  # fmt: skip
    middle = _TOP + _CELL_HEIGHT * 2
    parts.append(
        f'<text x="14" y="{middle}" transform="rotate(-90 14 {middle})" text-anchor="middle"'
        f' font-size="11" font-weight="bold" fill="#1a1a1a">'
        f"{escape(_(SEVERITY))} \N{RIGHTWARDS ARROW}</text>"
    )
    title = _(TITLE)
    return (
        f'<svg class="risk-map-grid" xmlns="http://www.w3.org/2000/svg" role="img"'
        f' viewBox="0 0 {_WIDTH} {_HEIGHT}" width="{_WIDTH}" height="{_HEIGHT}"'
        f' font-family="DejaVu Sans, Arial, sans-serif" aria-label="{escape(title)}">'
        f"<title>{escape(title)}</title>" + "".join(parts) + "</svg>"
    )


def _key_symbol(stage: str) -> str:
    fill = MARKER_COLOUR if stage == AFTER else "#ffffff"
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"'
        f' aria-hidden="true"><circle cx="8" cy="8" r="6" fill="{fill}"'
        f' stroke="{MARKER_COLOUR}" stroke-width="2"/></svg>'
    )


def _zone_symbol(level: str) -> str:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="12" viewBox="0 0 16 12"'
        f' aria-hidden="true"><rect width="16" height="12" fill="{ZONE_COLOURS[level]}"/></svg>'
    )


def risk_map_figure(risk_map: RiskMap) -> str:
    """The map as an HTML `<figure>`: title, SVG, marker and zone key, numbered risks."""
    stages = " ".join(
        f'<span class="risk-map-key-item">{_key_symbol(stage)} {escape(_(STAGE_LABELS[stage]))}'
        "</span>"
        for stage in (BEFORE, AFTER)
    )
    zones = " ".join(
        f'<span class="risk-map-key-item">{_zone_symbol(level)} {escape(_(level))}</span>'
        for level in ZONE_ORDER
    )
    risks = "".join(f"<li>{escape(risk.label)}</li>" for risk in risk_map.risks)
    return (
        f'<figure class="risk-map"><figcaption>{escape(_(TITLE))}</figcaption>'
        f"{risk_map_svg(risk_map)}"
        f'<p class="risk-map-key">{stages}</p><p class="risk-map-key">{zones}</p>'
        f'<ol class="risk-map-risks">{risks}</ol></figure>'
    )


# -- PDF: a table of coloured cells ----------------------------------------------------------


def _print_markers(markers: tuple[MapMarker, ...]) -> str:
    return " ".join(marker_glyph(marker.number, marker.stage) for marker in markers)


def risk_map_print_table(risk_map: RiskMap) -> str:
    """The map as xhtml2pdf draws it: a 5 x 5 table (axis labels, 16 coloured cells)."""
    rows = []
    for severity, row in zip(SEVERITY_ROWS, risk_map.rows, strict=True):
        cells = "".join(
            f'<td class="risk-map-cell" style="background-color: {ZONE_COLOURS[cell.level]}">'
            f"{escape(_print_markers(cell.markers))}</td>"
            for cell in row
        )
        rows.append(
            f'<tr><th class="risk-map-tick">{escape(scale_label(severity))}</th>{cells}</tr>'
        )
    ticks = "".join(
        f'<th class="risk-map-tick-x">{escape(scale_label(likelihood))}</th>'
        for likelihood in LIKELIHOOD_COLUMNS
    )
    rows.append(f'<tr><th class="risk-map-tick">&nbsp;</th>{ticks}</tr>')
    stages = " \N{EM SPACE} ".join(
        f"{marker_glyph(1, stage)} {escape(_(STAGE_LABELS[stage]))}" for stage in (BEFORE, AFTER)
    )
    zones = " \N{EM SPACE} ".join(
        f'<span style="color: {ZONE_COLOURS[level]}">\N{BLACK SQUARE}</span> {escape(_(level))}'
        for level in ZONE_ORDER
    )
    risks = "".join(
        f"<li>{escape(marker_glyph(risk.number, BEFORE))}"
        f" {escape(marker_glyph(risk.number, AFTER))} {escape(risk.label)}</li>"
        for risk in risk_map.risks
    )
    return (
        f'<div class="risk-map"><p class="risk-map-title">{escape(_(TITLE))}</p>'
        f'<p class="risk-map-axis">{escape(_(SEVERITY))} \N{UPWARDS ARROW}</p>'
        f'<table class="risk-map-grid">{"".join(rows)}</table>'
        f'<p class="risk-map-axis risk-map-axis-x">{escape(_(LIKELIHOOD))} \N{RIGHTWARDS ARROW}</p>'
        f'<p class="risk-map-key">{stages}</p><p class="risk-map-key">{zones}</p>'
        f'<ul class="risk-map-risks">{risks}</ul></div>'
    )
