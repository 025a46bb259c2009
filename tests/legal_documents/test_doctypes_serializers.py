"""Create-body validation of each type's inputs (needs Django settings: pytest-django)."""

from __future__ import annotations

import uuid

import pytest

from common.fields import MAX_TEXT_LENGTH
from legal_documents.inputs.fields import CONTENT_TOO_LONG, error_codes
from legal_documents.inputs.registry import DOCUMENT_TYPES, get_document_type


@pytest.mark.parametrize("name", sorted(DOCUMENT_TYPES))
def test_full_sample_inputs_are_valid_for_each_type(name: str, full_inputs: dict) -> None:
    serializer = DOCUMENT_TYPES[name].input_serializer(data=full_inputs[name])
    assert serializer.is_valid(), serializer.errors


def test_it_accepts_a_client_company_instead_of_a_name() -> None:
    serializer = get_document_type("DPIA").input_serializer(
        data={"clientCompanyId": str(uuid.uuid4())}
    )
    assert serializer.is_valid(), serializer.errors


@pytest.mark.parametrize(
    "data",
    [{}, {"companyName": "Acme", "clientCompanyId": str(uuid.uuid4())}, {"companyDetails": "x"}],
)
def test_it_requires_either_a_company_name_or_a_client_company(data: dict) -> None:
    serializer = get_document_type("DPIA").input_serializer(data=data)
    assert not serializer.is_valid()
    assert "CONTENT_TOO_LONG" not in error_codes(serializer.errors)


@pytest.mark.parametrize("field", ["companyName", "processingActivity", "purposes"])
def test_an_over_long_text_fails_with_content_too_long(field: str) -> None:
    too_long = "x" * (MAX_TEXT_LENGTH + 1)
    value = [too_long] if field == "purposes" else too_long
    serializer = get_document_type("RECORD_OF_PROCESSING").input_serializer(
        data={"companyName": "Acme", field: value}
    )
    assert not serializer.is_valid()
    assert CONTENT_TOO_LONG in error_codes(serializer.errors)


def test_a_text_of_exactly_the_limit_is_accepted() -> None:
    serializer = get_document_type("PRIVACY_POLICY").input_serializer(
        data={"companyName": "Acme", "statutoryRequirement": "x" * MAX_TEXT_LENGTH}
    )
    assert serializer.is_valid(), serializer.errors


def test_it_rejects_an_unknown_legal_basis_and_a_transfer_without_country() -> None:
    serializer = get_document_type("DPIA").input_serializer(
        data={
            "companyName": "Acme",
            "legalBasis": ["because"],
            "thirdCountryTransfers": [{"safeguard": "adequacy-decision"}],
        }
    )
    assert not serializer.is_valid()
    assert set(serializer.errors) == {"legalBasis", "thirdCountryTransfers"}


def test_breach_times_are_parsed_as_datetimes() -> None:
    serializer = get_document_type("BREACH_NOTIFICATION").input_serializer(
        data={"companyName": "Acme", "discoveredAt": "not a date"}
    )
    assert not serializer.is_valid()
    assert "discoveredAt" in serializer.errors
