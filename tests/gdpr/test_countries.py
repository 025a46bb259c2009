"""One country table: any country by its name in any EU language, its code or an address."""

from __future__ import annotations

import pytest

from gdpr.countries import (
    EEA_COUNTRIES,
    alpha3,
    country_name,
    find_country,
    is_in_eea,
)
from gdpr.i18n import SUPPORTED_LANGUAGES

EU_MEMBER_STATES = {
    "AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IE", "IT",
    "LV", "LT", "LU", "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE",
}  # fmt: skip


def test_the_eea_is_the_27_member_states_and_iceland_liechtenstein_norway() -> None:
    assert set(EEA_COUNTRIES) == EU_MEMBER_STATES | {"IS", "LI", "NO"}
    assert len(EEA_COUNTRIES) == 30


@pytest.mark.parametrize(
    ("text", "code"),
    [
        # German, French, Spanish, Italian, Dutch, Polish and own-language names.
        ("Irland", "IE"), ("Frankreich", "FR"), ("Niederlande", "NL"), ("Schweden", "SE"),
        ("Spanien", "ES"), ("Allemagne", "DE"), ("Pays-Bas", "NL"), ("Países Bajos", "NL"),
        ("Paesi Bassi", "NL"), ("Polska", "PL"), ("Polen", "PL"), ("Pologne", "PL"),
        ("Nederland", "NL"), ("Sverige", "SE"), ("Éire", "IE"), ("Ελλάδα", "GR"),
        ("Deutschland", "DE"), ("Alemania", "DE"), ("Germania", "DE"), ("Niemcy", "DE"),
        ("Duitsland", "DE"), ("Österreich", "AT"), ("osterreich", "AT"), ("IRLANDA", "IE"),
        ("Tschechien", "CZ"), ("Czech Republic", "CZ"), ("Holland", "NL"),
        ("The Netherlands", "NL"), ("Norge", "NO"), ("Islande", "IS"), ("Island", "IS"),
        # Countries outside the EEA, in several languages.
        ("Schweiz", "CH"), ("Suisse", "CH"), ("Svizzera", "CH"),
        ("Vereinigtes Königreich", "GB"), ("Royaume-Uni", "GB"), ("UK", "GB"),
        ("Great Britain", "GB"), ("England", "GB"), ("Scotland", "GB"), ("Wales", "GB"),
        ("Northern Ireland", "GB"), ("Vereinigte Staaten", "US"), ("Stati Uniti", "US"),
        ("Estados Unidos", "US"), ("USA", "US"), ("U.S.", "US"), ("Neuseeland", "NZ"),
        ("Brasilien", "BR"), ("Brésil", "BR"), ("South Korea", "KR"), ("Südkorea", "KR"),
        ("Japon", "JP"), ("Indien", "IN"), ("Côte d'Ivoire", "CI"),
        ("Bosnia and Herzegovina", "BA"), ("Saint Kitts and Nevis", "KN"),
        # Codes: alpha-2, alpha-3, "EL" for Greece as the EU writes it.
        ("de", "DE"), ("DEU", "DE"), ("EL", "GR"), ("GRC", "GR"), ("CH", "CH"), ("che", "CH"),
        ("US", "US"), ("GB", "GB"),
        # Addresses: the country is the last part.
        ("Ludwig-Erhard-Straße 22, 20459 Hamburg, Germany", "DE"),
        ("3 place de Fontenoy, 75007 Paris, France", "FR"),
        ("Via Roma 1, 20121 Milano, Italia", "IT"), ("Hauptstraße 1, 20095 Hamburg, DE", "DE"),
        ("Reykjavík, Ísland", "IS"), ("Austin, US", "US"), ("Newark, New Jersey, USA", "US"),
        ("St Helier, Jersey", "JE"), ("Zürich, Schweiz", "CH"), ("Havana, Cuba", "CU"),
        ("USA (Zoom)", "US"),
        # Not a country, or not one named alone.
        ("New Jersey", None), ("Rhode Island", None), ("Jersey City", None),
        ("Sydney, New South Wales", None),
        ("Kanada-Platz 3, Berlin", None), ("Musterstraße 1, 10115 Berlin", None),
        ("Muster Holding AG", None), ("European Union", None), ("", None), ("   ", None),
        ("Atlanta, Georgia 30308", None),
    ],
)  # fmt: skip
def test_it_finds_a_country_by_any_name_code_or_address(text: str, code: str | None) -> None:
    assert find_country(text) == code


@pytest.mark.parametrize(
    "text",
    [
        "Irland", "Frankreich", "Niederlande", "Schweden", "Spanien", "Allemagne", "Pays-Bas",
        "Países Bajos", "Paesi Bassi", "Polska", "Frankfurt, Germany", "EL", "Liechtenstein",
        "Norwegen", "EU", "EEA", "EWR", "European Union", "Europäische Union",
        "Union européenne", "Unión Europea", "Unione europea", "Europese Unie",
        "Europäischer Wirtschaftsraum",
    ],
)  # fmt: skip
def test_it_places_eea_countries_and_the_union_inside_the_eea(text: str) -> None:
    assert is_in_eea(text)


@pytest.mark.parametrize(
    "text",
    [
        "Schweiz", "Vereinigtes Königreich", "Vereinigte Staaten", "Brasilien", "United States",
        "US", "Switzerland", "United Kingdom", "Vietnam", "Rhode Island", "Europe",
        # Not recognised: a third country, so that a transfer is reported, not assumed safe.
        "Atlantis", "",
    ],
)  # fmt: skip
def test_it_places_third_countries_and_unknown_text_outside_the_eea(text: str) -> None:
    assert not is_in_eea(text)


def test_every_eea_country_is_inside_by_its_name_in_every_language_and_its_codes() -> None:
    for code in EEA_COUNTRIES:
        assert is_in_eea(code) and is_in_eea(alpha3(code).lower()), code
        for language in (*SUPPORTED_LANGUAGES, "nl", "pl", "sv", "da", "fi", "pt", "is", "no"):
            name = country_name(code, language)
            assert find_country(name) == code, (language, name)
            assert is_in_eea(name), (language, name)


def test_it_names_a_country_in_the_writers_language() -> None:
    assert country_name("DE", "de") == "Deutschland"
    assert country_name("CH", "fr") == "Suisse"
    assert country_name("GB", "it") == "Regno Unito"
    assert country_name("US", "es") == "Estados Unidos"
    assert country_name("NL", "en") == "Netherlands"
    # Greece as the EU writes it is the same country.
    assert country_name("EL", "de") == "Griechenland"
    # An unknown language falls back to English; an unknown code is kept as written.
    assert country_name("SE", "xx") == "Sweden"
    assert country_name("QQ", "en") == "QQ"


def test_it_gives_the_alpha3_code() -> None:
    assert alpha3("DE") == "DEU"
    assert alpha3("gr") == "GRC"
    assert alpha3("CD") == "COD"  # not the withdrawn "ZAR"
