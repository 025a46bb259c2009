"""Legal review of the DPIA and the record of processing (docs/LEGAL-REVIEW.md).

Each test names the article (or guideline) it enforces and feeds the inputs that trigger it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from gdpr.composition import completeness_report, compose, ensure_checklist
from gdpr.composition.assessments.dpia_risk import assess_risks
from gdpr.composition.assessments.dpia_screening import DpiaFacts
from gdpr.composition.assessments.risk_scale import risk_level
from gdpr.composition.assessments.security_measures import classify_measures
from gdpr.composition.completeness import item_blocks
from gdpr.doctypes.registry import get_document_type

DPIA = get_document_type("DPIA")
ROPA = get_document_type("RECORD_OF_PROCESSING")


def _dpia(inputs: dict[str, Any], answers: dict[str, Any], now: datetime) -> str:
    return compose(document_type=DPIA, inputs=inputs, answers=answers, now=now)


def _ropa(inputs: dict[str, Any], now: datetime) -> str:
    return compose(document_type=ROPA, inputs=inputs, now=now)


def _body(markdown: str, item_id: str) -> str:
    return item_blocks(markdown)[item_id][0].body


def _missing(document_type: Any, markdown: str) -> list[str]:
    return completeness_report(document_type=document_type, markdown=markdown).missing


# --- 1. Rights follow the legal basis (Art. 7(3), 20, 21) ------------------------------------
def test_art_20_portability_is_not_offered_under_legitimate_interests(
    full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    inputs = {**full_inputs["DPIA"], "legalBasis": ["legitimate-interests"]}
    body = _body(_dpia(inputs, full_answers["DPIA"], now), "b-necessity")

    assert "portability" not in body.lower()
    assert "object (Art. 21(1))" in body
    assert "Art. 7(3)" not in body


def test_consent_brings_withdrawal_art_7_3_and_portability_art_20(
    full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    inputs = {**full_inputs["DPIA"], "legalBasis": ["consent"]}
    body = _body(_dpia(inputs, full_answers["DPIA"], now), "b-necessity")

    assert "withdraw consent at any time (Art. 7(3))" in body
    assert "data portability (Art. 20)" in body
    assert "Art. 21(1)" not in body


def test_art_21_2_objection_to_direct_marketing_whatever_the_basis(
    full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    inputs = {**full_inputs["DPIA"], "legalBasis": ["consent"], "purposes": ["Direct marketing"]}
    body = _body(_dpia(inputs, full_answers["DPIA"], now), "b-necessity")

    assert "Art. 21(2)" in body


# --- 5. Special categories need an Art. 9(2) condition, Art. 10 data an Art. 10 basis ----------
def test_art_9_2_biometric_data_without_a_condition_is_a_missing_item(
    full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    inputs = {**full_inputs["DPIA"], "legalBasis": ["legitimate-interests"]}
    markdown = _dpia(inputs, full_answers["DPIA"], now)

    assert "special-categories" in _missing(DPIA, markdown)
    assert "Art. 9(2)" in _body(markdown, "special-categories")


def test_art_9_data_named_only_among_data_categories_is_screened_as_sensitive(
    full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    inputs = {
        **full_inputs["DPIA"],
        "legalBasis": ["legitimate-interests"],
        "specialCategories": [],
        "dataCategories": ["Fingerprint templates (biometric)"],
    }
    markdown = _dpia(inputs, full_answers["DPIA"], now)

    assert "special-categories" in _missing(DPIA, markdown)
    assert "| Sensitive or highly personal data | Met |" in _body(markdown, "screening")


def test_art_9_2_condition_given_makes_the_item_present(
    full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    inputs = {
        **full_inputs["DPIA"],
        "legalBasis": ["legitimate-interests", "Art. 9(2)(a) explicit consent of enrolled staff"],
    }
    markdown = _dpia(inputs, full_answers["DPIA"], now)

    assert "special-categories" not in _missing(DPIA, markdown)
    assert "Art. 9(2)(a) explicit consent" in _body(markdown, "special-categories")


def test_art_10_criminal_data_in_the_record_needs_an_art_10_basis(
    full_inputs: dict, now: datetime
) -> None:
    inputs = {
        **full_inputs["RECORD_OF_PROCESSING"],
        "dataCategories": ["Criminal records extracts"],
    }
    markdown = _ropa(inputs, now)
    assert "special-categories" in _missing(ROPA, markdown)
    assert "Art. 10" in _body(markdown, "special-categories")

    inputs["art10Basis"] = "Section 30a BZRG (extended criminal record for staff with minors)"
    assert "special-categories" not in _missing(ROPA, _ropa(inputs, now))


# --- 8. DPIA --------------------------------------------------------------------------------
def test_art_6_1_f_needs_a_documented_balancing_test(
    full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    inputs = {**full_inputs["DPIA"], "balancingTest": None}
    markdown = _dpia(inputs, full_answers["DPIA"], now)
    assert "balancing-test" in _missing(DPIA, markdown)

    consent = {**inputs, "legalBasis": ["consent"]}
    assert "balancing-test" not in _missing(DPIA, _dpia(consent, full_answers["DPIA"], now))


def test_art_35_7_b_necessity_is_argued_per_purpose_against_less_intrusive_means(
    full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    inputs = {
        **full_inputs["DPIA"],
        "purposeNecessity": [
            {
                "purpose": "Footfall measurement",
                "necessity": "Staff planning needs hourly counts.",
                "lessIntrusiveMeans": "Infrared counters considered: too imprecise in crowds.",
            }
        ],
    }
    markdown = _dpia(inputs, full_answers["DPIA"], now)
    body = _body(markdown, "b-necessity")

    assert "Infrared counters considered" in body
    assert "b-necessity" in _missing(DPIA, markdown)  # "Security of premises" is not argued
    assert "Security of premises" in body


def test_art_35_7_c_rates_risks_to_rights_and_freedoms_beside_the_cnil_feared_events(
    full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    body = _body(_dpia(full_inputs["DPIA"], full_answers["DPIA"], now), "c-risks")

    for risk in ("Surveillance", "Discrimination", "Loss of control", "Chilling effect"):
        assert risk in body
    assert "Function creep" in body
    assert "Illegitimate access to data" in body


def test_cnil_risk_map_is_a_position_not_a_product_of_scores() -> None:
    # Maximum likelihood of a negligible impact is not "low" on the CNIL map, and a maximum
    # severity at negligible likelihood is not the same zone as its mirror image.
    assert risk_level(1, 4) != "low"
    assert risk_level(4, 1) != risk_level(1, 4)
    assert risk_level(3, 3) == "high"
    assert risk_level(2, 2) == "low"


def test_cnil_residual_values_change_only_through_measures_acting_on_them() -> None:
    facts = DpiaFacts(large_scale=True, special_categories=("health",))
    before = assess_risks(facts, frozenset())
    after = assess_risks(facts, classify_measures(["Nightly backups"]))

    modification_before, modification_after = before.risks[1], after.risks[1]
    # A backup does not make a modification less likely: it limits its impact (restore).
    assert modification_after.residual_likelihood == modification_before.likelihood
    access_before, access_after = before.risks[0], after.risks[0]
    assert (access_after.residual_severity, access_after.residual_likelihood) == (
        access_before.residual_severity,
        access_before.residual_likelihood,
    )
    rights_after = after.rights_risks
    assert rights_after
    assert all(r.residual_level == r.level for r in rights_after)


def test_dpo_reservations_are_carried_into_the_action_plan(
    full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    inputs = {**full_inputs["DPIA"], "actionPlan": []}
    markdown = _dpia(inputs, full_answers["DPIA"], now)
    assert "action-plan" in _missing(DPIA, markdown)

    inputs["actionPlan"] = [
        {"measure": "Blur faces", "owner": "Head of security", "dueDate": "2026-04-01"}
    ]
    markdown = _dpia(inputs, full_answers["DPIA"], now)
    assert "action-plan" not in _missing(DPIA, markdown)
    assert "| Blur faces | Head of security | 2026-04-01 |" in _body(markdown, "action-plan")


def test_the_controller_validates_the_dpia_with_decision_name_and_date(
    full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    answers = {k: v for k, v in full_answers["DPIA"].items() if k != "controllerDecision"}
    undecided = {**full_inputs["DPIA"], "controllerDecision": None}
    assert "validation" in _missing(DPIA, _dpia(undecided, answers, now))
    unsigned = {**full_inputs["DPIA"], "validatedBy": None}
    assert "validation" in _missing(DPIA, _dpia(unsigned, full_answers["DPIA"], now))

    markdown = _dpia(full_inputs["DPIA"], full_answers["DPIA"], now)
    body = _body(markdown, "validation")
    assert "validation" not in _missing(DPIA, markdown)
    assert full_inputs["DPIA"]["validatedBy"] in body
    assert "Art. 36(1)" in body  # a high residual risk remains in the sample


def test_art_35_4_national_list_is_checked_when_the_country_is_known(
    full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    inputs = {**full_inputs["DPIA"], "country": "FR"}
    body = _body(_dpia(inputs, full_answers["DPIA"], now), "national-list")
    assert "CNIL" in body
    assert "non-exhaustive excerpt" in body

    unknown = {**full_inputs["DPIA"], "country": None}
    assert "national-list" in _missing(DPIA, _dpia(unknown, full_answers["DPIA"], now))


# --- 12. Record of processing ---------------------------------------------------------------
def test_art_30_1_f_retention_per_category_states_when_the_period_starts(
    full_inputs: dict, now: datetime
) -> None:
    inputs = {
        **full_inputs["RECORD_OF_PROCESSING"],
        "dataCategories": ["Contact data", "Order history"],
        "retentionPeriods": [
            {"category": "Contact data", "period": "3 years"},
            "Order history: 10 years after the end of the financial year",
        ],
    }
    markdown = _ropa(inputs, now)
    body = _body(markdown, "f-erasure")

    assert "f-erasure" in _missing(ROPA, markdown)
    assert "when the period starts" in body
    assert "Contact data" in body


def test_art_6_1_b_does_not_cover_prospects(full_inputs: dict, now: datetime) -> None:
    inputs = {
        **full_inputs["RECORD_OF_PROCESSING"],
        "legalBasis": ["contract"],
        "dataSubjects": ["Customers", "Prospects"],
        "purposeLegalBases": None,
    }
    markdown = _ropa(inputs, now)

    assert "purpose-basis" in _missing(ROPA, markdown)
    assert "Art. 6(1)(b)" in _body(markdown, "purpose-basis")


def test_the_record_gives_a_legal_basis_per_purpose(full_inputs: dict, now: datetime) -> None:
    markdown = _ropa(full_inputs["RECORD_OF_PROCESSING"], now)
    body = _body(markdown, "purpose-basis")

    assert "purpose-basis" not in _missing(ROPA, markdown)
    assert "| Prospect follow-up | legitimate interests (Art. 6(1)(f))" in body


# --- Completeness and repair of the new items ------------------------------------------------
NEW_DPIA_ITEMS = (
    "special-categories",
    "national-list",
    "balancing-test",
    "action-plan",
    "validation",
)


def test_ensure_checklist_puts_back_the_new_items_an_llm_or_editor_dropped(
    full_inputs: dict, full_answers: dict, now: datetime
) -> None:
    template = _dpia(full_inputs["DPIA"], full_answers["DPIA"], now)
    assert completeness_report(document_type=DPIA, markdown=template).complete
    lines = template.splitlines()
    blocks = item_blocks(template)
    for item_id in sorted(NEW_DPIA_ITEMS, key=lambda i: -blocks[i][0].heading_line):
        block = blocks[item_id][0]
        del lines[block.heading_line : block.end_line]
    edited = "\n".join(lines)
    assert set(_missing(DPIA, edited)) == set(NEW_DPIA_ITEMS)

    repaired = ensure_checklist(document_type=DPIA, markdown=edited, fallback_markdown=template)
    assert completeness_report(document_type=DPIA, markdown=repaired).complete

    ropa = _ropa(full_inputs["RECORD_OF_PROCESSING"], now)
    block = item_blocks(ropa)["purpose-basis"][0]
    ropa_lines = ropa.splitlines()
    ropa_lines[block.heading_line + 1 : block.end_line] = ["", "**[To be completed]**", ""]
    manual = "\n".join(ropa_lines)
    assert _missing(ROPA, manual) == ["purpose-basis"]
    fixed = ensure_checklist(document_type=ROPA, markdown=manual, fallback_markdown=ropa)
    assert completeness_report(document_type=ROPA, markdown=fixed).complete
