"""The real S3 path (django-storages + boto3) against moto's S3 server on loopback.

No Docker engine in CI: moto's server mode speaks the S3 protocol over HTTP, so boto3's
requests, multipart uploads and signed URLs are exercised for real.
"""

from __future__ import annotations

from collections.abc import Iterator

import boto3
import httpx
import pytest
from moto.server import ThreadedMotoServer

from assets.models import AssetStatus
from tests.assets.conftest import process, upload
from tests.assets.samples import all_format_samples

BUCKET = "legaldocs-test"
CREDENTIALS = {"aws_access_key_id": "testing", "aws_secret_access_key": "testing"}
pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def s3_endpoint() -> Iterator[str]:
    """A moto S3 server on a free loopback port, for the whole module."""
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1", **CREDENTIALS)\
        .create_bucket(Bucket=BUCKET)  # fmt: skip
    yield endpoint
    server.stop()


@pytest.fixture
def s3(settings, s3_endpoint):  # type: ignore[no-untyped-def]
    """The default storage switched to S3Storage on the loopback server; returns a client."""
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {
                "bucket_name": BUCKET,
                "endpoint_url": s3_endpoint,
                "access_key": CREDENTIALS["aws_access_key_id"],
                "secret_key": CREDENTIALS["aws_secret_access_key"],
                "region_name": "us-east-1",
                "querystring_auth": True,
                "querystring_expire": 300,
                "file_overwrite": False,
            },
        },
    }
    return boto3.client("s3", endpoint_url=s3_endpoint, region_name="us-east-1", **CREDENTIALS)


def keys(client, prefix: str) -> list[str]:  # type: ignore[no-untyped-def]
    listing = client.list_objects_v2(Bucket=BUCKET, Prefix=prefix)
    return sorted(item["Key"] for item in listing.get("Contents", []))


def test_an_upload_is_stored_in_the_organizations_prefix_on_s3(s3, dpo):
    content = b"Stored on S3.\n"
    asset_id = upload(dpo.client, "notes.txt", content).json()["id"]

    prefix = f"{dpo.organization.container_name}/assets/{asset_id}/"
    assert keys(s3, prefix) == [f"{prefix}original.txt"]
    stored = s3.get_object(Bucket=BUCKET, Key=f"{prefix}original.txt")["Body"].read()
    assert stored == content


def test_a_workbook_on_s3_is_processed_and_its_csv_stored_beside_it(s3, dpo):
    asset_id = upload(dpo.client, "budget.xlsx", all_format_samples()["budget.xlsx"][0]).json()[
        "id"
    ]

    asset = process(asset_id)

    assert asset.status == AssetStatus.COMPLETED, asset.error_message
    prefix = f"{dpo.organization.container_name}/assets/{asset_id}/"
    assert keys(s3, prefix) == [f"{prefix}converted.csv", f"{prefix}original.xlsx"]
    csv = s3.get_object(Bucket=BUCKET, Key=f"{prefix}converted.csv")["Body"].read().decode()
    assert "## Sheet: Costs" in csv and "Hosting Zurich" in csv


def test_the_download_redirects_to_a_signed_url_that_serves_the_same_bytes(s3, dpo, outsider):
    content, _ = all_format_samples()["report.pdf"]
    asset_id = upload(dpo.client, "report.pdf", content).json()["id"]

    response = dpo.client.get(f"/api/v1/assets/{asset_id}/download")

    assert response.status_code == 302
    url = response["Location"]
    assert "X-Amz-Signature=" in url and "X-Amz-Expires=300" in url
    fetched = httpx.get(url)
    assert fetched.status_code == 200
    assert fetched.content == content
    assert "filename*=UTF-8''report.pdf" in fetched.headers["content-disposition"]
    unsigned = httpx.get(url.split("?", 1)[0])
    assert unsigned.status_code == 403
    assert outsider.client.get(f"/api/v1/assets/{asset_id}/download").status_code == 404


def test_deleting_an_asset_removes_its_objects_from_s3(s3, dpo, django_capture_on_commit_callbacks):
    asset_id = upload(dpo.client, "page.html", all_format_samples()["policy.html"][0]).json()["id"]
    process(asset_id)
    prefix = f"{dpo.organization.container_name}/assets/{asset_id}/"
    assert len(keys(s3, prefix)) == 2

    with django_capture_on_commit_callbacks(execute=True):
        assert dpo.client.delete(f"/api/v1/assets/{asset_id}").status_code == 204

    assert keys(s3, prefix) == []
