"""Prospects, direct marketing, DPIA list facts, erasure starts and transfer documents are
recognised whatever language the DPO writes them in (issue 24).

Each of these words decides something: a purpose on Art. 6(1)(b) that names prospects is a
wrong pairing; direct marketing brings the absolute Art. 21(2)-(3) objection; an employee or
location fact makes a national Art. 35(4) entry likely; a retention rule with its starting
event is complete; a named transfer impact assessment, DPF certification or SCC module is not
asked for again.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from gdpr.composition import completeness_report, compose
from gdpr.composition.completeness import item_blocks
from gdpr.composition.rights import is_direct_marketing
from gdpr.composition.transfers import describe_instrument, scc_module_stated
from gdpr.doctypes.registry import get_document_type

DPIA = get_document_type("DPIA")
ROPA = get_document_type("RECORD_OF_PROCESSING")


def _body(markdown: str, item_id: str) -> str:
    return item_blocks(markdown)[item_id][0].body


def _missing(document_type: Any, markdown: str) -> list[str]:
    return completeness_report(document_type=document_type, markdown=markdown).missing


@pytest.mark.parametrize(
    "subjects",
    [
        ["Kunden", "Interessenten"],
        ["Clients", "Prospects"],
        ["Clientes", "Clientes potenciales"],
        ["Clienti", "Potenziali clienti"],
    ],
)
def test_prospects_under_art_6_1_b_alone_are_flagged_in_every_language(
    subjects: list[str], full_inputs: dict, now: datetime
) -> None:
    inputs = {
        **full_inputs["RECORD_OF_PROCESSING"],
        "purposes": ["Kundenverwaltung"],
        "legalBasis": ["contract"],
        "dataSubjects": subjects,
        "purposeLegalBases": None,
    }
    markdown = compose(document_type=ROPA, inputs=inputs, now=now)

    assert "purpose-basis" in _missing(ROPA, markdown)
    assert "covers prospects" in _body(markdown, "purpose-basis")


@pytest.mark.parametrize(
    "purpose", ["Werbung für eigene Produkte", "Publicité ciblée", "Publicidad", "Pubblicità"]
)
def test_an_advertising_purpose_on_a_contract_is_a_wrong_pairing(
    purpose: str, full_inputs: dict, now: datetime
) -> None:
    inputs = {
        **full_inputs["RECORD_OF_PROCESSING"],
        "purposes": [purpose],
        "legalBasis": ["contract"],
        "dataSubjects": ["Kunden"],
        "purposeLegalBases": None,
    }
    body = _body(compose(document_type=ROPA, inputs=inputs, now=now), "purpose-basis")

    assert "Incorrect pairing: " + purpose in body


@pytest.mark.parametrize(
    "purpose",
    [
        "Direktwerbung",
        "Newsletter-Versand",
        "Prospection commerciale",
        "Marketing directo",
        "Marketing diretto",
    ],
)
def test_direct_marketing_is_recognised_in_every_language(purpose: str) -> None:
    assert is_direct_marketing([purpose])


@pytest.mark.parametrize(
    "purpose", ["Bearbeitung von Bewerbungen", "Gestión de nóminas", "Lohnabrechnung"]
)
def test_an_ordinary_purpose_is_not_direct_marketing(purpose: str) -> None:
    assert not is_direct_marketing([purpose])


@pytest.mark.parametrize(
    ("subjects", "categories"),
    [
        (["Beschäftigte", "Besucher"], ["Videobilder", "Standortdaten"]),
        (["Salariés", "Visiteurs"], ["Images vidéo", "Données de géolocalisation"]),
        (["Empleados", "Visitantes"], ["Imágenes de vídeo", "Datos de ubicación"]),
        (["Dipendenti", "Visitatori"], ["Immagini video", "Dati di geolocalizzazione"]),
    ],
)
def test_employee_and_location_facts_match_national_list_entries_in_every_language(
    subjects: list[str], categories: list[str], full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    english = {
        **full_inputs["DPIA"],
        "country": "NL",
        "dataSubjects": ["Employees", "Visitors"],
        "dataCategories": ["Video images", "Location data"],
    }
    translated = {**english, "dataSubjects": subjects, "dataCategories": categories}

    def national_list(inputs: dict) -> str:
        markdown = compose(document_type=DPIA, inputs=inputs, answers=full_answers["DPIA"], now=now)
        return _body(markdown, "national-list")

    body = national_list(translated)
    assert "| Employee monitoring | Likely (employees, monitoring) |" in body
    assert "| Location data | Likely (location) |" in body
    assert body == national_list(english)


@pytest.mark.parametrize(
    "rule",
    [
        "Bestelldaten: 10 Jahre nach Ende des Geschäftsjahres",
        "Historique des commandes : 10 ans à compter de la fin de l'exercice",
        "Historial de pedidos: 10 años desde el fin del ejercicio",
        "Storico ordini: 10 anni dalla fine dell'esercizio",
    ],
)
def test_a_retention_rule_stating_its_start_in_any_language_is_complete(
    rule: str, full_inputs: dict, now: datetime
) -> None:
    category = rule.partition(":")[0].strip()
    inputs = {
        **full_inputs["RECORD_OF_PROCESSING"],
        "dataCategories": [category],
        "retentionPeriods": [rule],
    }
    markdown = compose(document_type=ROPA, inputs=inputs, now=now)

    assert "when the period starts" not in _body(markdown, "f-erasure")


@pytest.mark.parametrize(
    "details",
    [
        "SCC, transfer impact assessment of 2026-01-10",
        "Datenübermittlungs-Folgenabschätzung vom 10.01.2026",
        "Analyse d'impact des transferts du 10/01/2026",
        "Evaluación de impacto de la transferencia de 10/01/2026",
        "Valutazione d'impatto del trasferimento del 10/01/2026",
    ],
)
def test_a_transfer_impact_assessment_named_in_any_language_is_not_asked_for(
    details: str,
) -> None:
    instrument = describe_instrument(
        code="standard-contractual-clauses",
        country="India",
        recipient="SupportCo",
        wording=None,
        details=details,
        exporter_role="controller",
        importer_role="processor",
    )

    assert not any("transfer impact assessment" in missing for missing in instrument.missing)


@pytest.mark.parametrize(
    "details", ["EU-US-Datenschutzrahmen", "Cadre de protection des données UE-États-Unis"]
)
def test_a_dpf_certification_named_in_another_language_is_not_asked_for(details: str) -> None:
    instrument = describe_instrument(
        code="adequacy-decision",
        country="United States",
        recipient="CloudCo",
        wording=None,
        details=details,
        exporter_role="controller",
        importer_role="processor",
    )

    assert instrument.missing == ()


@pytest.mark.parametrize(
    ("text", "module"),
    [
        ("SCC module 2", 2),
        ("SCC, module two (C2P)", 2),
        ("Standardvertragsklauseln Modul 2", 2),
        ("Clauses contractuelles types, module 3", 3),
        ("Cláusulas contractuales tipo, módulo 1", 1),
        ("Clausole contrattuali tipo, modulo 4", 4),
        ("Standard contractual clauses", None),
    ],
)
def test_the_scc_module_is_read_in_every_language(text: str, module: int | None) -> None:
    assert scc_module_stated(text) == module
