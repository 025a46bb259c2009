"""Fixtures of the assets tests: uploads through the API, processing in-process."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.response import Response

from assets.ingestion import asset_process
from assets.models import Asset

UPLOAD_URL = "/api/v1/assets/upload"


@pytest.fixture(autouse=True)
def _generous_write_limit(settings) -> None:  # type: ignore[no-untyped-def]
    """Uploads are writes (10 a minute by default); these tests upload many files."""
    settings.RATE_LIMIT_WRITES = "10000/min"


def upload(client, name: str, content: bytes, content_type: str | None = None) -> Response:  # type: ignore[no-untyped-def]
    """POST one file as the multipart part `file`."""
    file = SimpleUploadedFile(
        name, content, content_type=content_type or "application/octet-stream"
    )
    return client.post(UPLOAD_URL, {"file": file}, format="multipart")


def process(asset_id: str) -> Asset:
    """Run the processing task's work in-process (the worker path has its own e2e test)."""
    asset_process(asset_id=asset_id)
    return Asset.objects.get(pk=asset_id)


def stored_files(organization) -> list[Path]:  # type: ignore[no-untyped-def]
    """Every file in the organization's local storage prefix."""
    root = Path(settings.MEDIA_ROOT) / organization.container_name
    return sorted(path for path in root.rglob("*") if path.is_file()) if root.exists() else []


@pytest.fixture
def uploaded(dpo) -> Callable[..., Asset]:  # type: ignore[no-untyped-def]
    """Upload a file as `dpo` and process it: returns the asset."""

    def _upload(name: str, content: bytes) -> Asset:
        response = upload(dpo.client, name, content)
        assert response.status_code == 201, response.content
        return process(response.json()["id"])

    return _upload
