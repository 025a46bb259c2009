"""Legal review of the data processing agreement (Art. 28, Decision (EU) 2021/914 Module 2).

Each test names the article or the clause of the standard contractual clauses it enforces. A
DPA is signed by the processor: every option of the incorporated clauses is filled in from the
inputs or marked to be completed, never assumed, and the German text reads as German law.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from gdpr.composition import compose
from gdpr.composition.completeness import item_blocks
from gdpr.composition.markdown import TO_BE_COMPLETED
from gdpr.doctypes.examples import EXAMPLES
from gdpr.doctypes.registry import DOCUMENT_TYPES

DPA = "DATA_PROCESSING_AGREEMENT"
BREACH = "BREACH_NOTIFICATION"


def _compose(inputs: dict[str, Any], now: datetime, language: str = "en", **kwargs: Any) -> str:
    return compose(
        document_type=DOCUMENT_TYPES[DPA], inputs=inputs, now=now, language=language, **kwargs
    )


def _item(markdown: str, item_id: str) -> str:
    return item_blocks(markdown)[item_id][0].body


@pytest.fixture
def dpa(full_inputs: dict, full_answers: dict, now: datetime) -> Any:
    """The full sample DPA, composed with overrides (None removes an input)."""

    def composed(language: str = "en", **changes: Any) -> str:
        inputs = {**full_inputs[DPA], **changes}
        inputs = {key: value for key, value in inputs.items() if value is not None}
        return _compose(inputs, now, language, answers=full_answers[DPA])

    return composed


# --- Decision (EU) 2021/914, Module 2: the options of the clauses are filled in ----------------
def test_scc_clause_9a_option_2_general_authorisation_with_its_notice_period(dpa: Any) -> None:
    transfers = _item(dpa(), "transfers")

    assert "Clause 9(a)" in transfers
    assert "Option 2" in transfers and "general written authorisation" in transfers
    assert "at least 30 days in advance" in transfers


def test_scc_clause_9a_option_1_specific_prior_authorisation(dpa: Any) -> None:
    markdown = dpa(subprocessorAuthorisation="specific", objectionPeriodDays=14)
    transfers = _item(markdown, "transfers")

    assert "Option 1" in transfers and "specific prior authorisation" in transfers
    assert "at least 14 days" in transfers
    assert "Option 2" not in transfers


def test_scc_clause_9a_without_a_notice_period_is_a_gap_not_a_default(dpa: Any) -> None:
    markdown = dpa(objectionPeriodDays=None)

    assert TO_BE_COMPLETED in _item(markdown, "transfers")
    assert "Clause 9(a)" in _item(markdown, "transfers")
    # Art. 28(2): the DPA's own notice period is not invented either
    assert TO_BE_COMPLETED in _item(markdown, "d-subprocessors")
    assert "30 days" not in _item(markdown, "d-subprocessors")


def test_scc_clause_13_and_annex_i_c_name_the_controllers_supervisory_authority(
    dpa: Any,
) -> None:
    markdown = dpa(country="DE")  # the Land (Berlin) is in the address

    assert "Clause 13" in _item(markdown, "transfers")
    assert "Berliner Beauftragte für Datenschutz" in _item(markdown, "transfers")
    annex_i = _item(markdown, "annex-i-parties")
    assert "Annex I.C" in annex_i and "Berliner Beauftragte für Datenschutz" in annex_i


def test_scc_clause_13_without_the_controllers_country_is_a_gap(dpa: Any) -> None:
    markdown = dpa(country=None)  # "Hauptstrasse 1, 10115 Berlin" names no country

    annex_i = _item(markdown, "annex-i-parties")
    assert TO_BE_COMPLETED in annex_i and "supervisory authority" in annex_i


def test_scc_clause_17_option_1_defaults_to_the_law_of_the_controllers_member_state(
    dpa: Any,
) -> None:
    markdown = dpa(governingLaw=None, jurisdiction=None, country="France",
                   companyDetails="1 rue de Rivoli, 75001 Paris")  # fmt: skip

    transfers = _item(markdown, "transfers")
    assert "Clause 17 (Option 1)" in transfers and "the law of France" in transfers
    assert "Clause 18(b)" in transfers and "the courts of France" in transfers


def test_scc_clause_17_follows_the_governing_law_of_the_agreement(dpa: Any) -> None:
    transfers = _item(dpa(country="France"), "transfers")  # governingLaw: the law of Germany

    assert "the law of Germany" in transfers and "the courts of Germany" in transfers


def test_scc_clause_17_and_18_without_a_member_state_are_gaps(dpa: Any) -> None:
    markdown = dpa(governingLaw=None, country=None)

    transfers = _item(markdown, "transfers")
    assert "Clause 17" in transfers and "Clause 18" in transfers
    assert transfers.count(TO_BE_COMPLETED) >= 2


def test_scc_annex_i_b_frequency_and_retention_are_stated_or_gaps(dpa: Any) -> None:
    annex_ii = _item(dpa(transferFrequency=None, retentionPeriod=None), "annex-ii-description")
    assert "Frequency of the transfer" in annex_ii and "retained" in annex_ii
    assert annex_ii.count(TO_BE_COMPLETED) >= 2

    annex_ii = _item(
        dpa(transferFrequency="continuous", retentionPeriod="Until the end of the services"),
        "annex-ii-description",
    )
    assert "continuous" in annex_ii and "Until the end of the services" in annex_ii
    assert TO_BE_COMPLETED not in annex_ii


def test_scc_annexes_map_to_the_annexes_of_this_agreement(dpa: Any) -> None:
    transfers = _item(dpa(), "transfers")

    assert "Annexes I to III of those Clauses are completed by Annexes I to III" not in transfers
    assert "Annex I of the Clauses" in transfers
    assert "Annexes I and II of this agreement" in transfers
    assert "Annex II of the Clauses" in transfers and "Annex III of this agreement" in transfers
    assert "Annex III of the Clauses" in transfers and "Annex IV of this agreement" in transfers


def test_scc_module_2_incorporation_names_the_exporter_and_importer(dpa: Any) -> None:
    transfers = _item(dpa(), "transfers")

    assert "The data exporter is the controller" in transfers
    assert "the data importer is CloudCo Inc." in transfers


# --- Art. 28(3): governing law and courts are stated or marked --------------------------------
def test_art_28_3_the_courts_are_a_gap_when_jurisdiction_is_absent(dpa: Any) -> None:
    law = _item(dpa(jurisdiction=None), "governing-law")

    assert TO_BE_COMPLETED in law and "courts" in law


def test_art_28_3_the_governing_law_is_a_gap_when_absent(dpa: Any) -> None:
    law = _item(dpa(governingLaw=None), "governing-law")

    assert TO_BE_COMPLETED in law and "Member State" in law


# --- drafting ----------------------------------------------------------------------------------
def test_art_28_3_g_deletion_or_return_is_a_complete_obligation(dpa: Any) -> None:
    deletion = _item(dpa(), "g-deletion")

    assert "will: delete or return" not in deletion
    assert "at the choice of the controller" in deletion
    assert "deletes or returns all personal data" in deletion
    assert "unless Union or Member State law requires storage" in deletion


def test_chapter_v_onward_transfers_cite_art_28_3_a_and_chapter_v(dpa: Any) -> None:
    transfers = _item(dpa(), "transfers")

    assert "44-46)" not in transfers
    assert "documented instruction (Art. 28(3)(a))" in transfers
    assert "Chapter V (Art. 44-49)" in transfers


def test_art_28_9_signature_block_has_place_and_date_for_each_party(dpa: Any) -> None:
    signatures = _item(dpa(), "signatures")

    assert signatures.count("Place, date:") == 2
    assert "Max Mustermann, Managing Director" in signatures
    assert "Pat Smith, General Counsel" in signatures


def test_annex_iii_carries_no_drafting_instruction(dpa: Any) -> None:
    annex_iii = _item(dpa(), "annex-iii-measures")

    assert "specifically and not generically" not in annex_iii
    assert "AES-256 encryption at rest" in annex_iii


# --- German ------------------------------------------------------------------------------------
def test_german_scc_incorporation_clause_is_grammatical(dpa: Any) -> None:
    transfers = _item(dpa("de"), "transfers")

    assert "im Anhang des Durchführungsbeschluss " not in transfers
    assert "im Anhang zum Durchführungsbeschluss (EU) 2021/914 der Kommission" in transfers
    assert "mit der Verantwortliche" not in transfers
    assert "Datenexporteur ist der Verantwortliche" in transfers


def test_german_governing_law_is_written_in_german_from_the_country(dpa: Any) -> None:
    for law in ("the law of Germany", "DE", "Deutschland"):
        text = _item(dpa("de", governingLaw=law), "governing-law")
        assert "the law of" not in text
        assert "Auf diesen Vertrag findet deutsches Recht Anwendung (Recht eines" in text


def test_a_governing_law_with_conditions_is_quoted_as_given(dpa: Any) -> None:
    law = "the law of Germany, excluding its conflict-of-laws rules"
    text = _item(dpa("de", governingLaw=law), "governing-law")

    assert law in text


def test_german_dpa_cites_articles_32_to_36_as_a_range(dpa: Any) -> None:
    assistance = _item(dpa("de"), "f-compliance-assistance")

    assert "Art. 32 DSGVO bis 36" not in assistance
    assert "Art. 32 bis 36 DSGVO" in assistance


def test_german_termination_conditions_put_the_verb_last_after_wenn(dpa: Any) -> None:
    termination = _item(dpa("de"), "termination")

    assert "die Verarbeitung wurde ausgesetzt" not in termination
    assert "der Auftragsverarbeiter verstößt" not in termination
    assert "die Verarbeitung ausgesetzt wurde" in termination


def test_german_signature_block_asks_for_place_and_date(dpa: Any) -> None:
    assert _item(dpa("de"), "signatures").count("Ort, Datum:") == 2


@pytest.mark.parametrize("language", ["de", "fr", "es", "it"])
def test_no_english_individually_in_any_document(
    language: str, full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    for name, document_type in DOCUMENT_TYPES.items():
        for inputs, answers in ((full_inputs.get(name), full_answers.get(name)),
                                (EXAMPLES.get(name), None)):  # fmt: skip
            if inputs is None:
                continue
            markdown = compose(
                document_type=document_type,
                inputs=inputs,
                answers=answers or {},
                now=now,
                language=language,
            )
            assert "individually" not in markdown, (name, language)


@pytest.mark.parametrize(
    "law",
    ["German law", "deutsches Recht", "le droit allemand", "el Derecho alemán", "diritto tedesco"],
)
def test_art_28_3_a_member_states_law_is_recognised_in_every_language(law: str, dpa: Any) -> None:
    markdown = dpa(governingLaw=law, country="France")

    governing = _item(markdown, "governing-law")
    assert TO_BE_COMPLETED not in governing
    assert "This agreement is governed by the law of Germany" in governing
    assert "Clause 17 (Option 1): the Clauses are governed by the law of Germany" in _item(
        markdown, "transfers"
    )
