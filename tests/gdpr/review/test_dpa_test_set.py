"""The offline review meets a DPO's verdict on every vendor DPA of the test set.

Documents and expected statuses: tests/fixtures/reviews/dpa/ (README there says why each
status is what a DPO would write). The engine is measured against them, never the reverse.
"""

from __future__ import annotations

import pytest

from tests.gdpr.review.review_test_set import (
    REPORT_LANGUAGES,
    STATUSES,
    case_named,
    case_names,
    cases,
    comparable,
    passages,
    quote_mismatches,
    review,
    status_mismatches,
    unverifiable_quotes,
)

KIND = "dpa"
NAMES = case_names(KIND)
# docs/LEGAL.md's DATA_PROCESSING_AGREEMENT ids and the review-only checks of issue 28.
DPA_ITEMS = frozenset(
    {
        "subject-matter", "duration", "nature-purpose", "data-types", "data-subjects",
        "controller-rights", "a-instructions", "b-confidentiality", "c-security",
        "d-subprocessors", "e-dsr-assistance", "f-compliance-assistance", "g-deletion",
        "h-audits", "infringing-instructions", "subprocessor-objection", "termination",
        "transfers", "governing-law", "signatures", "annex-i-parties", "annex-ii-description",
        "annex-iii-measures", "annex-iv-subprocessors", "breach-notification",
        "transfer-instruments",
    }
)  # fmt: skip


def test_it_has_the_six_dpas_the_issue_asks_for() -> None:
    languages = {case.document_language for case in cases(KIND)}
    assert len(NAMES) >= 6
    assert {"en", "de", "fr"} <= languages


@pytest.mark.parametrize("name", NAMES)
def test_its_expectations_name_only_checklist_items_and_statuses(name: str) -> None:
    case = case_named(KIND, name)
    assert case.document_type == "DATA_PROCESSING_AGREEMENT"
    assert set(case.statuses) <= DPA_ITEMS
    assert set(case.quotes) <= set(case.statuses)
    assert all(set(accepted) <= STATUSES for accepted in case.statuses.values())
    # A phrase the document does not contain could never be quoted: a typo in the fixture.
    folded = case.text.casefold()
    for item_id, phrases in case.quotes.items():
        assert any(phrase.casefold() in folded for phrase in phrases), item_id


@pytest.mark.parametrize("name", NAMES)
def test_its_passages_are_verbatim_pieces_of_the_document(name: str) -> None:
    case = case_named(KIND, name)
    chunks = passages(KIND, name)
    assert len(chunks) > 3
    assert all(passage.text in case.text for passage in chunks)
    assert all(len(passage.text) <= 1000 for passage in chunks)
    if case.paged:
        assert {passage.location for passage in chunks} >= {"page 1", "page 2"}


@pytest.mark.parametrize("name", NAMES)
def test_it_gives_every_item_the_status_a_dpo_expects(name: str) -> None:
    case = case_named(KIND, name)
    assert status_mismatches(case, review(KIND, name, "en")) == []


@pytest.mark.parametrize("name", NAMES)
def test_it_quotes_the_clause_that_decides_each_item(name: str) -> None:
    case = case_named(KIND, name)
    assert quote_mismatches(case, review(KIND, name, "en")) == []


@pytest.mark.parametrize("name", NAMES)
def test_it_recognises_the_document_and_its_language(name: str) -> None:
    case = case_named(KIND, name)
    report = review(KIND, name, "en")
    assert report.document_type == "DATA_PROCESSING_AGREEMENT"
    assert report.document_language == case.document_language
    assert report.language == "en"
    assert len({item.item_id for item in report.items}) == len(report.items)


@pytest.mark.parametrize("name", NAMES)
def test_its_verdict_follows_from_the_gaps_a_dpo_sees(name: str) -> None:
    case = case_named(KIND, name)
    if case.verdict is None:
        pytest.skip("no verdict expected for this document")
    assert review(KIND, name, "en").verdict.value == case.verdict


@pytest.mark.parametrize("name", NAMES)
def test_its_statuses_and_quotes_do_not_depend_on_the_report_language(name: str) -> None:
    reports = [review(KIND, name, language) for language in REPORT_LANGUAGES]
    assert reports[1].language == REPORT_LANGUAGES[1]
    assert comparable(reports[1]) == comparable(reports[0])
    assert status_mismatches(case_named(KIND, name), reports[1]) == []


@pytest.mark.parametrize("language", REPORT_LANGUAGES)
def test_every_quote_of_the_whole_set_is_verbatim_in_a_passage_and_the_document(
    language: str,
) -> None:
    unverifiable = {
        name: wrong
        for name in NAMES
        if (wrong := unverifiable_quotes(KIND, name, review(KIND, name, language)))
    }
    assert unverifiable == {}
