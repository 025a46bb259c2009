"""Security and rights measures count the same whatever language the DPO lists them in.

A DPIA or a DPA lists "Zwei-Faktor-Authentifizierung" or "double authentification" as often
as "multi-factor authentication": the Art. 32 families, the CNIL risk ratings, the Art. 36
decision and the Annex III headings must not depend on that language (issue 24).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from gdpr.composition import compose
from gdpr.composition.assessments.dpia_risk import assess_risks
from gdpr.composition.assessments.dpia_screening import DpiaFacts
from gdpr.composition.assessments.security_measures import classify_measures
from gdpr.composition.completeness import item_blocks
from gdpr.composition.markdown import MARKER_WORDS
from gdpr.doctypes.registry import get_document_type
from gdpr.i18n import activate, gettext

DPIA = get_document_type("DPIA")
DPA = get_document_type("DATA_PROCESSING_AGREEMENT")

# The DPIA sample's securityMeasures (tests/legal_documents/samples.py), as DPOs write them.
DPIA_MEASURES = {
    "en": [
        "AES-256 encryption at rest",
        "Multi-factor authentication",
        "Access logs reviewed weekly",
        "Nightly backups",
    ],
    "de": [
        "AES-256-Verschlüsselung im Ruhezustand",
        "Zwei-Faktor-Authentifizierung",
        "Zugriffsprotokolle wöchentlich geprüft",
        "Nächtliche Datensicherung",
    ],
    "fr": [
        "Chiffrement AES-256 au repos",
        "Double authentification",
        "Journaux d'accès revus chaque semaine",
        "Sauvegardes nocturnes",
    ],
    "es": [
        "Cifrado AES-256 en reposo",
        "Autenticación de doble factor",
        "Registros de acceso revisados semanalmente",
        "Copias de seguridad nocturnas",
    ],
    "it": [
        "Cifratura AES-256 a riposo",
        "Autenticazione a doppio fattore",
        "Registri degli accessi controllati ogni settimana",
        "Backup notturni",
    ],
}
# The DPA sample's securityMeasures: encryption, access control, backup, testing, certification.
DPA_MEASURES = {
    "en": [
        "AES-256 encryption at rest and TLS 1.3 in transit",
        "Role-based access control with multi-factor authentication",
        "Daily encrypted backups with tested restoration",
        "Yearly penetration tests",
        "ISO 27001 certified data centres",
    ],
    "de": [
        "AES-256-Verschlüsselung im Ruhezustand und TLS 1.3 bei der Übertragung",
        "Rollenbasierte Zugriffskontrolle mit Zwei-Faktor-Authentifizierung",
        "Tägliche verschlüsselte Datensicherung mit getesteter Wiederherstellung",
        "Jährliche Penetrationstests",
        "Nach ISO 27001 zertifizierte Rechenzentren",
    ],
    "fr": [
        "Chiffrement AES-256 au repos et TLS 1.3 en transit",
        "Contrôle d'accès basé sur les rôles avec double authentification",
        "Sauvegardes chiffrées quotidiennes avec restauration testée",
        "Tests d'intrusion annuels",
        "Centres de données certifiés ISO 27001",
    ],
}
LANGUAGES = ("de", "fr", "es", "it")
# Facts that make an illegitimate access a high risk before measures: severity 4, likelihood 3.
HIGH_ACCESS_FACTS = DpiaFacts(
    special_categories=("health",),
    vulnerable_subjects=True,
    large_scale=True,
    third_country_transfers=True,
)


def _ratings(measures: list[Any]) -> list[tuple[object, ...]]:
    facts = DpiaFacts(
        special_categories=("biometric",),
        vulnerable_subjects=True,
        large_scale=True,
        systematic_monitoring=True,
        public_area_monitoring=True,
        third_country_transfers=True,
        recipient_count=1,
    )
    assessment = assess_risks(facts, classify_measures(measures), measures)
    return [
        (r.key, r.residual_severity, r.residual_likelihood, r.mitigating_families)
        for r in (*assessment.risks, *assessment.rights_risks)
    ] + [("art-36", assessment.prior_consultation_required)]


def _body(markdown: str, item_id: str) -> str:
    return item_blocks(markdown)[item_id][0].body


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_recognises_the_same_art_32_families_in_every_language(language: str) -> None:
    english = classify_measures(DPIA_MEASURES["en"])
    assert english == {"encryption", "access-control", "logging", "backup"}
    assert classify_measures(DPIA_MEASURES[language]) == english


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_rates_the_risks_the_same_whatever_the_language_of_the_measures(
    language: str,
) -> None:
    assert _ratings(DPIA_MEASURES[language]) == _ratings(DPIA_MEASURES["en"])


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_dpia_decides_prior_consultation_the_same_in_every_language(
    language: str, full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    def compose_with(measures: list[str]) -> str:
        inputs = {**full_inputs["DPIA"], "securityMeasures": measures}
        return compose(document_type=DPIA, inputs=inputs, answers=full_answers["DPIA"], now=now)

    english, translated = compose_with(DPIA_MEASURES["en"]), compose_with(DPIA_MEASURES[language])

    for item_id in ("c-risks", "prior-consultation"):
        assert _body(translated, item_id) == _body(english, item_id)


@pytest.mark.parametrize(
    "wording",
    ["Gesichter verpixeln", "Flouter les visages", "Pixelado de rostros", "Sfocatura dei volti"],
)
def test_it_credits_blurring_faces_as_minimisation(wording: str) -> None:
    facts = DpiaFacts(systematic_monitoring=True, public_area_monitoring=True)
    surveillance = assess_risks(facts, frozenset(), [wording]).rights_risks[0]

    assert surveillance.key == "rights-surveillance"
    assert "minimisation" in surveillance.mitigating_families
    assert surveillance.residual_severity == surveillance.severity - 1


def test_it_recommends_no_backup_when_a_german_nightly_backup_is_listed(
    full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    inputs = {**full_inputs["DPIA"], "securityMeasures": DPIA_MEASURES["de"]}
    markdown = compose(
        document_type=DPIA, inputs=inputs, answers=full_answers["DPIA"], now=now, language="de"
    )
    body = _body(markdown, "d-measures")

    with activate("de"):
        backup_advice = gettext(
            "Keep tested, separate backups and a restore procedure (Art. 32(1)(c))."
        )
    assert backup_advice not in body
    assert "Datensicherung" in body


def test_a_measure_given_with_its_family_counts_in_that_family() -> None:
    measures = [{"name": "Kameras im Vier-Augen-Prinzip", "family": "access-control"}]
    assert classify_measures(measures) == {"access-control"}
    # The explicit family wins over what the wording would suggest.
    assert classify_measures([{"name": "Backup logs", "family": "encryption"}]) == {"encryption"}


def test_the_dpia_lists_a_measure_given_with_its_family_by_its_name(
    full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    measures = [
        *DPIA_MEASURES["en"],
        {"name": "Pseudonyme Kennungen", "family": "pseudonymisation"},
    ]
    inputs = {**full_inputs["DPIA"], "securityMeasures": measures}
    body = _body(
        compose(document_type=DPIA, inputs=inputs, answers=full_answers["DPIA"], now=now),
        "d-measures",
    )

    assert "- Pseudonyme Kennungen" in body
    assert "{" not in body


@pytest.mark.parametrize("language", ["de", "fr"])
def test_the_dpa_annex_iii_puts_each_measure_under_its_family_heading(
    language: str, full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    def annex(measures: list[str]) -> str:
        inputs = {**full_inputs["DATA_PROCESSING_AGREEMENT"], "securityMeasures": measures}
        markdown = compose(
            document_type=DPA,
            inputs=inputs,
            answers=full_answers["DATA_PROCESSING_AGREEMENT"],
            now=now,
            language=language,
        )
        return _body(markdown, "annex-iii-measures")

    def headings(body: str) -> list[str]:
        rows = [line for line in body.splitlines() if line.startswith("| ")][1:]
        return [row.split(" | ")[0].removeprefix("| ") for row in rows]

    translated, english = annex(DPA_MEASURES[language]), annex(DPA_MEASURES["en"])
    with activate(language):
        other = gettext("Other measure")

    assert headings(translated) == headings(english)
    assert len(headings(translated)) == len(DPA_MEASURES[language])
    assert other not in translated
    assert MARKER_WORDS[language] not in translated


@pytest.mark.parametrize(
    "training",
    [
        "Staff confidentiality training",
        "Schulung der Mitarbeiter zur Vertraulichkeit",
        "Formation du personnel à la confidentialité",
    ],
)
def test_training_alone_does_not_lower_a_high_residual_access_risk(training: str) -> None:
    access = assess_risks(HIGH_ACCESS_FACTS, classify_measures([training])).risks[0]

    assert access.key == "illegitimate-access"
    assert access.level == "high"
    assert access.residual_likelihood == access.likelihood
    assert access.residual_level == "high"


def test_logging_and_training_together_add_a_step_to_access_control() -> None:
    control = assess_risks(HIGH_ACCESS_FACTS, classify_measures(["MFA"])).risks[0]
    supported = assess_risks(
        HIGH_ACCESS_FACTS, classify_measures(["MFA", "Access logs", "Staff training"])
    ).risks[0]
    unsupported = assess_risks(
        HIGH_ACCESS_FACTS, classify_measures(["Access logs", "Staff training"])
    ).risks[0]

    assert control.residual_likelihood == control.likelihood - 1
    assert supported.residual_likelihood == control.likelihood - 2
    assert unsupported.residual_likelihood == unsupported.likelihood


@pytest.mark.parametrize(
    "wording", ["Login page", "Logistik-Partner", "Technology review", "Catalogue produits"]
)
def test_a_word_that_only_starts_like_log_is_not_logging(wording: str) -> None:
    assert "logging" not in classify_measures([wording])


@pytest.mark.parametrize(
    ("wording", "family"),
    [
        ("Protokollierung aller Zugriffe", "logging"),
        ("Journalisation des accès", "logging"),
        ("Schulung der Mitarbeiter", "organisational"),
        ("Vertraulichkeitsvereinbarung", "organisational"),
        ("Pseudonymisierung der Kundennummern", "pseudonymisation"),
        ("Wiederherstellung getestet", "backup"),
        ("Contrôle d'accès", "access-control"),
        ("Controllo degli accessi", "access-control"),
        ("Control de acceso", "access-control"),
    ],
)
def test_it_recognises_a_measure_in_its_own_language(wording: str, family: str) -> None:
    assert family in classify_measures([wording])
