"""Legal review of the DPA, the breach notification and the transfer instruments (points 6, 9, 10).

Each test names the article (or Commission decision / EDPB guideline) it enforces.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from gdpr.composition import completeness_report, compose, ensure_checklist
from gdpr.composition.completeness import item_blocks
from gdpr.composition.markdown import TO_BE_COMPLETED
from gdpr.composition.transfers import adequacy_decision
from gdpr.doctypes.registry import DOCUMENT_TYPES
from tests.legal_documents.history_support import edit, generated_document, without_item

DPA = "DATA_PROCESSING_AGREEMENT"
BREACH = "BREACH_NOTIFICATION"


def _compose(name: str, inputs: dict[str, Any], now: datetime, **kwargs: Any) -> str:
    return compose(document_type=DOCUMENT_TYPES[name], inputs=inputs, now=now, **kwargs)


def _item(markdown: str, item_id: str) -> str:
    return item_blocks(markdown)[item_id][0].body


# --- point 6: Chapter V instruments named precisely ------------------------------------------
def test_art_45_adequacy_transfers_name_the_commission_decision(now: datetime) -> None:
    inputs = {
        "companyName": "Acme",
        "thirdCountryTransfers": [
            {"country": "Japan", "recipient": "JP KK", "safeguard": "adequacy-decision"},
            {"country": "Republic of Korea", "recipient": "KR Co", "safeguard": "adequacy"},
            {"country": "United Kingdom", "recipient": "UK Ltd", "safeguard": "adequacy"},
        ],
    }
    markdown = _compose("RECORD_OF_PROCESSING", inputs, now)

    transfers = _item(markdown, "e-transfers")
    assert "Commission Implementing Decision (EU) 2019/419" in transfers
    assert "Commission Implementing Decision (EU) 2022/254" in transfers
    assert "Commission Implementing Decision (EU) 2021/1772" in transfers


def test_art_45_a_us_state_named_jersey_is_not_the_bailiwick() -> None:
    assert adequacy_decision("New Jersey") is None  # a US state alone: flagged, not adequate
    assert adequacy_decision("Newark, New Jersey, USA").country == "United States"
    assert adequacy_decision("St Helier, Jersey").country == "Jersey"
    assert adequacy_decision("India") is None


@pytest.mark.parametrize(
    ("country", "code"),
    [
        ("Schweiz", "CH"), ("Suisse", "CH"), ("Svizzera", "CH"), ("Zürich, Schweiz", "CH"),
        ("Vereinigtes Königreich", "GB"), ("Royaume-Uni", "GB"), ("Reino Unido", "GB"),
        ("Neuseeland", "NZ"), ("Nouvelle-Zélande", "NZ"), ("Stati Uniti", "US"),
        ("Vereinigte Staaten", "US"), ("Südkorea", "KR"), ("Giappone", "JP"),
        ("Färöer", "FO"), ("Kanada", "CA"), ("Austin, US", "US"),
    ],
)  # fmt: skip
def test_art_45_the_decision_is_found_by_the_countrys_name_in_any_language(
    country: str, code: str
) -> None:
    adequacy = adequacy_decision(country)
    assert adequacy is not None and adequacy.code == code


def test_art_45_us_adequacy_covers_only_dpf_certified_recipients(now: datetime) -> None:
    inputs = {
        "companyName": "Acme",
        "thirdCountryTransfers": [
            {"country": "USA", "recipient": "CloudCo Inc.", "safeguard": "adequacy-decision"}
        ],
    }
    transfers = _item(_compose("RECORD_OF_PROCESSING", inputs, now), "e-transfers")

    assert "Commission Implementing Decision (EU) 2023/1795" in transfers
    assert "EU-US Data Privacy Framework" in transfers
    # the certification of the recipient is not stated: a gap, not an assumption
    assert TO_BE_COMPLETED in transfers


def test_art_45_a_country_without_adequacy_decision_is_flagged(now: datetime) -> None:
    inputs = {
        "companyName": "Acme",
        "thirdCountryTransfers": [
            {"country": "India", "recipient": "Dev Pvt", "safeguard": "adequacy-decision"}
        ],
    }
    transfers = _item(_compose("RECORD_OF_PROCESSING", inputs, now), "e-transfers")

    assert TO_BE_COMPLETED in transfers
    assert "no adequacy decision" in transfers


def test_art_46_2_c_sccs_name_decision_2021_914_and_the_module_from_the_roles(
    now: datetime,
) -> None:
    inputs = {
        "companyName": "Acme",
        "recipients": [
            {"name": "CloudCo Inc.", "role": "processor", "country": "US", "safeguard": "SCC"},
            {"name": "Partner Inc.", "role": "controller", "country": "US", "safeguard": "SCC"},
        ],
    }
    transfers = _item(_compose("RECORD_OF_PROCESSING", inputs, now), "e-transfers")

    assert "Commission Implementing Decision (EU) 2021/914" in transfers
    assert "Module 2 (controller to processor)" in transfers
    assert "Module 1 (controller to controller)" in transfers


def test_art_46_2_c_scc_without_a_determinable_module_is_a_missing_detail(
    now: datetime,
) -> None:
    inputs = {
        "companyName": "Acme",
        "thirdCountryTransfers": [
            {"country": "Brazil", "recipient": "BR Ltda", "safeguard": "SCC",
             "safeguardDetails": "transfer impact assessment of 2026-01-10"}
        ],
    }  # fmt: skip
    transfers = _item(_compose("RECORD_OF_PROCESSING", inputs, now), "e-transfers")

    assert TO_BE_COMPLETED in transfers
    assert "the module of the standard contractual clauses" in transfers


def test_art_46_sccs_need_a_transfer_impact_assessment(now: datetime) -> None:
    inputs = {
        "companyName": "Acme",
        "thirdCountryTransfers": [
            {"country": "Brazil", "recipient": "BR Ltda", "safeguard": "SCC module 2"}
        ],
    }
    transfers = _item(_compose("RECORD_OF_PROCESSING", inputs, now), "e-transfers")

    assert "Module 2 (controller to processor)" in transfers
    assert TO_BE_COMPLETED in transfers
    assert "transfer impact assessment" in transfers


# --- point 9: the DPA ------------------------------------------------------------------------
def test_art_28_dpa_with_a_processor_outside_the_eea_incorporates_scc_module_2(
    full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    markdown = _compose(DPA, full_inputs[DPA], now, answers=full_answers[DPA])

    transfers = _item(markdown, "transfers")
    assert "Commission Implementing Decision (EU) 2021/914" in transfers
    assert "Module 2" in transfers
    assert "incorporated by reference" in transfers
    assert "Clause 14" in transfers and "Clause 15" in transfers
    assert "transfer impact assessment" in transfers


def test_art_28_4_a_sub_processor_chain_uses_scc_module_3(
    full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    inputs = {**full_inputs[DPA], "actsAsProcessor": True}
    markdown = _compose(DPA, inputs, now, answers=full_answers[DPA])

    transfers = _item(markdown, "transfers")
    assert "Module 3" in transfers
    assert "Module 2" not in transfers


def test_art_28_7_dpa_has_the_annexes_of_decision_2021_915_and_a_signature_block(
    full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    markdown = _compose(DPA, full_inputs[DPA], now, answers=full_answers[DPA])

    for item_id in (
        "annex-i-parties",
        "annex-ii-description",
        "annex-iii-measures",
        "annex-iv-subprocessors",
        "signatures",
    ):
        assert f"{{#{item_id}}}" in markdown
    annex_iv = _item(markdown, "annex-iv-subprocessors")
    assert "BackupCo SAS" in annex_iv and "12 rue de Paris, 75001 Paris" in annex_iv
    assert "France" in annex_iv
    annex_i = _item(markdown, "annex-i-parties")
    assert "Max Mustermann" in annex_i
    assert "Signature" in _item(markdown, "signatures")
    assert completeness_report(document_type=DOCUMENT_TYPES[DPA], markdown=markdown).complete


def test_art_28_7_annex_iv_needs_each_sub_processors_address_and_location(
    full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    inputs = {**full_inputs[DPA], "subprocessors": ["BackupCo, backups"]}
    markdown = _compose(DPA, inputs, now, answers=full_answers[DPA])

    annex_iv = _item(markdown, "annex-iv-subprocessors")
    assert TO_BE_COMPLETED in annex_iv
    assert "address" in annex_iv and "location" in annex_iv


def test_art_28_7_annex_iii_describes_measures_in_detail(
    full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    inputs = {**full_inputs[DPA], "securityMeasures": ["Encryption at rest"]}
    markdown = _compose(DPA, inputs, now, answers=full_answers[DPA])

    annex_iii = _item(markdown, "annex-iii-measures")
    assert "Encryption at rest" in annex_iii
    assert TO_BE_COMPLETED in annex_iii  # access control, availability, testing not described


def test_art_28_3_governing_law_must_be_a_member_states(
    full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    inputs = {**full_inputs[DPA], "governingLaw": "the laws of the State of California"}
    markdown = _compose(DPA, inputs, now, answers=full_answers[DPA])

    law = _item(markdown, "governing-law")
    assert TO_BE_COMPLETED in law
    assert "Member State" in law


def test_art_28_2_objection_to_a_new_sub_processor_and_termination_for_non_compliance(
    full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    markdown = _compose(DPA, full_inputs[DPA], now, answers=full_answers[DPA])

    objection = _item(markdown, "subprocessor-objection")
    assert "objects" in objection and "terminate" in objection
    termination = _item(markdown, "termination")
    assert "suspend" in termination and "terminate" in termination


# --- point 10: the breach notification --------------------------------------------------------
def test_art_33_1_the_notification_gives_a_timeline(
    full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    inputs = {**full_inputs[BREACH], "occurredAt": "2026-02-28T22:00:00Z"}
    markdown = _compose(BREACH, inputs, now, answers=full_answers[BREACH])

    timeline = _item(markdown, "timeline")
    for step in ("Occurred", "Discovered", "Aware", "Notified"):
        assert step in timeline
    assert "2026-02-28T22:00:00Z" in timeline


def test_art_33_1_a_notification_after_72_hours_needs_reasons_for_the_delay(
    full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    inputs = {**full_inputs[BREACH], "notifiedAt": "2026-03-05T09:00:00Z"}
    markdown = _compose(BREACH, inputs, now, answers=full_answers[BREACH])

    deadline = _item(markdown, "deadline")
    assert "Reasons for the delay" in deadline
    assert TO_BE_COMPLETED in deadline


def test_art_33_3_a_names_the_categories_of_data_subjects(
    full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    inputs = {**full_inputs[BREACH], "dataSubjects": ["Customers", "Employees"]}
    nature = _item(_compose(BREACH, inputs, now, answers=full_answers[BREACH]), "a-nature")
    assert "Categories of data subjects" in nature and "Employees" in nature

    inputs.pop("dataSubjects")
    nature = _item(_compose(BREACH, inputs, now, answers=full_answers[BREACH]), "a-nature")
    assert TO_BE_COMPLETED in nature


def test_art_34_3_a_the_encryption_status_and_its_effect_are_stated(
    full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    markdown = _compose(BREACH, full_inputs[BREACH], now, answers=full_answers[BREACH])
    encryption = _item(markdown, "encryption")
    assert "not encrypted" in encryption and "Art. 34(3)(a) does not apply" in encryption

    inputs = {**full_inputs[BREACH], "encrypted": True, "keyCompromised": True}
    encryption = _item(_compose(BREACH, inputs, now, answers=full_answers[BREACH]), "encryption")
    assert "key" in encryption and "Art. 34(3)(a) does not apply" in encryption

    inputs = {**full_inputs[BREACH], "encrypted": None}
    encryption = _item(_compose(BREACH, inputs, now, answers=full_answers[BREACH]), "encryption")
    assert TO_BE_COMPLETED in encryption


def test_art_33_4_a_notification_with_gaps_is_not_called_complete(
    full_inputs: dict, now: datetime
) -> None:
    inputs = dict(full_inputs[BREACH])
    del inputs["approximateSubjects"]
    markdown = _compose(BREACH, inputs, now, answers={"informationComplete": True})

    phases = _item(markdown, "phased-information")
    assert "all information is available" not in phases
    assert "initial notification" in phases


def test_art_34_2_the_draft_communication_gives_concrete_advice(
    full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    inputs = {**full_inputs[BREACH], "dataCategories": ["Passwords", "Bank account numbers"]}
    markdown = _compose(BREACH, inputs, now, answers=full_answers[BREACH])

    draft = _item(markdown, "draft-communication")
    assert "change your password" in draft
    assert "phishing" in draft
    assert "Jane Roe, dpo@acme.example" in draft


def test_the_risk_line_does_not_read_risk_risk(full_inputs: dict, now: datetime) -> None:
    inputs = {**full_inputs[BREACH], "dataCategories": ["Contact data"], "approximateSubjects": 50}
    markdown = _compose(BREACH, inputs, now)

    assert "risk risk" not in markdown
    assert "Art. 34(1)" in _item(markdown, "data-subject-communication")
    assert "assessed as risk" not in markdown


# --- the compliance report and ensure_checklist keep the new items ----------------------------
def test_the_report_and_ensure_checklist_keep_the_new_items(
    full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    for name, new_items in (
        (DPA, ("transfers", "governing-law", "annex-iv-subprocessors", "signatures")),
        (BREACH, ("timeline", "encryption", "draft-communication")),
    ):
        document_type = DOCUMENT_TYPES[name]
        template = _compose(name, full_inputs[name], now, answers=full_answers[name])
        lines = template.splitlines()
        for item_id in new_items:  # an LLM or an editor drops the item, heading and all
            block = item_blocks("\n".join(lines))[item_id][0]
            del lines[block.heading_line : block.end_line]
        edited = "\n".join(lines)
        report = completeness_report(document_type=document_type, markdown=edited)
        assert set(new_items) <= set(report.missing)

        repaired = ensure_checklist(
            document_type=document_type, markdown=edited, fallback_markdown=template
        )
        assert completeness_report(document_type=document_type, markdown=repaired).complete


@pytest.mark.django_db
def test_a_manual_edit_dropping_new_dpa_items_is_reported(dpo) -> None:
    document = generated_document(dpo, DPA)
    markdown = without_item(document.content_markdown, "annex-iv-subprocessors")
    markdown = without_item(markdown, "transfers")

    response = edit(dpo, document, markdown, "Shorter")

    assert response.status_code == 200, response.content
    body = response.json()
    assert sorted(body["removedItems"]) == ["annex-iv-subprocessors", "transfers"]
    assert {"annex-iv-subprocessors", "transfers"} <= set(body["compliance"]["missing"])
