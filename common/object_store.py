"""The bucket behind the default storage: whether it exists, and creating it (private).

`manage.py ensure_bucket` (the compose one-shot `storage-init`) runs `ensure_bucket` before
any web process or worker starts, through the same django-storages settings as the
application, so that the bucket it creates is the one the application then writes to,
whatever S3 server is configured (SeaweedFS in compose, AWS S3 or another in production).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError
from django.core.files.storage import Storage, storages

# Error codes of HeadBucket (it has no body: the HTTP status is the code) meaning "absent".
_MISSING = {"404", "NoSuchBucket", "NotFound"}


class BucketError(RuntimeError):
    """The bucket could not be checked or created; the message says where and why."""


@dataclass(frozen=True)
class BucketTarget:
    name: str
    endpoint: str  # for messages: the configured endpoint, or AWS S3
    region: str | None
    client: Any  # a boto3 S3 client with the storage's credentials


def default_bucket(storage: Storage | None = None) -> BucketTarget | None:
    """The S3 bucket of the default storage, or None when files are kept on local disk."""
    storage = storages["default"] if storage is None else storage
    bucket_name = getattr(storage, "bucket_name", None)
    if not bucket_name:
        return None
    client = storage.connection.meta.client  # type: ignore[attr-defined]
    return BucketTarget(
        name=bucket_name,
        endpoint=getattr(storage, "endpoint_url", None) or "AWS S3",
        region=getattr(storage, "region_name", None),
        client=client,
    )


def ensure_bucket(target: BucketTarget, *, wait_seconds: float = 0) -> bool:
    """Create the bucket if it does not exist; True if it was created, False if it existed.

    Nothing is granted on a new bucket (no policy, no public ACL), so it is private: the
    application serves files through signed URLs or its own download route. Errors that
    may pass (the server still starting) are retried for `wait_seconds`.
    """
    deadline = time.monotonic() + wait_seconds
    while True:
        try:
            return _create_if_missing(target)
        except (BotoCoreError, ClientError) as error:
            if _is_final(error) or time.monotonic() >= deadline:
                raise BucketError(_explain(target, error)) from error
            time.sleep(1)


def _create_if_missing(target: BucketTarget) -> bool:
    try:
        target.client.head_bucket(Bucket=target.name)
        return False
    except ClientError as error:
        if _code(error) not in _MISSING:
            raise
    arguments: dict[str, Any] = {"Bucket": target.name}
    # AWS refuses a LocationConstraint of us-east-1 and needs one everywhere else.
    if target.region and target.region != "us-east-1":
        arguments["CreateBucketConfiguration"] = {"LocationConstraint": target.region}
    try:
        target.client.create_bucket(**arguments)
    except ClientError as error:
        # Another process created it in between: the result wanted.
        if _code(error) == "BucketAlreadyOwnedByYou":
            return False
        raise
    return True


def _code(error: ClientError) -> str:
    return str(error.response.get("Error", {}).get("Code", ""))


def _is_final(error: Exception) -> bool:
    """Wrong credentials or a name taken by someone else do not get better by waiting."""
    return isinstance(error, ClientError) and _code(error) in {
        "403", "AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch",
        "BucketAlreadyExists", "InvalidBucketName",
    }  # fmt: skip


def _explain(target: BucketTarget, error: Exception) -> str:
    where = f"bucket {target.name!r} at {target.endpoint}"
    if isinstance(error, ClientError):
        code = _code(error)
        if code in {"403", "AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch"}:
            return (
                f"{where}: access denied ({code}). Check AWS_ACCESS_KEY_ID and "
                f"AWS_SECRET_ACCESS_KEY against the S3 server's credentials."
            )
        if code == "BucketAlreadyExists":
            return f"{where}: the name belongs to another account; choose another bucket name."
        return f"{where}: the S3 server answered {code}: {error}"
    return f"{where}: cannot reach the S3 server ({error}). Check AWS_S3_ENDPOINT_URL."
