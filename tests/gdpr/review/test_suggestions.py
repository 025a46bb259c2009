"""A review's suggestion: the clause our own template writes for the item, in the report's
language (issue 28), composed by the template's own writers (`gdpr.review.suggestions`)."""

from __future__ import annotations

import re

import pytest

from gdpr.composition.markdown import MARKER_WORDS
from gdpr.i18n import COMPLETE_LANGUAGES, UnsupportedLanguage, _, activate
from gdpr.i18n.detect import foreign_sentences, sentence_language, sentences
from gdpr.review.suggestions import (
    CONTROLLER_NAME,
    PROCESSOR_NAME,
    RECIPIENT,
    THIRD_COUNTRY,
    suggested_clause,
    suggested_item_ids,
)

DPA = "DATA_PROCESSING_AGREEMENT"
PRIVACY_POLICY = "PRIVACY_POLICY"

# The ids a review reports (docs/LEGAL.md, plus the review-only ones of issue 28).
REVIEWED_ITEMS = {
    DPA: (
        "subject-matter",
        "duration",
        "nature-purpose",
        "data-types",
        "data-subjects",
        "controller-rights",
        "a-instructions",
        "b-confidentiality",
        "c-security",
        "d-subprocessors",
        "e-dsr-assistance",
        "f-compliance-assistance",
        "g-deletion",
        "h-audits",
        "infringing-instructions",
        "subprocessor-objection",
        "transfers",
        "governing-law",
        "termination",
        "breach-notification",
        "transfer-instruments",
    ),
    PRIVACY_POLICY: (
        "controller",
        "dpo",
        "purposes-legal-basis",
        "legitimate-interests",
        "recipients",
        "transfers",
        "retention",
        "rights",
        "objection",
        "withdraw-consent",
        "complaint",
        "statutory-requirement",
        "automated-decisions",
        "data-categories",
        "source",
    ),
}
CASES = [
    (document_type, item_id, language)
    for document_type, item_ids in REVIEWED_ITEMS.items()
    for item_id in item_ids
    for language in COMPLETE_LANGUAGES
]
# What only the writers' internals write: the to-be-completed marker, format fields left
# unfilled, item anchors, Markdown emphasis, escapes, list bullets and table rules.
INTERNALS = re.compile(
    r"\{[^}]*\}|\*|\\|(?m:^\s*[-|#])|\|"
    + "".join(f"|{re.escape(word)}" for word in MARKER_WORDS.values())
)


@pytest.mark.parametrize(("document_type", "item_id", "language"), CASES)
def test_it_suggests_the_clause_of_every_reviewed_item_in_the_report_language(
    document_type: str, item_id: str, language: str
) -> None:
    text = suggested_clause(document_type=document_type, item_id=item_id, language=language)

    assert text.strip()
    assert not INTERNALS.search(text), text
    # A paragraph or two, not a section of the document.
    assert text.count("\n\n") <= 2, text
    assert foreign_sentences(text, language) == [], text
    if language != "en":
        assert text != suggested_clause(document_type=document_type, item_id=item_id, language="en")


@pytest.mark.parametrize("document_type", sorted(REVIEWED_ITEMS))
def test_it_writes_mostly_sentences_detected_in_the_report_language(document_type: str) -> None:
    # A placeholder-only item ("Dauer: [die Dauer der Verarbeitung]") may be too short for
    # the detector; taken together the suggestions of a type are in the language.
    for language in COMPLETE_LANGUAGES:
        detected = [
            sentence_language(sentence)
            for item_id in REVIEWED_ITEMS[document_type]
            for sentence in sentences(
                suggested_clause(document_type=document_type, item_id=item_id, language=language)
            )
        ]
        decided = [found for found in detected if found is not None]
        assert decided.count(language) == len(decided)
        assert len(decided) >= len(REVIEWED_ITEMS[document_type])


@pytest.mark.parametrize(
    ("item_id", "language", "words"),
    [
        ("h-audits", "de", ("Überprüfungen", "Inspektionen")),
        ("h-audits", "fr", ("audits", "inspections")),
        ("h-audits", "en", ("audits, including inspections",)),
        ("d-subprocessors", "en", ("30 days in advance", "opportunity to object")),
        ("breach-notification", "en", ("without undue delay",)),
        ("breach-notification", "de", ("unverzüglich",)),
        ("transfer-instruments", "en", ("2021/914", "Clause 14", "Clause 15")),
        ("transfer-instruments", "it", ("2021/914",)),
        ("g-deletion", "es", ("suprime", "devuelve")),
    ],
)
def test_it_writes_the_templates_own_clause(
    item_id: str, language: str, words: tuple[str, ...]
) -> None:
    text = suggested_clause(document_type=DPA, item_id=item_id, language=language)

    assert all(word in text for word in words), text


def test_it_puts_bracketed_placeholders_where_a_partys_name_would_be() -> None:
    text = suggested_clause(document_type=DPA, item_id="subject-matter", language="en")

    assert text.startswith(
        "This agreement is made between [the controller's name] (the controller) and"
        " [the processor's name] (the processor)."
    )
    assert "Subject-matter: [the services during which data is processed]" in text


def test_it_writes_lists_and_tables_as_sentences() -> None:
    termination = suggested_clause(document_type=DPA, item_id="termination", language="en")
    transfers = suggested_clause(document_type=PRIVACY_POLICY, item_id="transfers", language="en")

    assert "where: the processing was suspended" in termination
    assert "Country: [the third country]; Recipient: [Recipient]; Safeguard:" in transfers
    assert "Module 2 (controller to processor)" in transfers
    # The example's safeguard is given by its code: no English wording "as stated" in German.
    german = suggested_clause(document_type=PRIVACY_POLICY, item_id="transfers", language="de")
    assert "Standarddatenschutzklauseln" in german
    assert "Contractual" not in german


def test_it_leaves_out_what_only_describes_the_example() -> None:
    text = suggested_clause(document_type=DPA, item_id="d-subprocessors", language="en")

    assert "No sub-processor is authorised at signature" not in text


def test_it_returns_nothing_for_an_item_or_type_it_does_not_know() -> None:
    assert suggested_clause(document_type=DPA, item_id="no-such-item", language="de") == ""
    assert suggested_clause(document_type="DPIA", item_id="a-description", language="en") == ""


def test_it_refuses_a_language_the_template_is_not_written_in() -> None:
    with pytest.raises(UnsupportedLanguage):
        suggested_clause(document_type=DPA, item_id="h-audits", language="nl")


def test_it_knows_every_reviewed_id() -> None:
    for document_type, item_ids in REVIEWED_ITEMS.items():
        assert set(item_ids) <= set(suggested_item_ids(document_type=document_type))


@pytest.mark.parametrize("language", [code for code in COMPLETE_LANGUAGES if code != "en"])
def test_its_placeholders_are_the_writers_translated_msgids(language: str) -> None:
    # A writer's msgid renamed would leave an English placeholder in every language.
    with activate(language):
        for msgid in (CONTROLLER_NAME, PROCESSOR_NAME, THIRD_COUNTRY, RECIPIENT):
            assert _(msgid) != msgid
