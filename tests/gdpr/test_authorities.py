"""The EEA supervisory authorities table and the breach notification naming the competent one."""

from __future__ import annotations

import pytest

import gdpr
from gdpr.authorities import (
    GERMAN_STATE_AUTHORITIES,
    GERMAN_STATES,
    NATIONAL_AUTHORITIES,
    all_authorities,
    competent_authority,
    find_country,
    find_german_state,
)
from gdpr.composition.recognition import EEA_COUNTRIES
from gdpr.countries import country_name
from tests.legal_documents.samples import FIXED_NOW, FULL_ANSWERS, FULL_INPUTS

EU_MEMBER_STATES = {
    "AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IE", "IT",
    "LV", "LT", "LU", "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE",
}  # fmt: skip


def test_every_eea_state_has_its_authority() -> None:
    assert len(EU_MEMBER_STATES) == 27
    assert set(NATIONAL_AUTHORITIES) == EU_MEMBER_STATES | {"IS", "LI", "NO"}
    # The same area as the transfer rules' list of EEA countries.
    assert set(EEA_COUNTRIES) == set(NATIONAL_AUTHORITIES)


def test_germany_has_the_bfdi_and_sixteen_land_authorities() -> None:
    assert "Bundesbeauftragte" in NATIONAL_AUTHORITIES["DE"].name
    assert set(GERMAN_STATE_AUTHORITIES) == set(GERMAN_STATES)
    assert len(GERMAN_STATE_AUTHORITIES) == 16


def test_every_authority_has_a_name_address_and_web_addresses() -> None:
    for authority in all_authorities():
        assert authority.name and authority.name_en and authority.address, authority
        assert authority.website.startswith("https://"), authority
        assert authority.breach_notification.startswith("https://"), authority


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Germany", "DE"), ("Deutschland", "DE"), ("Allemagne", "DE"), ("Alemania", "DE"),
        ("Germania", "DE"), ("de", "DE"), ("DEU", "DE"), ("Österreich", "AT"),
        ("osterreich", "AT"), ("Pays-Bas", "NL"), ("Países Bajos", "NL"), ("Paesi Bassi", "NL"),
        ("Nederland", "NL"), ("EL", "GR"), ("Ελλάδα", "GR"), ("Grèce", "GR"),
        ("Polska", "PL"), ("Norge", "NO"), ("Islande", "IS"), ("Island", "IS"),
        ("Reykjavík, Ísland", "IS"), ("3 place de Fontenoy, 75007 Paris, France", "FR"),
        ("Via Roma 1, 20121 Milano, Italia", "IT"), ("Hauptstraße 1, 20095 Hamburg, DE", "DE"),
        ("United States", None), ("Rhode Island", None), ("Switzerland", None), ("", None),
    ],
)  # fmt: skip
def test_a_country_is_found_by_any_of_its_names_or_codes(text: str, code: str | None) -> None:
    assert find_country(text) == code


@pytest.mark.parametrize(
    "text",
    ["3 rue de la Paix, Paris", "la ley de Nueva York", "Calle el Prado 3, Sevilla",
     "the law of New York as it is", "droit de New York"],
)  # fmt: skip
def test_a_country_code_is_not_read_in_a_word_of_a_sentence(text: str) -> None:
    # Art. 55 / Decision (EU) 2021/914 Clauses 13 and 17: "de", "el", "it", "is" are words
    # of French, Spanish and English sentences, not Germany, Greece, Italy or Iceland.
    assert find_country(text) is None


def test_every_eea_country_is_found_by_its_name_in_each_document_language() -> None:
    for code in NATIONAL_AUTHORITIES:
        for language in ("en", "de", "fr", "es", "it", "nl", "pl"):
            name = country_name(code, language)
            assert find_country(name) == code, name


@pytest.mark.parametrize(
    "text", ["Schweiz", "Vereinigtes Königreich", "Vereinigte Staaten", "Brasilien", "CH", "US"]
)
def test_a_country_outside_the_eea_has_no_authority_here(text: str) -> None:
    assert find_country(text) is None
    assert competent_authority(text) is None


