"""One country table (gdpr.countries): the tables keyed by country elsewhere in the rules
(the law and courts of an EEA State, the adequacy decisions) name exactly the countries that
table says, by the same ISO codes."""

from __future__ import annotations

from gdpr.composition.member_state_law import PHRASES
from gdpr.composition.transfers import ADEQUACY_DECISIONS
from gdpr.countries import EEA_COUNTRIES, country_name, find_country, is_in_eea


def test_it_names_the_law_and_courts_of_exactly_the_eea_states():
    assert list(PHRASES) == list(EEA_COUNTRIES)


def test_it_keys_every_adequacy_decision_by_a_country_outside_the_eea():
    for adequacy in ADEQUACY_DECISIONS:
        assert not is_in_eea(adequacy.code), adequacy.code
        assert country_name(adequacy.code, "en") != adequacy.code, adequacy.code
        # The English name the decision shows is one the country table recognises.
        assert find_country(adequacy.country) == adequacy.code, adequacy.country
