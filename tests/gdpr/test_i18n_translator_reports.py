"""Code problems the translators reported: English leaking into translated documents and
formatting written by the code (list joins, raw codes, bold markers, French spacing)."""

from __future__ import annotations

import re

import pytest

import gdpr
from gdpr.doctypes.examples import EXAMPLES
from tests.legal_documents.samples import FIXED_NOW

TRANSLATED = ("de", "fr", "es", "it")


def _compose(name: str, language: str, inputs: dict | None = None) -> str:
    return gdpr.compose(
        document_type=gdpr.get_document_type(name),
        inputs=EXAMPLES[name] if inputs is None else inputs,
        answers={},
        now=FIXED_NOW,
        language=language,
    )


@pytest.mark.parametrize("language", TRANSLATED)
def test_missing_dpia_facts_are_joined_in_the_document_language(language: str) -> None:
    markdown = _compose("DPIA", language, {})
    assert " and " not in markdown


def test_lists_and_separators_follow_the_language() -> None:
    from gdpr.i18n import join_list, lower_label, punct

    assert join_list(["a", "b"], "en") == "a and b"
    assert join_list(["a", "b", "c"], "de") == "a, b und c"
    assert punct(":", "fr") == "\u00a0:"
    assert punct(";", "en") == ";"
    assert lower_label("Unbefugte Offenlegung", "de") == "Unbefugte Offenlegung"
    assert lower_label("Divulgation", "fr") == "divulgation"


@pytest.mark.parametrize("language", TRANSLATED)
def test_rights_measure_families_are_named_not_coded(language: str) -> None:
    inputs = {
        **EXAMPLES["DPIA"],
        "securityMeasures": [
            "Human review of every output and bias testing",
            "Automatic deletion after 30 days (retention limit)",
            "Self-service opt-out portal",
        ],
    }
    markdown = _compose("DPIA", language, inputs)
    for code in ("human review", "purpose lock", "control,", "control."):
        assert code not in markdown


@pytest.mark.parametrize("language", TRANSLATED)
def test_breach_types_and_the_type_code_are_not_shown_raw(language: str) -> None:
    markdown = _compose("BREACH_NOTIFICATION", language)
    assert "confidentiality" not in markdown
    # The type's code appears only as a labelled technical identifier (a code span).
    assert re.search(r"(?<!`)BREACH_NOTIFICATION(?!`)", markdown) is None


@pytest.mark.parametrize("language", ("en", *TRANSLATED))
def test_a_missing_party_name_is_a_marker_never_nested_in_bold(language: str) -> None:
    markdown = _compose("DATA_PROCESSING_AGREEMENT", language, {})
    assert "****" not in markdown
    named = _compose("DATA_PROCESSING_AGREEMENT", language, {"processorName": "Acme Hosting"})
    assert "**Acme Hosting**" in named


@pytest.mark.parametrize("language", ("en", *TRANSLATED))
def test_annex_i_does_not_repeat_the_address_label(language: str) -> None:
    markdown = _compose("DATA_PROCESSING_AGREEMENT", language)
    label = r"(?:address|adresse|anschrift|dirección|direccion|indirizzo)"
    assert re.search(rf"(?i){label}\s?: {label}", markdown) is None


def test_french_code_joins_put_a_space_before_colons_and_semicolons() -> None:
    markdown = _compose("BREACH_NOTIFICATION", "fr")
    contact = next(line for line in markdown.splitlines() if "Coordonnées" in line)
    assert re.search(r"\S[:;]\s", contact.split("**", 2)[-1]) is None, contact
    empty = _compose("BREACH_NOTIFICATION", "fr", {})
    assert re.search(r"[^\s\u00a0*]: \*\*\[", empty) is None


@pytest.mark.parametrize("language", TRANSLATED)
def test_choice_answers_are_named_in_the_document_language(language: str) -> None:
    markdown = gdpr.compose(
        document_type=gdpr.get_document_type("DPIA"),
        inputs=EXAMPLES["DPIA"],
        answers={
            "dpoOpinion": "Favourable with reservations",
            "rightsChannels": ["E-mail", "Web form"],
        },
        now=FIXED_NOW,
        language=language,
    )
    assert "Favourable with reservations" not in markdown
    assert "Web form" not in markdown
