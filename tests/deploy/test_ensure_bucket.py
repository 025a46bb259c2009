"""`manage.py ensure_bucket` (the compose one-shot `storage-init`) against moto's S3 server."""

from __future__ import annotations

import socket
import uuid

import httpx
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.support.moto_s3 import keys, s3_client, s3_endpoint, use_s3_storage

__all__ = ["s3_endpoint"]  # the fixture, imported for this module


def _bucket() -> str:
    return f"legaldocs-{uuid.uuid4().hex[:12]}"


def _run(*arguments: str) -> str:
    from io import StringIO

    out = StringIO()
    call_command("ensure_bucket", *arguments, stdout=out)
    return out.getvalue()


def test_it_creates_the_missing_bucket_through_the_storage_settings(settings, s3_endpoint):
    bucket = _bucket()
    use_s3_storage(settings, endpoint=s3_endpoint, bucket=bucket)

    output = _run()

    assert f"Bucket '{bucket}' at {s3_endpoint}: created (private)." in output
    client = s3_client(s3_endpoint)
    client.head_bucket(Bucket=bucket)
    assert keys(client, bucket) == []


def test_the_new_bucket_is_private(settings, s3_endpoint):
    bucket = _bucket()
    use_s3_storage(settings, endpoint=s3_endpoint, bucket=bucket)
    _run()
    client = s3_client(s3_endpoint)
    client.put_object(Bucket=bucket, Key="acme/assets/1/original.txt", Body=b"secret")

    anonymous = httpx.get(f"{s3_endpoint}/{bucket}/acme/assets/1/original.txt")

    assert anonymous.status_code == 403
    grantees = [grant["Grantee"] for grant in client.get_bucket_acl(Bucket=bucket)["Grants"]]
    assert [grantee["Type"] for grantee in grantees] == ["CanonicalUser"]  # the owner alone
    with pytest.raises(client.exceptions.ClientError, match="NoSuchBucketPolicy"):
        client.get_bucket_policy(Bucket=bucket)


def test_a_second_run_leaves_the_existing_bucket_and_its_objects(settings, s3_endpoint):
    bucket = _bucket()
    use_s3_storage(settings, endpoint=s3_endpoint, bucket=bucket)
    _run()
    client = s3_client(s3_endpoint)
    client.put_object(Bucket=bucket, Key="kept.txt", Body=b"kept")

    output = _run()

    assert f"Bucket '{bucket}' at {s3_endpoint}: exists." in output
    assert keys(client, bucket) == ["kept.txt"]


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_an_unreachable_server_fails_with_a_message_naming_the_endpoint(settings):
    endpoint = f"http://127.0.0.1:{_closed_port()}"
    use_s3_storage(settings, endpoint=endpoint, bucket="legaldocs")

    with pytest.raises(CommandError) as failure:
        _run("--wait", "1")

    message = str(failure.value)
    assert f"bucket 'legaldocs' at {endpoint}: cannot reach the S3 server" in message
    assert "AWS_S3_ENDPOINT_URL" in message


def test_without_a_bucket_setting_there_is_nothing_to_create(settings):
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    }

    assert "no bucket to create" in _run()
