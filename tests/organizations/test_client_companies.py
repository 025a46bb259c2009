import pytest

from tests.factories import ClientCompanyFactory

pytestmark = pytest.mark.django_db


def test_a_dpo_creates_and_lists_client_companies(dpo):
    response = dpo.client.post(
        "/api/v1/client-companies", {"name": "Müller GmbH", "details": "Łódź"}, format="json"
    )
    assert response.status_code == 201
    created = response.json()
    assert set(created) == {"id", "name", "details", "createdAt"}
    assert created["createdAt"].endswith("Z")
    listing = dpo.client.get("/api/v1/client-companies").json()
    assert listing == {"clientCompanies": [created], "totalCount": 1, "hasMore": False}


def test_the_list_is_paginated_and_scoped(dpo, outsider):
    for _ in range(3):
        ClientCompanyFactory(organization=dpo.organization)
    ClientCompanyFactory(organization=outsider.organization)
    page = dpo.client.get("/api/v1/client-companies?limit=2").json()
    assert page["totalCount"] == 3
    assert page["hasMore"] is True
    assert len(page["clientCompanies"]) == 2


@pytest.mark.parametrize("limit", ["0", "101", "many"])
def test_an_out_of_range_limit_is_a_validation_error(dpo, limit):
    response = dpo.client.get(f"/api/v1/client-companies?limit={limit}")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"


def test_unprefixed_paths_behave_the_same(dpo):
    ClientCompanyFactory(organization=dpo.organization)
    assert dpo.client.get("/client-companies").json()["totalCount"] == 1


def test_a_missing_name_and_an_overlong_text_are_clear_errors(dpo):
    response = dpo.client.post("/api/v1/client-companies", {"details": "x"}, format="json")
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"
    assert "name" in response.json()["error"]["details"]
    response = dpo.client.post(
        "/api/v1/client-companies", {"name": "A", "details": "x" * 100_001}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "CONTENT_TOO_LONG"
