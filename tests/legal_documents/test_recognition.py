"""Recognising integrators' wording: legal bases, transfer mechanisms, EEA countries."""

from __future__ import annotations

import pytest

from gdpr.composition.recognition import (
    EEA_COUNTRIES,
    RecognisedBasis,
    is_in_eea,
    recognise_legal_basis,
    recognise_safeguard,
)
from gdpr.countries import alpha3, country_name


@pytest.mark.parametrize(
    ("text", "codes", "conditions"),
    [
        ("consent", ("consent",), ()),
        ("legitimate-interests", ("legitimate-interests",), ()),
        ("legitimate interest", ("legitimate-interests",), ()),
        ("Art. 6(1)(b) employment contract", ("contract",), ()),
        ("Article 6 (1) lit. f", ("legitimate-interests",), ()),
        ("legitimate interest in fleet safety", ("legitimate-interests",), ()),
        ("statutory retention under tax law", ("legal-obligation",), ()),
        ("performance of a contract and legal obligations", ("contract", "legal-obligation"), ()),
        ("task carried out in the public interest", ("public-task",), ()),
        ("to protect the vital interests of the patient", ("vital-interests",), ()),
        # An Art. 9(2) condition is not also read as a legal obligation.
        ("Art. 9(2)(b) employment law obligations", (), ("b",)),
        ("Art. 6(1)(c) and Art. 9(2)(h) occupational medicine", ("legal-obligation",), ("h",)),
    ],
)
def test_a_wording_is_recognised_into_codes_and_conditions(text, codes, conditions):
    assert recognise_legal_basis(text) == RecognisedBasis(codes=codes, conditions=conditions)


@pytest.mark.parametrize("text", ["because", "we always did it", "Art. 5", "subcontractor"])
def test_a_wording_naming_no_basis_is_not_recognised(text):
    assert recognise_legal_basis(text) is None


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Standard Contractual Clauses", "standard-contractual-clauses"),
        ("SCCs, module 2", "standard-contractual-clauses"),
        ("adequacy decision", "adequacy-decision"),
        ("EU-US Data Privacy Framework", "adequacy-decision"),
        ("BCR", "binding-corporate-rules"),
        ("Art. 49(1)(a) explicit consent", "art-49-derogation"),
        ("compelling legitimate interests", "art-49-compelling-legitimate-interests"),
        ("binding-corporate-rules", "binding-corporate-rules"),
        ("none", "none"),
        ("a handshake", None),
    ],
)
def test_a_transfer_mechanism_is_recognised(text, code):
    assert recognise_safeguard(text) == code


def test_the_eea_has_30_countries_by_name_and_code():
    assert len(EEA_COUNTRIES) == 30
    for alpha2 in EEA_COUNTRIES:
        name = country_name(alpha2, "en")
        assert is_in_eea(name) and is_in_eea(alpha2) and is_in_eea(alpha3(alpha2).lower())


@pytest.mark.parametrize(
    ("country", "inside"),
    [
        ("Frankfurt, Germany", True),
        ("EL", True),
        ("EU", True),
        ("United States", False),
        ("US", False),
        ("Switzerland", False),
        ("United Kingdom", False),
        ("Vietnam", False),
    ],
)
def test_countries_outside_the_eea_are_third_countries(country, inside):
    assert is_in_eea(country) is inside
