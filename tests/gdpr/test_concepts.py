"""The concept vocabulary: one recogniser, every language, data not code."""

from __future__ import annotations

import pytest

from gdpr.concepts import fold, recognise, scheme, scheme_names
from gdpr.concepts.vocabulary import REQUIRED_LANGUAGES


@pytest.mark.parametrize("name", scheme_names())
def test_every_concept_has_terms_in_the_five_languages(name: str) -> None:
    for concept in scheme(name).concepts:
        missing = [lang for lang in REQUIRED_LANGUAGES if not concept.terms.get(lang)]
        assert not missing, f"{name}/{concept.code} has no terms in {missing}"


def test_folding_removes_case_accents_sharp_s_and_punctuation() -> None:
    assert fold("Données de SANTÉ") == "donnees de sante"
    assert fold("Straße / E-Mail") == "strasse e mail"


@pytest.mark.parametrize(
    "wording",
    [
        "Health data",
        "Gesundheitsdaten",
        "Mitarbeitergesundheitsdaten",
        "Données de santé",
        "Datos de salud",
        "Dati sanitari",
        "dati relativi alla salute",
    ],
)
def test_health_data_is_recognised_in_every_language_and_in_compounds(wording: str) -> None:
    assert recognise("data-category", wording) == ("health",)


def test_a_whole_word_term_does_not_match_inside_a_longer_word() -> None:
    assert "national-identifier" not in recognise("data-category", "Snippets")
    assert recognise("data-category", "") == ()


def test_the_scheme_files_are_in_the_one_layout() -> None:
    from gdpr.concepts.tidy import main

    assert main(["--check"]) == 0, "run: python -m gdpr.concepts.tidy"


def test_an_exception_term_keeps_bank_details_out_of_contact_data() -> None:
    assert "contact" not in recognise("data-category", "Salaire et coordonnées bancaires")
    assert "financial" in recognise("data-category", "Salaire et coordonnées bancaires")
    assert "contact" in recognise("data-category", "Coordonnées et coordonnées bancaires")


def test_a_gap_lets_articles_and_adjectives_stand_between_two_words() -> None:
    wording = "Registro centralizado de los accesos a los ficheros de nóminas"
    assert "logging" in recognise("security-measure", wording)
