"""Each complete language writes every type in that language, with the GDPR's own terms.

For each language of COMPLETE_LANGUAGES (a translator adds theirs when done) and each of the
six types with full inputs: after removing the user's input values, no sentence of the
composed document is in another language (function-word count, `gdpr.i18n.detect`); the
document carries the official term (`tests/gdpr/official_terms.py`) of every checklist
item; and its completeness report is complete.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import gdpr
from gdpr.authorities import all_authorities
from gdpr.composition.assessments.national_lists import NATIONAL_LISTS
from gdpr.doctypes.examples import EXAMPLES
from gdpr.i18n import COMPLETE_LANGUAGES, _, activate
from gdpr.i18n.detect import foreign_sentences, sentence_language, without_values
from tests.gdpr.official_terms import ITEM_TERMS, term_forms
from tests.legal_documents.samples import FIXED_NOW, FULL_ANSWERS, FULL_INPUTS

TYPES = sorted(gdpr.DOCUMENT_TYPES)


def _values(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for part in value.values():
            yield from _values(part)
    elif isinstance(value, list | tuple):
        for part in value:
            yield from _values(part)
    elif value is not None and not isinstance(value, bool):
        yield str(value)


def _document(name: str, language: str, *, examples: bool = False) -> tuple[str, str]:
    """The composed Markdown and the same text without the user's values."""
    inputs = EXAMPLES[name] if examples else FULL_INPUTS[name]
    answers = {} if examples else FULL_ANSWERS[name]
    markdown = gdpr.compose(
        document_type=gdpr.get_document_type(name),
        inputs=inputs,
        answers=answers,
        now=FIXED_NOW,
        language=language,
    )
    with activate(language):
        # Authorities and their publications keep their own names ("DSK, Liste der ...").
        official = [
            _(text) for entry in NATIONAL_LISTS.values() for text in (entry.authority, entry.source)
        ]
        # The competent authority's own name and address (gdpr.authorities), in its language.
        official += [
            text for authority in all_authorities() for text in (authority.name, authority.address)
        ]
    values = [*_values(inputs), *_values(answers), *official]
    return markdown, without_values(markdown, values)


def test_the_detector_tells_the_five_languages_apart() -> None:
    assert sentence_language("The controller must notify the breach to the authority.") == "en"
    assert sentence_language("Der Verantwortliche meldet die Verletzung der Behörde.") == "de"
    assert sentence_language("Le responsable notifie la violation à l'autorité.") == "fr"
    assert sentence_language("El responsable notificará la violación a la autoridad.") == "es"
    assert (
        sentence_language("Il titolare notifica la violazione all'autorità di controllo.") == "it"
    )
    assert sentence_language("Data category") is None


def test_user_input_is_left_out_of_the_check() -> None:
    text = "Der Zweck ist: Customer relationship \\*management\\* of the shop."
    kept = without_values(text, ["Customer relationship *management* of the shop"])
    assert foreign_sentences(kept, "de") == []
    assert foreign_sentences(text, "de")


@pytest.mark.parametrize("examples", [False, True], ids=["full", "examples"])
@pytest.mark.parametrize("name", TYPES)
@pytest.mark.parametrize("language", COMPLETE_LANGUAGES)
def test_no_sentence_is_in_another_language(language: str, name: str, examples: bool) -> None:
    _markdown, ours = _document(name, language, examples=examples)
    foreign = foreign_sentences(ours, language)
    assert not foreign, "\n".join(f"[{lang}] {sentence}" for sentence, lang in foreign)


@pytest.mark.parametrize("name", TYPES)
@pytest.mark.parametrize("language", COMPLETE_LANGUAGES)
def test_every_checklist_item_carries_its_official_term(language: str, name: str) -> None:
    _markdown, ours = _document(name, language)
    text = ours.lower()
    absent = {
        item: term_forms(term_id, language)[0]
        for item, term_id in ITEM_TERMS[name].items()
        if not any(form.lower() in text for form in term_forms(term_id, language))
    }
    assert not absent


@pytest.mark.parametrize("name", TYPES)
@pytest.mark.parametrize("language", COMPLETE_LANGUAGES)
def test_the_document_is_complete(language: str, name: str) -> None:
    markdown, _ours = _document(name, language)
    report = gdpr.completeness_report(document_type=gdpr.get_document_type(name), markdown=markdown)
    assert report.complete, report.missing


def _register_inputs() -> dict[str, Any]:
    """A whole register of three activities, one carried out as processor."""
    activity = FULL_INPUTS["RECORD_OF_PROCESSING"]
    organization = {
        key: activity[key]
        for key in ("companyName", "companyDetails", "dpoContact", "representative")
        if key in activity
    }
    return {
        **organization,
        "registerActivities": [
            {**activity, "processingActivity": {"name": "Payroll"}},
            {**activity, "processingActivity": {"name": "Customer management"}},
            {
                **activity,
                "processingActivity": {"name": "Client data hosting"},
                "actsAsProcessor": True,
                "controllersServed": ["Client Alpha GmbH"],
            },
        ],
    }


@pytest.mark.parametrize("language", COMPLETE_LANGUAGES)
def test_the_whole_register_is_written_in_the_language(language: str) -> None:
    inputs = _register_inputs()
    markdown = gdpr.compose(
        document_type=gdpr.get_document_type("RECORD_OF_PROCESSING"),
        inputs=inputs,
        answers=FULL_ANSWERS["RECORD_OF_PROCESSING"],
        now=FIXED_NOW,
        language=language,
    )
    assert "registerActivities" not in markdown and "Payroll" in markdown
    ours = without_values(
        markdown, [*_values(inputs), *_values(FULL_ANSWERS["RECORD_OF_PROCESSING"])]
    )
    foreign = foreign_sentences(ours, language)
    assert not foreign, "\n".join(f"[{lang}] {sentence}" for sentence, lang in foreign)
    # The table headers and headings are the code's, so they are translated too.
    if language != "en":
        for english in ("Record of the controller", "Purposes (b)", "Processing activity: "):
            assert english not in markdown
