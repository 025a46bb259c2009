"""The upload and find responses, field for field (docs/SEED.md "Asset (upload response)" and
"Asset (find response)"), and the URLs they hand out."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from assets.models import Asset
from tests.assets.conftest import process, upload
from tests.assets.samples import all_format_samples

pytestmark = pytest.mark.django_db
SAMPLES = all_format_samples()
STATUSES = {"UPLOADED", "PROCESSING", "COMPLETED", "FAILED"}
# The seed's automatic conversions: XLSX to CSV, HTML to plain text; no other format.
CONVERTED_NAMES = {"budget.xlsx": "budget.csv", "policy.html": "policy.txt"}
UPLOAD_FIELDS = {
    "id", "originalFileUrl", "originalFileName", "status", "containerName", "organizationId",
    "dpoUserId",
}  # fmt: skip
FIND_FIELDS = {"id", "originalFileUrl", "originalFileName", "status", "containerName"}
CONVERTED_FIELDS = {"convertedFileUrl", "convertedFileName"}


def assert_absolute_url(value: object) -> None:
    assert isinstance(value, str)
    parts = urlsplit(value)
    assert parts.scheme in {"http", "https"} and parts.netloc, value


def assert_common_fields(body: dict, *, asset_id: str, name: str, organization) -> None:  # type: ignore[no-untyped-def]
    assert body["id"] == asset_id
    assert_absolute_url(body["originalFileUrl"])
    assert body["originalFileName"] == name
    assert body["status"] in STATUSES
    assert isinstance(body["containerName"], str)
    assert body["containerName"] == organization.container_name


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_the_upload_response_has_every_field_of_the_seed(dpo, name):
    response = upload(dpo.client, name, SAMPLES[name][0])

    assert response.status_code == 201, response.content
    body = response.json()
    assert set(body) >= UPLOAD_FIELDS
    assert_common_fields(body, asset_id=body["id"], name=name, organization=dpo.organization)
    assert body["organizationId"] == str(dpo.organization.pk)
    assert body["dpoUserId"] == str(dpo.membership.user.pk)
    # Nothing is converted before the worker has run.
    assert not CONVERTED_FIELDS & set(body)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_the_find_response_has_the_seeds_fields_and_the_conversion_once_completed(dpo, name):
    asset_id = upload(dpo.client, name, SAMPLES[name][0]).json()["id"]
    process(asset_id)

    body = dpo.client.get(f"/api/v1/assets/{asset_id}").json()

    assert set(body) >= FIND_FIELDS
    assert not {"organizationId", "dpoUserId"} & set(body)
    assert_common_fields(body, asset_id=asset_id, name=name, organization=dpo.organization)
    assert body["status"] == "COMPLETED"
    assert {"error", "chunkCount"} <= set(body)  # the extras stay
    if name in CONVERTED_NAMES:
        assert_absolute_url(body["convertedFileUrl"])
        assert body["convertedFileName"] == CONVERTED_NAMES[name]
    else:
        assert not CONVERTED_FIELDS & set(body)


@pytest.mark.parametrize("name", sorted(CONVERTED_NAMES))
def test_a_duplicate_upload_answers_the_upload_shape_with_the_conversion(dpo, name):
    content = SAMPLES[name][0]
    first = upload(dpo.client, name, content).json()
    process(first["id"])

    again = upload(dpo.client, f"again-{name}", content)

    assert again.status_code == 201
    body = again.json()
    assert body["duplicate"] is True
    assert set(body) >= UPLOAD_FIELDS | CONVERTED_FIELDS
    assert body["organizationId"] == str(dpo.organization.pk)
    assert body["dpoUserId"] == str(dpo.membership.user.pk)
    assert body["convertedFileName"] == CONVERTED_NAMES[name]
    assert body["originalFileUrl"] == first["originalFileUrl"]


def test_the_list_items_have_the_find_shape(dpo):
    upload(dpo.client, "notes.txt", SAMPLES["notes.txt"][0])
    workbook = upload(dpo.client, "budget.xlsx", SAMPLES["budget.xlsx"][0]).json()["id"]
    process(workbook)
    found = dpo.client.get(f"/api/v1/assets/{workbook}").json()

    items = {item["id"]: item for item in dpo.client.get("/api/v1/assets").json()["assets"]}

    assert items[workbook] == found
    for item in items.values():
        assert set(item) >= FIND_FIELDS
        assert not {"organizationId", "dpoUserId"} & set(item)


def _download(client, url: str) -> tuple[int, bytes]:  # type: ignore[no-untyped-def]
    response = client.get(url)
    if response.status_code != 200:
        return response.status_code, b""
    return 200, b"".join(response.streaming_content)


@pytest.mark.parametrize("name", ["budget.xlsx", "policy.html", "report.pdf"])
def test_the_urls_download_the_files_for_the_organization_only(dpo, outsider, name):
    content = SAMPLES[name][0]
    uploaded = upload(dpo.client, name, content).json()
    asset = process(uploaded["id"])
    found = dpo.client.get(f"/api/v1/assets/{asset.pk}").json()

    assert found["originalFileUrl"] == uploaded["originalFileUrl"]
    assert urlsplit(found["originalFileUrl"]).path.startswith("/api/v1/assets/")
    assert _download(dpo.client, found["originalFileUrl"]) == (200, content)
    assert _download(outsider.client, found["originalFileUrl"])[0] == 404
    if name in CONVERTED_NAMES:
        with asset.converted_file.open("rb") as stored:
            converted = stored.read()
        assert converted
        assert _download(dpo.client, found["convertedFileUrl"]) == (200, converted)
        assert _download(outsider.client, found["convertedFileUrl"])[0] == 404


def test_the_urls_need_credentials(dpo, anonymous):
    asset_id = upload(dpo.client, "notes.txt", SAMPLES["notes.txt"][0]).json()["id"]
    url = dpo.client.get(f"/api/v1/assets/{asset_id}").json()["originalFileUrl"]

    assert anonymous.get(url).status_code == 401
    assert Asset.objects.filter(pk=asset_id).exists()


def test_the_openapi_schema_declares_both_shapes(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    components = schema["components"]["schemas"]
    upload_operation = schema["paths"]["/api/v1/assets/upload"]["post"]
    upload_ref = upload_operation["responses"]["201"]["content"]["application/json"]["schema"]
    find_operation = schema["paths"]["/api/v1/assets/{id}"]["get"]
    find_ref = find_operation["responses"]["200"]["content"]["application/json"]["schema"]
    upload_shape = components[upload_ref["$ref"].rsplit("/", 1)[1]]
    find_shape = components[find_ref["$ref"].rsplit("/", 1)[1]]

    assert set(upload_shape["properties"]) >= UPLOAD_FIELDS | CONVERTED_FIELDS
    assert set(upload_shape["required"]) >= UPLOAD_FIELDS
    assert not CONVERTED_FIELDS & set(upload_shape["required"])
    assert set(find_shape["properties"]) >= FIND_FIELDS | CONVERTED_FIELDS
    assert set(find_shape["required"]) >= FIND_FIELDS
    assert not CONVERTED_FIELDS & set(find_shape["required"])
    assert not {"organizationId", "dpoUserId"} & set(find_shape["properties"])
    for field in ("organizationId", "dpoUserId", "containerName", "originalFileUrl"):
        assert upload_shape["properties"][field]["type"] == "string"
