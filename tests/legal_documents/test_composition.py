"""Composition: complete documents, marked gaps, completeness from text, repair of drops."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from gdpr.composition import (
    TO_BE_COMPLETED,
    SourceRef,
    completeness_report,
    compose,
    document_skeleton,
    ensure_checklist,
    missing_items,
)
from gdpr.composition.completeness import item_blocks
from gdpr.doctypes.registry import DOCUMENT_TYPES
from legal_documents.rendering import markdown_to_safe_html

TYPE_NAMES = sorted(DOCUMENT_TYPES)


def _compose(name: str, inputs: dict[str, Any], now: datetime, **kwargs: Any) -> str:
    return compose(document_type=DOCUMENT_TYPES[name], inputs=inputs, now=now, **kwargs)


def _drop_section(markdown: str, number: int) -> str:
    """Remove the numbered `##` section, heading and all, from a composed document."""
    lines = markdown.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"## {number}. "))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return "\n".join(lines[:start] + lines[end:])


@pytest.mark.parametrize("name", TYPE_NAMES)
def test_it_writes_a_complete_document_from_full_inputs(
    name: str, full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    markdown = _compose(name, full_inputs[name], now, answers=full_answers[name])
    report = completeness_report(document_type=DOCUMENT_TYPES[name], markdown=markdown)

    assert report.missing == []
    assert report.complete
    assert TO_BE_COMPLETED not in markdown
    for item in DOCUMENT_TYPES[name].checklist:
        assert f"({item.article}) {{#{item.id}}}" in markdown


@pytest.mark.parametrize("name", TYPE_NAMES)
def test_it_composes_from_minimal_inputs_and_marks_what_is_missing(
    name: str, now: datetime
) -> None:
    document_type = DOCUMENT_TYPES[name]
    markdown = _compose(name, {"companyName": "Acme"}, now)

    missing = missing_items(document_type=document_type, markdown=markdown)
    assert missing, "a document without inputs cannot be complete"
    blocks = item_blocks(markdown)
    for item in missing:
        assert TO_BE_COMPLETED in blocks[item.id][0].body
    assert set(blocks) == {item.id for item in document_type.checklist}


@pytest.mark.parametrize("name", TYPE_NAMES)
def test_it_reports_a_dropped_section_as_missing(
    name: str, full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    document_type = DOCUMENT_TYPES[name]
    markdown = _compose(name, full_inputs[name], now, answers=full_answers[name])

    edited = _drop_section(markdown, 2)

    dropped = {item.id for item in document_type.items_of(document_type.sections[1].id)}
    report = completeness_report(document_type=document_type, markdown=edited)
    assert set(report.missing) == dropped
    assert not report.complete


@pytest.mark.parametrize("name", TYPE_NAMES)
def test_ensure_checklist_restores_items_another_writer_dropped(
    name: str, full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    document_type = DOCUMENT_TYPES[name]
    template = _compose(name, full_inputs[name], now, answers=full_answers[name])
    rewritten = _drop_section(template, 1).replace(
        "## 3.", "## 3. Rewritten by the model\n\nAn extra paragraph from the model.\n\n## 3.x", 1
    )

    repaired = ensure_checklist(
        document_type=document_type, markdown=rewritten, fallback_markdown=template
    )

    assert completeness_report(document_type=document_type, markdown=repaired).complete
    assert "An extra paragraph from the model." in repaired
    first_item = document_type.items_of(document_type.sections[0].id)[0]
    assert repaired.count(f"{{#{first_item.id}}}") == 1


def test_ensure_checklist_refills_an_item_left_empty_and_keeps_filled_ones(
    full_inputs: dict, now: datetime
) -> None:
    document_type = DOCUMENT_TYPES["RECORD_OF_PROCESSING"]
    template = _compose("RECORD_OF_PROCESSING", full_inputs["RECORD_OF_PROCESSING"], now)
    blocks = item_blocks(template)
    lines = template.splitlines()
    purposes = blocks["b-purposes"][0]
    erasure = blocks["f-erasure"][0]
    lines[erasure.heading_line + 1 : erasure.end_line] = ["", "Kept for 10 years (model text)."]
    lines[purposes.heading_line + 1 : purposes.end_line] = [""]
    edited = "\n".join(lines)
    assert completeness_report(document_type=document_type, markdown=edited).missing == [
        "b-purposes"
    ]

    repaired = ensure_checklist(
        document_type=document_type, markdown=edited, fallback_markdown=template
    )

    assert completeness_report(document_type=document_type, markdown=repaired).complete
    assert "Kept for 10 years (model text)." in repaired
    assert "Contract management" in repaired


@pytest.mark.parametrize("name", TYPE_NAMES)
def test_it_writes_the_same_text_for_the_same_inputs(
    name: str, full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    first = _compose(name, full_inputs[name], now, answers=full_answers[name])
    second = _compose(name, dict(full_inputs[name]), now, answers=dict(full_answers[name]))
    assert first == second


@pytest.mark.parametrize("name", TYPE_NAMES)
def test_it_escapes_markup_and_markers_in_user_values(
    name: str, full_inputs: dict, now: datetime
) -> None:
    document_type = DOCUMENT_TYPES[name]
    hostile = "<script>alert(1)</script> **x** [To be completed] {#evil} | cell\n# Heading"
    # Dates are parsed, the governing law must name a Member State (Art. 28(3)) and a DPIA's
    # country must have a known Art. 35(4) list: hostile text there is a real gap, not a
    # faked one.
    dates = {"discoveredAt", "receivedAt", "occurredAt", "governingLaw", "country"}
    inputs = {
        key: hostile if isinstance(value, str) and key not in dates else value
        for key, value in full_inputs[name].items()
    }

    markdown = _compose(name, inputs, now)
    html = markdown_to_safe_html(markdown)

    assert "<script" not in html
    assert "&lt;script&gt;" in html
    assert "<strong>x</strong>" not in html
    assert "<h1>Heading" not in html
    assert "evil" not in item_blocks(markdown)
    # Escaped user text can neither fake a gap nor hide one.
    plain = _compose(name, full_inputs[name], now)
    assert (
        completeness_report(document_type=document_type, markdown=markdown).missing
        == completeness_report(document_type=document_type, markdown=plain).missing
    )


def test_it_writes_answers_into_their_section_and_ignores_answers_whose_condition_fails(
    full_inputs: dict, now: datetime
) -> None:
    markdown = _compose(
        "DPIA",
        full_inputs["DPIA"],
        now,
        answers={
            "dataSubjectsConsulted": True,
            "consultationSummary": "Survey of 300 visitors.",
            "consultationNotSoughtReason": "Stale answer from before.",
        },
    )

    views = item_blocks(markdown)["data-subject-views"][0].body
    assert "Survey of 300 visitors." in views
    assert "Stale answer" not in markdown


def test_finalize_answers_override_questionnaire_answers(full_inputs: dict, now: datetime) -> None:
    markdown = _compose(
        "DPIA",
        full_inputs["DPIA"],
        now,
        answers={"dpoOpinion": "Unfavourable"},
        finalize_answers={"dpoOpinion": "Favourable"},
    )
    advice = item_blocks(markdown)["dpo-advice"][0].body
    assert "**Favourable**" in advice
    assert "Unfavourable" not in advice


def test_it_lists_sources_in_an_annex_only_when_there_are_some(
    full_inputs: dict, now: datetime
) -> None:
    sources = [SourceRef("policy*.pdf", "Retention: " + "x" * 500)]
    with_sources = _compose("DPIA", full_inputs["DPIA"], now, sources=sources)
    without = _compose("DPIA", full_inputs["DPIA"], now)

    assert "## Annex: Sources" in with_sources
    assert "policy\\*.pdf" in with_sources
    assert "…" in with_sources
    assert "Annex" not in without


@pytest.mark.parametrize("name", TYPE_NAMES)
def test_the_skeleton_gives_the_sections_in_order_and_joins_into_the_document(
    name: str, full_inputs: dict, now: datetime
) -> None:
    document_type = DOCUMENT_TYPES[name]
    skeleton = document_skeleton(document_type, full_inputs[name], now=now)

    assert [s.id for s in skeleton.sections] == [s.id for s in document_type.sections]
    assert skeleton.markdown == _compose(name, full_inputs[name], now)
    for section in skeleton.sections:
        for item in section.items:
            assert item.heading.endswith(f"{{#{item.id}}}")


def _context(document_type: Any, inputs: dict, now: datetime) -> Any:
    from gdpr.composition.skeleton import build_context

    return build_context(document_type=document_type, inputs=inputs, now=now)


def test_the_report_has_the_api_shape(full_inputs: dict, now: datetime) -> None:
    markdown = _compose("BREACH_NOTIFICATION", {"companyName": "Acme"}, now)
    report = completeness_report(
        document_type=DOCUMENT_TYPES["BREACH_NOTIFICATION"], markdown=markdown
    ).as_dict()

    assert report["documentType"] == "BREACH_NOTIFICATION"
    assert report["rulesetVersion"] == "breach-2026.2"
    assert report["complete"] is False
    assert report["items"][0] == {
        "id": "deadline",
        "article": "Art. 33(1)",
        "requirement": report["items"][0]["requirement"],
        "status": "missing",
        "section": "notification",
    }


def test_headings_inside_code_blocks_do_not_count(full_inputs: dict, now: datetime) -> None:
    document_type = DOCUMENT_TYPES["DPIA"]
    markdown = _compose("DPIA", full_inputs["DPIA"], now)
    fenced = "```\n" + markdown + "\n```\n"

    report = completeness_report(document_type=document_type, markdown=fenced)

    assert set(report.missing) == {item.id for item in document_type.checklist}


def test_a_misspelt_composition_option_is_refused(now: datetime) -> None:
    # The options travel as one keyword bundle (CompositionOptions) through compose,
    # compose_register and build_context: a wrong name must not be dropped silently, as an
    # `answer=` for `answers=` would leave the answers out.
    from gdpr.composition.skeleton import build_context

    with pytest.raises(TypeError, match="answer"):
        build_context(  # type: ignore[call-arg]
            document_type=DOCUMENT_TYPES["BREACH_NOTIFICATION"],
            inputs={"companyName": "Acme"},
            answer={},
            now=now,
        )
