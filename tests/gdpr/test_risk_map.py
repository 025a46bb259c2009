"""The CNIL risk map as data: read from the DPIA's risks tables, the cells their zones.

No database.
"""

from __future__ import annotations

import pytest

import gdpr
from gdpr.composition.assessments.risk_map import AFTER, BEFORE, risk_map
from gdpr.composition.assessments.risk_scale import RiskRating, risk_level
from gdpr.composition.skeleton import build_context
from gdpr.composition.writers import dpia
from gdpr.composition.writers.dpia_risk_tables import read_risk_tables
from gdpr.i18n import SUPPORTED_LANGUAGES, activate
from tests.legal_documents.samples import FIXED_NOW, FULL_ANSWERS, FULL_INPUTS

# The full DPIA's ratings as its English golden file prints them (tests/gdpr/golden/
# DPIA.full.md): number -> ((severity, likelihood) before, (severity, likelihood) after).
FULL_POSITIONS = {
    1: ((4, 4), (3, 3)),
    2: ((3, 2), (2, 1)),
    3: ((2, 3), (2, 2)),
    4: ((4, 4), (3, 4)),
    5: ((3, 2), (2, 2)),
    6: ((2, 3), (2, 3)),
    7: ((3, 4), (2, 4)),
    8: ((3, 2), (3, 2)),
}


def full_dpia(language: str = "en") -> str:
    with activate(language):
        return gdpr.compose(
            document_type=gdpr.get_document_type("DPIA"),
            inputs=FULL_INPUTS["DPIA"],
            answers=FULL_ANSWERS["DPIA"],
            now=FIXED_NOW,
        )


def rating(label: str, before: tuple[int, int], after: tuple[int, int]) -> RiskRating:
    return RiskRating(
        key=label, label=label, severity=before[0], likelihood=before[1],
        residual_severity=after[0], residual_likelihood=after[1],
        reasons=(), mitigating_families=(), recommendations=(),
    )  # fmt: skip


def positions(markdown: str, language: str) -> dict[int, tuple[tuple[int, int], tuple[int, int]]]:
    with activate(language):
        tables = read_risk_tables(markdown)
    assert tables is not None
    found: dict[int, dict[str, tuple[int, int]]] = {}
    for marker in tables.map.markers:
        found.setdefault(marker.number, {})[marker.stage] = (marker.severity, marker.likelihood)
    return {number: (stages[BEFORE], stages[AFTER]) for number, stages in found.items()}


def test_it_puts_each_marker_in_the_cell_of_its_severity_and_likelihood():
    mapped = risk_map([rating("access", (4, 2), (2, 1)), rating("loss", (2, 2), (2, 2))])

    top_row_second_cell = mapped.cell(severity=4, likelihood=2).markers
    assert [(m.number, m.stage) for m in top_row_second_cell] == [(1, BEFORE)]
    assert [(m.number, m.stage) for m in mapped.cell(severity=2, likelihood=1).markers] == [
        (1, AFTER)
    ]
    # A risk the measures do not move has both markers in one cell, before first.
    both = mapped.cell(severity=2, likelihood=2).markers
    assert [(m.number, m.stage, m.slot) for m in both] == [(2, BEFORE, 0), (2, AFTER, 1)]
    assert len(mapped.markers) == 4


def test_it_colours_each_cell_by_the_zone_the_table_prints():
    mapped = risk_map([])

    assert [cell.severity for cell in mapped.rows[0]] == [4, 4, 4, 4]  # severity upward
    assert [cell.likelihood for cell in mapped.rows[0]] == [1, 2, 3, 4]  # likelihood across
    for row in mapped.rows:
        for cell in row:
            assert cell.level == risk_level(cell.severity, cell.likelihood)
    assert mapped.cell(severity=4, likelihood=4).level == "high"
    assert mapped.cell(severity=1, likelihood=1).level == "low"
    assert mapped.cell(severity=4, likelihood=1).level == "medium (severe impact)"
    assert mapped.cell(severity=1, likelihood=4).level == "medium (likely)"


def test_it_refuses_a_value_off_the_scale():
    with pytest.raises(ValueError, match="off the 1-4 scale"):
        risk_map([rating("odd", (5, 1), (1, 1))])


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_it_reads_the_positions_the_risks_tables_print_in_every_language(language):
    assert positions(full_dpia(language), language) == FULL_POSITIONS


def test_it_draws_the_ratings_the_dpia_computed():
    # The tables print the writer's ratings: read back, the map shows those exact numbers.
    context = build_context(
        document_type=gdpr.get_document_type("DPIA"), inputs=FULL_INPUTS["DPIA"],
        answers=FULL_ANSWERS["DPIA"], now=FIXED_NOW,
    )  # fmt: skip
    with activate("en"):
        assessment = dpia.assess(context).risks
    expected = {
        number: (
            (risk.severity, risk.likelihood),
            (risk.residual_severity, risk.residual_likelihood),
        )
        for number, risk in enumerate((*assessment.risks, *assessment.rights_risks), start=1)
    }

    assert positions(full_dpia(), "en") == expected


def test_it_reads_the_controllers_value_not_the_engines_proposal():
    markdown = (
        "| Feared event | Severity | Likelihood | Position on the map | Residual severity"
        " | Residual likelihood | Residual position |\n|---|---|---|---|---|---|---|\n"
        "| Illegitimate access to data | 2 (Limited), set by the controller (proposed: 4"
        " (Maximum)) | 1 (Negligible) | low | 1 (Negligible) | 1 (Negligible) | low |\n"
    )

    assert positions(markdown, "en") == {1: ((2, 1), (1, 1))}


def test_it_leaves_a_row_edited_into_prose_off_the_map():
    markdown = (
        "| Feared event | Severity | Likelihood | Position on the map | Residual severity"
        " | Residual likelihood | Residual position |\n|---|---|---|---|---|---|---|\n"
        "| Access | high | 2 (Limited) | ? | 1 (Negligible) | 1 (Negligible) | low |\n"
        "| Loss | 3 (Significant) | 2 (Limited) | medium | 3 (Significant) | 1 (Negligible) | x |\n"
        "\nText after the table.\n"
    )

    with activate("en"):
        tables = read_risk_tables(markdown)

    assert tables is not None
    assert [risk.label for risk in tables.risks] == ["Loss"]
    assert markdown.split("\n")[tables.end_line] == ""  # the map goes right after the table


def test_a_document_without_risks_tables_has_no_map():
    with activate("en"):
        assert read_risk_tables("# DPIA\n\n| A | B |\n|---|---|\n| 1 | 2 |\n") is None
