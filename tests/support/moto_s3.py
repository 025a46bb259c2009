"""moto's S3 server on loopback, and the default storage pointed at it (no Docker in CI).

moto's server mode speaks the S3 protocol over HTTP, so boto3's requests, multipart uploads
and their aborts are exercised for real.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto.server import ThreadedMotoServer

CREDENTIALS = {"aws_access_key_id": "testing", "aws_secret_access_key": "testing"}
REGION = "us-east-1"


@pytest.fixture(scope="module")
def s3_endpoint() -> Iterator[str]:
    """A moto S3 server on a free loopback port, for the whole module."""
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0)
    server.start()
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()


def s3_client(endpoint: str, **credentials: str) -> Any:
    return boto3.client(
        "s3", endpoint_url=endpoint, region_name=REGION, **(credentials or CREDENTIALS)
    )


def use_s3_storage(settings: Any, *, endpoint: str, bucket: str, **credentials: str) -> None:
    """Switch the default storage to S3Storage on `endpoint` (as production settings do)."""
    credentials = credentials or CREDENTIALS
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {
                "bucket_name": bucket,
                "endpoint_url": endpoint,
                "access_key": credentials["aws_access_key_id"],
                "secret_key": credentials["aws_secret_access_key"],
                "region_name": REGION,
                "file_overwrite": False,
            },
        },
    }


def keys(client: Any, bucket: str, prefix: str = "") -> list[str]:
    listing = client.list_objects_v2(Bucket=bucket, Prefix=prefix)
    return sorted(item["Key"] for item in listing.get("Contents", []))
