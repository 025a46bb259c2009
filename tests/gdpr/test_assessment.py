"""`gdpr.assessment.assess`: the writers' conclusions as data (no database)."""

from __future__ import annotations

import json
from datetime import date

import pytest

from gdpr.assessment import assess
from gdpr.assessment.transfers import find_country
from gdpr.composition import compose
from gdpr.doctypes.registry import DOCUMENT_TYPES, get_document_type
from gdpr.i18n import activate, format_date
from tests.legal_documents.samples import FIXED_NOW, FULL_ANSWERS, FULL_INPUTS


def _assess(document_type: str, **inputs: object) -> dict:
    return assess(
        document_type=document_type,
        inputs={**FULL_INPUTS[document_type], **inputs},
        answers=FULL_ANSWERS[document_type],
        now=FIXED_NOW,
    )


def test_it_is_json_ready_sorted_and_the_same_on_every_call() -> None:
    for name in DOCUMENT_TYPES:
        found = _assess(name)
        assert json.loads(json.dumps(found)) == found
        assert _assess(name) == found
        keys = [(c["field"], c["scheme"], c["code"], c["wording"]) for c in found["concepts"]]
        assert keys == sorted(set(keys))


def test_it_says_which_wording_names_no_legal_basis() -> None:
    found = _assess("RECORD_OF_PROCESSING", legalBasis=["contract", "because we can"])
    assert {"field": "legalBasis", "wording": "because we can", "scheme": "legal-basis"} in (
        found["unclassified"]
    )


def test_it_finds_special_categories_without_their_condition() -> None:
    found = _assess("RECORD_OF_PROCESSING", dataCategories=["Health data"])
    assert found["decisions"]["specialCategoriesWithoutCondition"] is True
    assert {
        "field": "dataCategories",
        "wording": "Health data",
        "scheme": "data-category",
        "code": "health",
    } in found["concepts"]


@pytest.mark.parametrize(
    "facts",
    [
        {},
        # One month after 2 May 2026 is 2 June, a public holiday in Italy only.
        {"country": "Italy", "receivedAt": "2026-05-02"},
    ],
)
def test_its_request_due_dates_are_the_ones_the_form_states(facts: dict[str, str]) -> None:
    found = _assess("DATA_SUBJECT_REQUEST_FORM", **facts)
    markdown = compose(
        document_type=get_document_type("DATA_SUBJECT_REQUEST_FORM"),
        inputs={**FULL_INPUTS["DATA_SUBJECT_REQUEST_FORM"], **facts},
        now=FIXED_NOW,
    )
    with activate("en"):
        for key in ("responseDue", "extendedResponseDue"):
            due = date.fromisoformat(found["deadlines"][key])
            assert f"**{format_date(due)}**" in markdown, key


def test_its_prior_consultation_is_the_one_the_dpia_concludes() -> None:
    found = _assess("DPIA")
    markdown = compose(
        document_type=get_document_type("DPIA"),
        inputs=FULL_INPUTS["DPIA"],
        answers=FULL_ANSWERS["DPIA"],
        now=FIXED_NOW,
    )
    assert found["decisions"]["art36PriorConsultation"] is True
    assert "**Prior consultation is required.**" in markdown


def test_a_recipient_outside_the_eea_is_a_transfer_without_safeguard() -> None:
    found = _assess(
        "RECORD_OF_PROCESSING",
        thirdCountryTransfers=[],
        recipients=[{"name": "AnalyticsCo", "role": "processor", "country": "United States"}],
    )
    assert found["transfers"] == [
        {
            # None while the finder knows EEA countries only; "US" with gdpr.countries.
            "country": find_country("United States"),
            "recipient": "AnalyticsCo",
            "mechanism": "none",
            "adequacy": True,
            "adequacyLimited": True,
            "needsSafeguard": True,
        }
    ]
    assert found["decisions"]["transfersWithoutSafeguard"] == 1
    assert {
        "field": "recipients.role",
        "wording": "processor",
        "scheme": "recipient-role",
        "code": "processor",
    } in found["concepts"]


def test_a_whole_register_is_assessed_activity_by_activity() -> None:
    activity = {
        key: FULL_INPUTS["RECORD_OF_PROCESSING"][key]
        for key in ("processingActivity", "purposes", "legalBasis", "dataCategories")
    }
    found = assess(
        document_type="RECORD_OF_PROCESSING",
        inputs={
            "companyName": "Acme",
            "registerActivities": [activity, {**activity, "dataCategories": ["Health data"]}],
        },
        now=FIXED_NOW,
    )
    assert [a["decisions"]["specialCategories"] for a in found["activities"]] == [False, True]


def test_a_concept_named_by_the_dpo_is_a_concept_of_the_assessment_not_unclassified():
    from gdpr.assessment import assess

    result = assess(
        document_type="DPIA",
        inputs={
            "companyName": "Acme",
            "dataCategories": [{"name": "Notizen", "category": "health"}],
            "securityMeasures": [{"name": "Kaffeemaschine", "family": "access-control"}],
        },
    )
    assert result["unclassified"] == []
    codes = {(c["field"], c["code"]) for c in result["concepts"]}
    assert ("dataCategories", "health") in codes
    assert ("securityMeasures", "access-control") in codes
