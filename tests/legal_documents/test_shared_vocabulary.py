"""One input vocabulary for every document type: an integrator sends one record per activity.

A field some other type uses is accepted, ignored and reported as a warning; a name no type
uses (a typo) is refused with the closest known name; a list field given one text takes it as
a list of one; data categories and security measures may name their concept explicitly.
"""

from __future__ import annotations

import pytest

from legal_documents.inputs.registry import get_document_type
from legal_documents.models import LegalDocument

pytestmark = pytest.mark.django_db

URL = "/api/v1/legal-documents"


def create(caller, document_type: str, **fields):  # type: ignore[no-untyped-def]
    body = {"documentType": document_type, "companyName": "Acme", **fields}
    return caller.client.post(URL, body, format="json")


def valid(document_type: str, **fields: object) -> dict:
    serializer = get_document_type(document_type).input_serializer(
        data={"companyName": "Acme", **fields}
    )
    assert serializer.is_valid(), serializer.errors
    return dict(serializer.validated_data)


def errors(document_type: str, **fields: object) -> dict:
    serializer = get_document_type(document_type).input_serializer(
        data={"companyName": "Acme", **fields}
    )
    assert not serializer.is_valid()
    return serializer.errors


def test_a_field_another_type_uses_is_accepted_ignored_and_reported(dpo):
    response = create(
        dpo, "PRIVACY_POLICY", purposes=["Newsletter"], securityMeasures=["Encryption at rest"]
    )
    assert response.status_code == 201, response.json()
    warnings = response.json()["warnings"]
    assert [warning["field"] for warning in warnings] == ["securityMeasures"]
    assert "PRIVACY_POLICY" in warnings[0]["message"]
    stored = LegalDocument.objects.get(pk=response.json()["id"]).inputs
    assert "securityMeasures" not in stored
    assert stored["purposes"] == ["Newsletter"]


def test_a_create_without_foreign_fields_has_no_warnings(dpo):
    response = create(dpo, "PRIVACY_POLICY", purposes=["Newsletter"])
    assert response.status_code == 201
    assert response.json()["warnings"] == []


def test_a_name_no_type_uses_is_refused_with_the_closest_known_name(dpo):
    response = create(dpo, "PRIVACY_POLICY", dataCategorys=["Contact data"])
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "VALIDATION_ERROR"
    assert "dataCategories" in error["details"]["dataCategorys"][0]
    assert not LegalDocument.objects.exists()


def test_a_list_field_given_one_text_takes_it_as_a_list_of_one():
    data = valid("BREACH_NOTIFICATION", measuresTaken="remote wipe issued")
    assert data["measuresTaken"] == ["remote wipe issued"]
    data = valid("RECORD_OF_PROCESSING", recipients="Payroll provider")
    assert data["recipients"] == ["Payroll provider"]


def test_a_data_category_may_name_its_concept():
    data = valid(
        "RECORD_OF_PROCESSING",
        dataCategories=["Contact data", {"name": "Befunde", "category": "health"}],
        securityMeasures=[{"name": "Festplattenverschlüsselung"}],
    )
    assert data["dataCategories"][1] == {"name": "Befunde", "category": "health"}
    assert (
        "category"
        in errors("RECORD_OF_PROCESSING", dataCategories=[{"name": "x", "category": "healthy"}])[
            "dataCategories"
        ][0]
    )


def test_a_special_category_may_name_its_concept_in_a_dpia():
    data = valid("DPIA", specialCategories=[{"name": "Diagnosen", "category": "health"}])
    assert data["specialCategories"] == [{"name": "Diagnosen", "category": "health"}]


def test_a_named_concept_is_written_by_its_name():
    from gdpr.composition import compose
    from gdpr.doctypes.registry import DOCUMENT_TYPES

    markdown = compose(
        document_type=DOCUMENT_TYPES["RECORD_OF_PROCESSING"],
        inputs={
            "companyName": "Acme",
            "dataCategories": [{"name": "Befunde", "category": "health"}],
        },
    )
    assert "Befunde" in markdown
    assert "'category'" not in markdown


def test_the_openapi_schema_lists_the_concept_codes_and_the_warnings(dpo):
    from gdpr.concepts import codes

    schema = dpo.client.get("/api/schema/?format=json").json()
    components = schema["components"]["schemas"]
    record = components["RecordOfProcessingCreateBodyRequest"]["properties"]
    item = record["dataCategories"]["items"]["oneOf"][1]["$ref"].rsplit("/", 1)[1]
    category = components[item]["properties"]["category"]
    # drf-spectacular moves an enum into a component of its own.
    reference = (category.get("allOf") or [category])[0].get("$ref", "")
    enum = components[reference.rsplit("/", 1)[1]] if reference else category
    assert enum["enum"] == list(codes("data-category"))
    measure = record["securityMeasures"]["items"]["oneOf"][1]["$ref"].rsplit("/", 1)[1]
    assert "family" in components[measure]["properties"]
    created = components["CreatedDocument"]["properties"]
    assert created["warnings"]["type"] == "array"
