"""The asset change page's progress bar: rendered from the asset, refreshed by a static
script polling the find response with the admin session (no inline script)."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from assets.models import Asset, AssetStatus
from tests.admin.conftest import staff

pytestmark = pytest.mark.django_db


def test_a_processing_assets_page_shows_its_progress_and_the_api_answers_the_session(dpo, settings):
    settings.RATE_LIMIT_WRITES = "10000/min"
    file = SimpleUploadedFile("notes.txt", b"Notes of the DPO.\n" * 200, content_type="text/plain")
    asset_id = dpo.client.post("/api/v1/assets/upload", {"file": file}, format="multipart").json()[
        "id"
    ]
    Asset.objects.filter(pk=asset_id).update(
        status=AssetStatus.PROCESSING, processing_stage="embedding", progress_chunks_done=2,
        progress_chunks_total=4,
    )  # fmt: skip
    member = staff(dpo)

    html = member.client.get(reverse("admin:assets_asset_change", args=[asset_id])).content.decode()

    api_url = reverse("asset-detail", kwargs={"pk": asset_id})
    panel = re.search(r'<div id="asset-progress"[^>]*>.*?</div>', html, re.S)
    assert panel, html
    assert f'data-url="{api_url}"' in panel.group(0)
    assert 'data-status="PROCESSING"' in panel.group(0)
    assert '<progress max="100" value="50">' in panel.group(0)
    assert "embedding: 2 chunks" in panel.group(0)
    assert re.search(r'<script src="[^"]*assets/admin/asset_progress\.js"', html)
    assert [tag for tag in re.findall(r"<script\b[^>]*>", html) if "src=" not in tag] == []
    assert finders.find("assets/admin/asset_progress.js")

    # What the script reads: the find response, with the admin's session cookie.
    body = member.client.get(api_url, HTTP_ACCEPT="application/json").json()
    assert body["progress"]["chunksDone"] == 2 and body["progress"]["percent"] == 50
