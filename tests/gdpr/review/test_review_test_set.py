"""The offline review meets a DPO's verdict on every document of the test set.

Documents and expected statuses: tests/fixtures/reviews/dpa/ (vendor DPAs) and
tests/fixtures/reviews/privacy/ (Art. 13 notices and an Art. 14 one, data obtained from third
parties); the README of each says why each status is what a DPO would write. The engine is
measured against them, never the reverse.
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

# Per folder: the document type and the item ids its expectations may name.
KINDS = {
    # docs/LEGAL.md's DATA_PROCESSING_AGREEMENT ids and the review-only checks of issue 28.
    "dpa": (
        "DATA_PROCESSING_AGREEMENT",
        frozenset({
            "subject-matter", "duration", "nature-purpose", "data-types", "data-subjects",
            "controller-rights", "a-instructions", "b-confidentiality", "c-security",
            "d-subprocessors", "e-dsr-assistance", "f-compliance-assistance", "g-deletion",
            "h-audits", "infringing-instructions", "subprocessor-objection", "termination",
            "transfers", "governing-law", "signatures", "annex-i-parties",
            "annex-ii-description", "annex-iii-measures", "annex-iv-subprocessors",
            "breach-notification", "transfer-instruments",
        }),
    ),
    # docs/LEGAL.md's PRIVACY_POLICY ids of Art. 13 and 14 that a notice's text decides.
    "privacy": (
        "PRIVACY_POLICY",
        frozenset({
            "controller", "dpo", "purposes-legal-basis", "legitimate-interests", "recipients",
            "transfers", "retention", "rights", "objection", "withdraw-consent", "complaint",
            "statutory-requirement", "automated-decisions", "data-categories", "source",
        }),
    ),
}  # fmt: skip
DOCUMENTS = [(kind, name) for kind in KINDS for name in case_names(kind)]
EACH_DOCUMENT = pytest.mark.parametrize(("kind", "name"), DOCUMENTS)


def test_it_has_the_six_dpas_the_issue_asks_for() -> None:
    languages = {case.document_language for case in cases("dpa")}
    assert len(case_names("dpa")) >= 6
    assert {"en", "de", "fr"} <= languages


def test_it_has_art_13_notices_in_three_languages_and_an_art_14_one() -> None:
    languages = {case.document_language for case in cases("privacy")}
    assert len(case_names("privacy")) >= 4
    assert {"en", "de", "fr"} <= languages
    assert any("source" in case.statuses for case in cases("privacy"))


@EACH_DOCUMENT
def test_its_expectations_name_only_checklist_items_and_statuses(kind: str, name: str) -> None:
    case = case_named(kind, name)
    document_type, items = KINDS[kind]
    assert case.document_type == document_type
    assert set(case.statuses) <= items
    assert set(case.quotes) <= set(case.statuses)
    assert all(set(accepted) <= STATUSES for accepted in case.statuses.values())
    # A phrase the document does not contain could never be quoted: a typo in the fixture.
    folded = case.text.casefold()
    for item_id, phrases in case.quotes.items():
        assert any(phrase.casefold() in folded for phrase in phrases), item_id


@EACH_DOCUMENT
def test_its_passages_are_verbatim_pieces_of_the_document(kind: str, name: str) -> None:
    case = case_named(kind, name)
    chunks = passages(kind, name)
    assert len(chunks) > 3
    assert all(passage.text in case.text for passage in chunks)
    assert all(len(passage.text) <= 1000 for passage in chunks)
    if case.paged:
        assert {passage.location for passage in chunks} >= {"page 1", "page 2"}


@EACH_DOCUMENT
def test_it_gives_every_item_the_status_a_dpo_expects(kind: str, name: str) -> None:
    case = case_named(kind, name)
    assert status_mismatches(case, review(kind, name, "en")) == []


@EACH_DOCUMENT
def test_it_quotes_the_clause_that_decides_each_item(kind: str, name: str) -> None:
    case = case_named(kind, name)
    assert quote_mismatches(case, review(kind, name, "en")) == []


@EACH_DOCUMENT
def test_it_recognises_the_document_and_its_language(kind: str, name: str) -> None:
    case = case_named(kind, name)
    report = review(kind, name, "en")
    assert report.document_type == KINDS[kind][0]
    assert report.document_language == case.document_language
    assert report.language == "en"
    assert len({item.item_id for item in report.items}) == len(report.items)


@EACH_DOCUMENT
def test_its_verdict_follows_from_the_gaps_a_dpo_sees(kind: str, name: str) -> None:
    case = case_named(kind, name)
    if case.verdict is None:
        pytest.skip("no verdict expected for this document")
    assert review(kind, name, "en").verdict.value == case.verdict


@EACH_DOCUMENT
def test_its_statuses_and_quotes_do_not_depend_on_the_report_language(kind: str, name: str) -> None:
    reports = [review(kind, name, language) for language in REPORT_LANGUAGES]
    assert reports[1].language == REPORT_LANGUAGES[1]
    assert comparable(reports[1]) == comparable(reports[0])
    assert status_mismatches(case_named(kind, name), reports[1]) == []


@pytest.mark.parametrize("language", REPORT_LANGUAGES)
def test_every_quote_of_the_whole_set_is_verbatim_in_a_passage_and_the_document(
    language: str,
) -> None:
    unverifiable = {
        f"{kind}/{name}": wrong
        for kind, name in DOCUMENTS
        if (wrong := unverifiable_quotes(kind, name, review(kind, name, language)))
    }
    assert unverifiable == {}
