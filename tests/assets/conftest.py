"""Fixtures of the assets tests: uploads through the API, processing in-process."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from rest_framework.response import Response

from assets.ingestion import asset_process
from assets.models import Asset, AssetStatus
from assets.progress import STAGE_EMBEDDING
from assets.work import lease_seconds
from common.background.fields import LeaseState

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


def attempt_started(
    asset_id: str, *, ago: timedelta, stage: str = STAGE_EMBEDDING, **changes: Any
) -> None:
    """The asset as an attempt that started ``ago`` left it (PROCESSING at ``stage``, one
    attempt), holding the lease of its processing for its budget and grace (assets.work)."""
    Asset.objects.filter(pk=asset_id).update(
        status=AssetStatus.PROCESSING, processing_stage=stage, attempts=1, **changes
    )
    started = timezone.now() - ago
    expires = started + timedelta(seconds=lease_seconds(Asset.objects.get(pk=asset_id)))
    Asset.objects.filter(pk=asset_id).update(
        processing_started_at=started,
        lease_state=LeaseState.LEASED,
        lease_token=uuid.uuid4(),
        lease_expires_at=expires,
    )


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