@pytest.mark.parametrize(
    ("text", "state"),
    [
        ("Bavaria", "Bayern"), ("Baviera", "Bayern"), ("Sachsen-Anhalt", "Sachsen-Anhalt"),
        ("Leipzig, Sachsen", "Sachsen"), ("Niedersachsen", "Niedersachsen"),
        ("North Rhine-Westphalia", "Nordrhein-Westfalen"), ("Thuringe", "Thüringen"),
        ("Hamburger Straße 3, Frankfurt", None),
    ],
)  # fmt: skip
def test_a_german_land_is_found_by_name(text: str, state: str | None) -> None:
    assert find_german_state(text) == state


def test_a_german_company_gets_its_lands_authority_or_the_rule() -> None:
    hamburg = competent_authority("Ludwig-Erhard-Straße 22, 20459 Hamburg, Germany")
    assert hamburg is not None and hamburg.authority is not None
    assert hamburg.authority.name.startswith("Der Hamburgische Beauftragte")
    bavaria = competent_authority("Deutschland", "Bayern")
    assert bavaria is not None and bavaria.authority is not None
    assert "Ansbach" in bavaria.authority.address
    unknown = competent_authority("Germany")
    assert unknown is not None and unknown.authority is None
    assert unknown.rule is not None and "BfDI" in unknown.rule and "Land" in unknown.rule
    assert competent_authority("Canada") is None


def test_spain_names_the_aepd_and_the_regional_authorities() -> None:
    spain = competent_authority("España")
    assert spain is not None and spain.authority is not None
    assert spain.authority.name.startswith("Agencia Española de Protección de Datos")
    assert "Catalana" in (spain.authority.note or "")


# --- the breach notification ------------------------------------------------------------------
def _notification(**changes: object) -> str:
    inputs = {**FULL_INPUTS["BREACH_NOTIFICATION"], **changes}
    return gdpr.compose(
        document_type=gdpr.get_document_type("BREACH_NOTIFICATION"),
        inputs=inputs,
        answers=FULL_ANSWERS["BREACH_NOTIFICATION"],
        now=FIXED_NOW,
    )


def test_the_notification_names_the_authority_of_the_companys_country() -> None:
    markdown = _notification(
        companyDetails={"address": "Via Roma 1, 20121 Milano", "country": "Italia"}
    )
    assert "notification to Garante per la protezione dei dati personali is due" in markdown
    assert "Piazza Venezia 11, 00187 Roma" in markdown
    assert "https://servizi.gpdp.it/databreach/s/" in markdown


def test_the_notification_names_the_authority_of_the_land_in_the_address() -> None:
    markdown = _notification(
        companyDetails={"address": "Ludwig-Erhard-Straße 22, 20459 Hamburg, Germany"}
    )
    assert "Der Hamburgische Beauftragte für Datenschutz und Informationsfreiheit" in markdown
    assert "Ludwig-Erhard-Straße 22, 20459 Hamburg, Deutschland" in markdown


def test_a_german_company_without_land_gets_the_rule_and_a_marker() -> None:
    markdown = _notification(country="DE", companyDetails="Hauptstraße 1, 60311 Frankfurt am Main")
    assert "BfDI" in markdown
    assert "the Land of the controller's establishment (region)" in markdown
    assert "notification to the competent supervisory authority is due" in markdown
    with_land = _notification(country="Deutschland", region="Sachsen")
    assert "Die Sächsische Datenschutz- und Transparenzbeauftragte" in with_land
    # The sample's contact details are a Berlin address: Berlin is a Land.
    berlin = _notification(country="DE")
    assert "Berliner Beauftragte für Datenschutz und Informationsfreiheit" in berlin


def test_an_authority_named_by_the_user_wins() -> None:
    markdown = _notification(
        country="France", supervisoryAuthority="the Hamburg Commissioner for Data Protection"
    )
    assert "notification to the Hamburg Commissioner for Data Protection is due" in markdown
    assert "CNIL" not in markdown


def test_without_a_country_the_text_is_as_before() -> None:
    markdown = _notification()  # companyDetails is a Berlin address without a country
    assert "notification to the competent supervisory authority is due" in markdown
    assert "Competent supervisory authority (Art. 55)" not in markdown
