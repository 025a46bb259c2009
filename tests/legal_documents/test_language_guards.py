"""Completeness, the checklist guard and the edit instructions read anchors, never English words.

Documents are composed in French and German here. With the catalogs still empty the headings
keep their English titles, but the article references and the to-be-completed marker are
already in the language: exactly what an English-only rule would trip on.
"""

from __future__ import annotations

import pytest

import gdpr
from gdpr.composition.markdown import MARKER_WORDS
from gdpr.i18n import _, activate
from legal_documents.providers.editing import apply_edit_instruction, find_section, headings
from tests.legal_documents.samples import FIXED_NOW, FULL_ANSWERS, FULL_INPUTS

LANGUAGES = ("de", "fr", "es", "it")


def _compose(name: str, language: str, *, full: bool = True) -> str:
    return gdpr.compose(
        document_type=gdpr.get_document_type(name),
        inputs=FULL_INPUTS[name] if full else {},
        answers=FULL_ANSWERS[name] if full else {},
        now=FIXED_NOW,
        language=language,
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_marker_of_each_language_counts_as_missing(language: str) -> None:
    spec = gdpr.get_document_type("RECORD_OF_PROCESSING")
    markdown = _compose("RECORD_OF_PROCESSING", language, full=False)
    assert f"**[{MARKER_WORDS[language]}]**" in markdown
    assert "[To be completed]" not in markdown
    report = gdpr.completeness_report(document_type=spec, markdown=markdown)
    assert "a-controller" in report.missing
    full = _compose("RECORD_OF_PROCESSING", language)
    assert gdpr.completeness_report(document_type=spec, markdown=full).complete


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_guard_puts_back_a_dropped_item_in_the_document_language(language: str) -> None:
    spec = gdpr.get_document_type("PRIVACY_POLICY")
    markdown = _compose("PRIVACY_POLICY", language)
    lines = markdown.splitlines()
    start = next(i for i, line in enumerate(lines) if line.endswith("{#complaint}"))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("#"))
    dropped = "\n".join(lines[:start] + lines[end:])
    assert "complaint" in gdpr.completeness_report(document_type=spec, markdown=dropped).missing
    repaired = gdpr.ensure_checklist(
        document_type=spec, markdown=dropped, fallback_markdown=markdown
    )
    assert gdpr.completeness_report(document_type=spec, markdown=repaired).complete
    assert lines[start] in repaired.splitlines()


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_item_is_found_by_its_exact_title_whatever_the_citation_form(language: str) -> None:
    markdown = _compose("PRIVACY_POLICY", language)
    with activate(language):  # the titles as this language writes them (English until translated)
        complaints, interests = _("Complaints"), _("Legitimate interests")
    heading, _end = find_section(markdown, complaints)
    assert heading.anchor == "complaint"
    # The title is the heading without its citation, in whichever form the language cites.
    titles = {h.anchor: h.title for h in headings(markdown)}
    assert titles["complaint"] == complaints
    assert titles["legitimate-interests"] == interests
    result = apply_edit_instruction(markdown, f'add to section "{complaints}": Call us first.')
    assert result.markdown is not None
    assert "Call us first." in result.markdown
