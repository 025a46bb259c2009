"""Citations, dates, numbers and the terminology table in each language."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

import gdpr
from gdpr.i18n import SUPPORTED_LANGUAGES, activate, cite, localize_citations
from gdpr.i18n.formats import format_date, format_datetime, format_decimal, format_number
from tests.gdpr.official_terms import ITEM_TERMS, TERMS, term, term_forms
from tests.legal_documents.samples import FIXED_NOW, FULL_ANSWERS, FULL_INPUTS


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "Art. 6(1)(f) GDPR"),
        ("de", "Art. 6 Abs. 1 lit. f DSGVO"),
        ("fr", "article 6, paragraphe 1, point f) du RGPD"),
        ("es", "artículo 6, apartado 1, letra f) del RGPD"),
        ("it", "articolo 6, paragrafo 1, lettera f) del GDPR"),
    ],
)
def test_a_point_is_cited_in_the_official_form(language: str, expected: str) -> None:
    assert cite("Art. 6(1)(f)", language) == expected


@pytest.mark.parametrize(
    ("language", "reference", "expected"),
    [
        ("de", "Art. 13(3)", "Art. 13 Abs. 3 DSGVO"),
        ("de", "Art. 44-46", "Art. 44 bis 46 DSGVO"),
        (
            "de",
            "Art. 13(1)(c)-(e), 14(1)(d)",
            "Art. 13 Abs. 1 lit. c bis e, Art. 14 Abs. 1 lit. d DSGVO",
        ),
        ("de", "Art. 9(2), Art. 10", "Art. 9 Abs. 2, Art. 10 DSGVO"),
        ("fr", "Art. 13(3)", "article 13, paragraphe 3, du RGPD"),
        ("fr", "Art. 14", "article 14 du RGPD"),
        ("fr", "Art. 44-46", "articles 44 à 46 du RGPD"),
        ("fr", "Art. 13(1)(c)-(e)", "article 13, paragraphe 1, points c) à e) du RGPD"),
        ("es", "Art. 13(3)", "artículo 13, apartado 3, del RGPD"),
        ("es", "Art. 44-46", "artículos 44 a 46 del RGPD"),
        ("es", "Art. 21(2)-(3)", "artículo 21, apartados 2 y 3, del RGPD"),
        ("it", "Art. 13(3)", "articolo 13, paragrafo 3, del GDPR"),
        ("it", "Art. 44-46", "articoli da 44 a 46 del GDPR"),
        ("it", "Art. 13(1)(c)-(e)", "articolo 13, paragrafo 1, lettere da c) a e) del GDPR"),
    ],
)
def test_paragraphs_ranges_and_lists_are_cited(
    language: str, reference: str, expected: str
) -> None:
    assert cite(reference, language) == expected


def test_citations_inside_a_sentence_are_rewritten_but_other_acts_keep_no_gdpr_name() -> None:
    text = "Gemäß Art. 6(1)(f) GDPR und Art. 3(4) of Regulation 1182/71 (Art. 33(1))."
    assert localize_citations(text, "de") == (
        "Gemäß Art. 6 Abs. 1 lit. f DSGVO und Art. 3 Abs. 4 of Regulation 1182/71"
        " (Art. 33 Abs. 1 DSGVO)."
    )
    # A reference already in the German form is left alone.
    assert localize_citations("Art. 6 Abs. 1 lit. f DSGVO", "de") == "Art. 6 Abs. 1 lit. f DSGVO"
    assert localize_citations("Art. 6(1)(f) applies.", "en") == "Art. 6(1)(f) applies."
    assert localize_citations("Art. 17 s'applique.", "fr") == "Article 17 du RGPD s'applique."


@pytest.mark.parametrize(
    ("language", "text", "expected"),
    [
        # A citation already in another form is left alone; a number is never split.
        ("fr", "voir Art. 35 Abs. 4 DS-GVO", "voir Art. 35 Abs. 4 DS-GVO"),
        ("fr", "(Art. 35.4)", "(Art. 35.4)"),
        (
            "fr",
            "l'Art. 33 (Art. 33(5))",
            "l'article 33 du RGPD (article 33, paragraphe 5, du RGPD)",
        ),
        # Further points of the same paragraph.
        ("fr", "Art. 5(1)(b) and (e)", "Article 5, paragraphe 1, points b) et e) du RGPD"),
        ("de", "nach Art. 5(1)(b),(e)", "nach Art. 5 Abs. 1 lit. b und e DSGVO"),
        ("it", "l'Art. 5(1)(b),(e)", "l'articolo 5, paragrafo 1, lettere b) ed e) del GDPR"),
        # Bare articles joined: one plural word.
        ("es", "los Art. 13 and 14", "los artículos 13 y 14 del RGPD"),
        ("fr", "les Art. 13 et 14", "les articles 13 et 14 du RGPD"),
        # No capital after a colon or an opening parenthesis.
        ("it", "informativa: Art. 12-14", "informativa: articoli da 12 a 14 del GDPR"),
        ("es", "(Art. 30)", "(artículo 30 del RGPD)"),
        # Two consecutive items are a pair, not a range.
        ("fr", "Art. 5(2)-(3)", "Article 5, paragraphes 2 et 3, du RGPD"),
        ("it", "l'Art. 5(1)-(2)", "l'articolo 5, paragrafi 1 e 2, del GDPR"),
        ("de", "Art. 5(1)-(2)", "Art. 5 Abs. 1 und 2 DSGVO"),
        ("fr", "Art. 12-13", "Articles 12 et 13 du RGPD"),
        # A reference split by a placeholder is not touched (the code cites it instead).
        ("fr", "Art. 9(2)({letter})", "Art. 9(2)({letter})"),
    ],
)
def test_translators_citation_reports(language: str, text: str, expected: str) -> None:
    assert localize_citations(text, language) == expected


def test_a_citation_placed_inside_a_sentence_by_the_code_loses_its_capital() -> None:
    from gdpr.i18n.citations import mid_sentence

    assert mid_sentence(localize_citations("Art. 30", "es")) == "artículo 30 del RGPD"
    assert mid_sentence("Art. 30 DSGVO") == "Art. 30 DSGVO"


@pytest.mark.parametrize(
    ("language", "day", "moment", "number", "decimal"),
    [
        ("en", "2026-03-02", "2026-03-01T08:30:12Z", "4,800", "1.5"),
        ("de", "02.03.2026", "01.03.2026 08:30 UTC", "4.800", "1,5"),
        ("fr", "02/03/2026", "01/03/2026 08:30 UTC", "4\u202f800", "1,5"),
        ("es", "02/03/2026", "01/03/2026 08:30 UTC", "4.800", "1,5"),
        ("it", "02/03/2026", "01/03/2026 08:30 UTC", "4.800", "1,5"),
    ],
)
def test_dates_and_numbers_follow_the_language(
    language: str, day: str, moment: str, number: str, decimal: str
) -> None:
    with activate(language):
        assert format_date(date(2026, 3, 2)) == day
        assert format_datetime(datetime(2026, 3, 1, 8, 30, 12, 5, tzinfo=UTC)) == moment
        assert format_number(4800) == number
        assert format_decimal(1.5, 1) == decimal


def test_every_term_is_given_in_every_language() -> None:
    for term_id, forms in TERMS.items():
        assert set(forms) == set(SUPPORTED_LANGUAGES), term_id
        assert all(forms[language] for language in SUPPORTED_LANGUAGES), term_id


def test_the_official_terms_of_the_regulation() -> None:
    assert term("right-to-erasure", "de") == "Recht auf Löschung"
    assert term("right-to-data-portability", "de") == "Recht auf Datenübertragbarkeit"
    assert term("supervisory-authority", "fr") == "autorité de contrôle"
    assert term("processor", "fr") == "sous-traitant"
    assert term("right-to-erasure", "es") == "derecho de supresión"
    assert term("processor", "es") == "encargado del tratamiento"
    assert term("processor", "it") == "responsabile del trattamento"
    assert term("controller", "it") == "titolare del trattamento"


@pytest.mark.parametrize("name", sorted(gdpr.DOCUMENT_TYPES))
def test_every_checklist_item_has_a_term_the_english_document_uses(name: str) -> None:
    spec = gdpr.get_document_type(name)
    assert set(ITEM_TERMS[name]) == {item.id for item in spec.checklist}
    markdown = gdpr.compose(
        document_type=spec, inputs=FULL_INPUTS[name], answers=FULL_ANSWERS[name], now=FIXED_NOW
    ).lower()
    absent = [
        item
        for item, term_id in ITEM_TERMS[name].items()
        if not any(form.lower() in markdown for form in term_forms(term_id, "en"))
    ]
    assert not absent


def test_no_marked_text_splits_a_citation_with_a_placeholder() -> None:
    """ "Art. 9(2)({letter})" cannot be rendered in another language's form by the catalog:
    such a reference is built with cite() in the code."""
    import re
    from pathlib import Path

    split = re.compile(r"\bArts?\.\s?\d+(?:\(\w+\))*\(\{")
    templates = Path(gdpr.__file__).parent / "i18n" / "locale" / "templates"
    found = [
        line
        for pot in sorted(templates.glob("*.pot"))
        for line in pot.read_text(encoding="utf-8").splitlines()
        if line.startswith("msgid") and split.search(line)
    ]
    assert found == []
