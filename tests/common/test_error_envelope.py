"""Every API error answers `{"error": {"message", "code", "details"}}`, never HTML."""

import pytest
from django.test import Client


def assert_envelope(response, status: int, code: str) -> dict:  # type: ignore[no-untyped-def]
    assert response.status_code == status
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"message", "code", "details"}
    assert body["error"]["code"] == code
    return body["error"]


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/v1/no-such-thing", "/legal-documents-typo/1", "/api/v1/"])
def test_an_unknown_api_url_is_a_404_envelope(client: Client, path: str):
    assert_envelope(client.get(path), 404, "NOT_FOUND")


@pytest.mark.django_db
def test_a_wrong_method_is_a_405_envelope(dpo):
    response = dpo.client.put("/api/v1/client-companies", {}, format="json")
    error = assert_envelope(response, 405, "METHOD_NOT_ALLOWED")
    assert "PUT" in error["message"]


@pytest.mark.django_db
@pytest.mark.urls("tests.common.urls_with_failures")
@pytest.mark.parametrize("path", ["/api/v1/test-failure", "/api/v1/test-plain-failure"])
@pytest.mark.parametrize("debug", [False, True])
def test_an_unexpected_error_is_a_500_envelope_without_a_stack_trace(settings, path, debug):
    settings.DEBUG = debug
    client = Client(raise_request_exception=False)
    response = client.get(path)
    assert_envelope(response, 500, "INTERNAL_ERROR")
    assert b"secret internal detail" not in response.content
    assert b"Traceback" not in response.content


@pytest.mark.django_db
def test_non_api_pages_keep_django_html(client: Client):
    response = client.get("/admin/login/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.django_db
def test_a_malformed_json_body_is_a_validation_error(dpo):
    response = dpo.client.post(
        "/api/v1/client-companies", data="{not json", content_type="application/json"
    )
    assert_envelope(response, 400, "VALIDATION_ERROR")


@pytest.mark.django_db
def test_the_openapi_schema_and_docs_are_served(client: Client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    assert "/api/v1/client-companies" in schema.json()["paths"]
    assert client.get("/api/docs/").status_code == 200


@pytest.mark.django_db
def test_an_oversized_json_body_is_413_not_500(dpo, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1024
    body = '{"name": "' + "x" * 4096 + '"}'
    response = dpo.client.post(
        "/api/v1/client-companies", data=body, content_type="application/json"
    )
    assert_envelope(response, 413, "FILE_TOO_LARGE")


@pytest.mark.django_db
def test_too_many_form_fields_is_a_validation_error(dpo, settings):
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 10
    fields = {f"field{n}": "x" for n in range(20)}
    response = dpo.client.post("/api/v1/client-companies", data=fields)
    assert_envelope(response, 400, "VALIDATION_ERROR")


@pytest.mark.django_db
def test_a_body_of_an_unaccepted_type_is_415_invalid_file_type(dpo):
    response = dpo.client.post("/api/v1/client-companies", data="x", content_type="text/plain")
    assert_envelope(response, 415, "INVALID_FILE_TYPE")
