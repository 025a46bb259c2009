"""Art. 9 / Art. 10 conclusions do not depend on the language the DPO writes in (issue 24).

"Gesundheitsdaten" is health data exactly as "Health data" is: the record raises the Art. 9(2)
gap, the breach is high risk, the compliance report's Art. 9 item is the same. A document
never states that no special category is processed unless the DPO said so.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from gdpr.composition import completeness_report, compose
from gdpr.composition.completeness import item_blocks
from gdpr.composition.markdown import MARKER_WORDS
from gdpr.doctypes.registry import get_document_type

DPIA = get_document_type("DPIA")
ROPA = get_document_type("RECORD_OF_PROCESSING")
BREACH = get_document_type("BREACH_NOTIFICATION")

# The statement that nothing special is processed, as each catalog words it.
NO_SPECIAL_CATEGORY = {
    "en": "No special category of data",
    "de": "weder besondere Kategorien",
    "fr": "Aucune catégorie particulière",
}


def _special_categories(markdown: str) -> str:
    return item_blocks(markdown)["special-categories"][0].body


def _record(inputs: dict[str, Any], now: datetime, language: str = "en") -> str:
    return compose(document_type=ROPA, inputs=inputs, now=now, language=language)


def _art_9_status(document_type: Any, markdown: str) -> str:
    report = completeness_report(document_type=document_type, markdown=markdown)
    return next(item.status for item in report.items if item.id == "special-categories")


@pytest.mark.parametrize(
    ("category", "language"),
    [
        ("Gesundheitsdaten", "de"),
        ("Données de santé", "fr"),
        ("Gesundheitsdaten", "en"),
        ("Datos de salud", "en"),
        ("Dati sanitari", "en"),
    ],
)
def test_it_raises_the_art_9_2_gap_for_health_data_in_any_language(
    full_inputs: dict, now: datetime, category: str, language: str
) -> None:
    inputs = {**full_inputs["RECORD_OF_PROCESSING"], "dataCategories": [category]}
    markdown = _record(inputs, now, language)
    body = _special_categories(markdown)

    assert category in body
    assert f"**[{MARKER_WORDS[language]}]**" in body
    assert _art_9_status(ROPA, markdown) == "missing"
    for statement in NO_SPECIAL_CATEGORY.values():
        assert statement not in markdown


def test_it_never_states_an_absence_the_dpo_did_not_state(full_inputs: dict, now: datetime) -> None:
    inputs = {**full_inputs["RECORD_OF_PROCESSING"], "dataCategories": ["Kontaktdaten"]}
    body = _special_categories(_record(inputs, now))

    assert NO_SPECIAL_CATEGORY["en"] not in body
    assert "Kontaktdaten" in body
    assert "contact data" in body
    assert "not special categories" in body


@pytest.mark.parametrize("absence", [[], ["keine"], "aucune", ["n/a"]])
def test_it_states_the_absence_when_the_dpo_said_so(
    full_inputs: dict, now: datetime, absence: Any
) -> None:
    inputs = {
        **full_inputs["RECORD_OF_PROCESSING"],
        "dataCategories": ["Kontaktdaten"],
        "specialCategories": absence,
    }
    assert NO_SPECIAL_CATEGORY["de"] in _special_categories(_record(inputs, now, "de"))


def test_it_asks_whether_an_unclassified_category_is_special(
    full_inputs: dict, now: datetime
) -> None:
    inputs = {**full_inputs["RECORD_OF_PROCESSING"], "dataCategories": ["Xylophon-Notizen"]}
    markdown = _record(inputs, now)
    body = _special_categories(markdown)

    assert (
        '**[To be completed]** confirm whether "Xylophon-Notizen" is special-category data'
        " (Art. 9(1))" in body
    )
    assert NO_SPECIAL_CATEGORY["en"] not in body
    assert _art_9_status(ROPA, markdown) == "needs-classification"
    report = completeness_report(document_type=ROPA, markdown=markdown)
    assert not report.complete and "special-categories" in report.missing


def test_the_question_is_recognised_in_the_document_language(
    full_inputs: dict, now: datetime
) -> None:
    inputs = {**full_inputs["RECORD_OF_PROCESSING"], "dataCategories": ["Xylophon-Notizen"]}

    assert _art_9_status(ROPA, _record(inputs, now, "de")) == "needs-classification"


def test_a_gap_beside_the_question_keeps_the_item_missing(full_inputs: dict, now: datetime) -> None:
    inputs = {
        **full_inputs["RECORD_OF_PROCESSING"],
        "dataCategories": ["Xylophon-Notizen", "Gesundheitsdaten"],
    }

    assert _art_9_status(ROPA, _record(inputs, now, "fr")) == "missing"


def test_an_explicit_category_wins_over_recognition(full_inputs: dict, now: datetime) -> None:
    inputs = {
        **full_inputs["RECORD_OF_PROCESSING"],
        "dataCategories": [{"name": "Notizen", "category": "health"}, "Kontaktdaten"],
    }
    body = _special_categories(_record(inputs, now))

    assert "Notizen" in body
    assert "(a)-(j)" in body
    assert "{'name'" not in body


def test_the_compliance_report_treats_gesundheitsdaten_as_health_data(
    full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    def status(category: str) -> str:
        inputs = {
            **full_inputs["DPIA"],
            "legalBasis": ["legitimate-interests"],
            "specialCategories": None,
            "dataCategories": [category],
        }
        markdown = compose(document_type=DPIA, inputs=inputs, answers=full_answers["DPIA"], now=now)
        return _art_9_status(DPIA, markdown)

    assert status("Health data") == "missing"
    assert status("Gesundheitsdaten") == status("Health data")


@pytest.mark.parametrize("category", ["Health data", "Gesundheitsdaten", "Dati sanitari"])
def test_a_breach_of_health_data_is_high_risk_in_any_language(
    full_inputs: dict, full_answers: dict, now: datetime, category: str
) -> None:
    inputs = {**full_inputs["BREACH_NOTIFICATION"], "dataCategories": [category]}
    markdown = compose(
        document_type=BREACH, inputs=inputs, answers=full_answers["BREACH_NOTIFICATION"], now=now
    )

    assert "Risk assessment: **high risk**" in markdown
    assert "**Communication to data subjects is required** (Art. 34(1))" in markdown
