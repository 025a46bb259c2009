"""A legal conclusion does not depend on the language the DPO writes in (issue 24).

Every fact set of tests/legal_documents/multilingual_facts.py is assessed in English, German,
French, Spanish and Italian; the assessments must be equal once each concept's and each
unclassified entry's `wording` (the DPO's own words, which differ by language) is set aside:
the same codes, ratings, decisions, transfers and deadlines. Pure: no database.
"""

from __future__ import annotations

from typing import Any

import pytest

from gdpr.assessment import assess
from gdpr.doctypes.registry import DOCUMENT_TYPES
from tests.legal_documents.multilingual_facts import FACT_SETS, LANGUAGES, FactSet
from tests.legal_documents.samples import FIXED_NOW

OTHER_LANGUAGES = [language for language in LANGUAGES if language != "en"]


def without_wording(assessment: dict[str, Any]) -> dict[str, Any]:
    """The assessment with the DPO's wording removed from every concept and unclassified
    entry (register activities included)."""
    stripped = dict(assessment)
    for key in ("concepts", "unclassified"):
        stripped[key] = [
            {name: value for name, value in entry.items() if name != "wording"}
            for entry in assessment[key]
        ]
    if "activities" in assessment:
        stripped["activities"] = [without_wording(entry) for entry in assessment["activities"]]
    return stripped


def assessed(fact_set: FactSet, language: str) -> dict[str, Any]:
    return without_wording(
        assess(
            document_type=fact_set.document_type,
            inputs=fact_set.inputs(language),
            answers=fact_set.answers,
            now=FIXED_NOW,
        )
    )


def test_it_has_a_fact_set_for_every_document_type() -> None:
    assert {fact_set.document_type for fact_set in FACT_SETS} == set(DOCUMENT_TYPES)


@pytest.mark.parametrize("fact_set", FACT_SETS, ids=lambda fact_set: fact_set.name)
def test_it_words_every_fact_in_every_language(fact_set: FactSet) -> None:
    for key, values in fact_set.worded.items():
        assert set(values) == set(LANGUAGES), key
        assert key not in fact_set.shared, key
    assert len({fact_set.name for fact_set in FACT_SETS}) == len(FACT_SETS)


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
@pytest.mark.parametrize("fact_set", FACT_SETS, ids=lambda fact_set: fact_set.name)
def test_it_reaches_the_same_conclusions_in_every_language(
    fact_set: FactSet, language: str
) -> None:
    english = assessed(fact_set, "en")
    assert assessed(fact_set, language) == english
