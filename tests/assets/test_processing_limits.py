"""An asset is never tried forever: a worker lost while reading the file fails it, and so
do too many attempts; a file over the extraction bounds fails alone (assets.ingestion)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings as django_settings

from assets import ingestion
from assets.models import Asset, AssetChunk, AssetStatus
from assets.work import MAX_PROCESSING_ATTEMPTS
from common.background.leases import LeaseHeldError
from tests.assets.bombs import (
    paragraph_flood_docx,
    shared_string_xlsx,
    vertical_merge_docx,
    xlsx_bytes_with_cells,
)
from tests.assets.conftest import attempt_started, process, stored_files, upload

pytestmark = pytest.mark.django_db


def abandon(asset_id: str, *, stage: str, ago: timedelta = timedelta(hours=2)) -> None:
    """As if the worker of the asset's attempt died at `stage`, long enough ago to take over."""
    attempt_started(asset_id, ago=ago, stage=stage)


def test_an_attempt_lost_while_reading_the_file_fails_the_asset_instead_of_a_retry(dpo):
    asset_id = upload(dpo.client, "notes.txt", b"Retention: six years.\n").json()["id"]
    abandon(asset_id, stage=ingestion.STAGE_EXTRACTING)

    assert ingestion.asset_process(asset_id=asset_id) is None

    asset = Asset.objects.get(pk=asset_id)
    assert asset.status == AssetStatus.FAILED
    assert asset.error_code == "EXTRACTION_FAILED"
    assert "stopped while reading it" in asset.error_message
    assert asset.attempts == 1
    body = dpo.client.get(f"/api/v1/assets/{asset_id}").json()
    assert body["status"] == "FAILED"


def test_a_redelivered_task_fails_an_asset_lost_while_being_read_without_waiting(dpo):
    asset_id = upload(dpo.client, "notes.txt", b"Retention: six years.\n").json()["id"]
    abandon(asset_id, stage=ingestion.STAGE_EXTRACTING, ago=timedelta(0))

    with pytest.raises(LeaseHeldError):  # it may still be reading
        ingestion.asset_process(asset_id=asset_id)
    assert ingestion.asset_process(asset_id=asset_id, redelivered=True) is None

    asset = Asset.objects.get(pk=asset_id)
    assert asset.status == AssetStatus.FAILED
    assert "stopped while reading it" in asset.error_message


def test_a_redelivered_task_still_waits_for_an_attempt_past_the_reading(dpo):
    asset_id = upload(dpo.client, "notes.txt", b"Retention: six years.\n").json()["id"]
    abandon(asset_id, stage=ingestion.STAGE_EMBEDDING, ago=timedelta(0))

    with pytest.raises(LeaseHeldError):
        ingestion.asset_process(asset_id=asset_id, redelivered=True)


def test_an_attempt_lost_after_the_file_was_read_is_taken_over(dpo):
    asset_id = upload(dpo.client, "notes.txt", b"Retention: six years.\n").json()["id"]
    abandon(asset_id, stage=ingestion.STAGE_EMBEDDING)

    asset = process(asset_id)

    assert asset.status == AssetStatus.COMPLETED
    assert asset.attempts == 2


def test_each_attempt_is_counted_and_the_last_allowed_one_is_the_last(dpo):
    asset_id = upload(dpo.client, "notes.txt", b"Retention: six years.\n").json()["id"]
    Asset.objects.filter(pk=asset_id).update(attempts=MAX_PROCESSING_ATTEMPTS)

    asset = process(asset_id)

    assert asset.status == AssetStatus.FAILED
    assert asset.error_code == "EXTRACTION_FAILED"
    assert f"tried {MAX_PROCESSING_ATTEMPTS} times" in asset.error_message


def test_a_completed_asset_records_one_attempt_and_no_stage_in_progress(dpo):
    asset_id = upload(dpo.client, "notes.txt", b"Retention: six years.\n").json()["id"]

    asset = process(asset_id)

    assert asset.status == AssetStatus.COMPLETED
    assert asset.attempts == 1
    assert asset.processing_stage == ""


def test_a_file_over_the_memory_bound_fails_as_extraction_failed(dpo, settings):
    settings.ASSET_EXTRACTION_MEMORY_LIMIT_MB = 192
    response = upload(dpo.client, "flood.docx", paragraph_flood_docx(300_000))
    assert response.status_code == 201, response.content

    asset = process(response.json()["id"])

    assert asset.status == AssetStatus.FAILED
    assert asset.error_code == "EXTRACTION_FAILED"
    assert "more than 192 MiB of memory" in asset.error_message


def test_a_sheet_over_the_cell_bound_fails_as_conversion_failed(dpo, settings):
    settings.ASSET_XLSX_MAX_CELLS_PER_SHEET = 99
    cells = {f"A{row}": f"entry {row}" for row in range(1, 101)}
    response = upload(dpo.client, "register.xlsx", xlsx_bytes_with_cells(cells))
    assert response.status_code == 201, response.content

    asset = process(response.json()["id"])

    assert asset.status == AssetStatus.FAILED
    assert asset.error_code == "CONVERSION_FAILED"
    assert asset.error_details == {"originalFormat": "xlsx", "targetFormat": "csv"}
    assert "more than 99 non-empty cells" in asset.error_message


def _temporary_files() -> set[Path]:
    return {
        path for path in Path(django_settings.FILE_UPLOAD_TEMP_DIR).rglob("*") if path.is_file()
    }


def test_an_asset_whose_text_passes_the_character_cap_fails_and_leaves_no_file(dpo, settings):
    settings.ASSET_EXTRACTED_MAX_CHARS = 200_000
    # 100 x 10 cells of one 2,000-character shared string: 2 million characters of CSV.
    response = upload(
        dpo.client, "amplified.xlsx", shared_string_xlsx(rows=100, columns=10, string_length=2000)
    )
    assert response.status_code == 201, response.content
    temporary_before = _temporary_files()

    asset = process(response.json()["id"])

    assert asset.status == AssetStatus.FAILED
    assert asset.error_code == "CONVERSION_FAILED"
    assert "longer than 200,000 characters" in asset.error_message
    assert asset.chunk_count == 0 and not AssetChunk.objects.filter(asset=asset).exists()
    assert asset.converted_file.name in ("", None)
    assert _temporary_files() <= temporary_before
    assert stored_files(dpo.organization) == [
        Path(django_settings.MEDIA_ROOT) / asset.original_file.name
    ]
    body = dpo.client.get(f"/api/v1/assets/{asset.pk}").json()
    assert body["status"] == "FAILED"


def test_the_character_cap_is_a_multiple_of_the_file_size(dpo, settings):
    settings.ASSET_EXTRACTED_MAX_CHARS = 100_000_000
    content = shared_string_xlsx(rows=20, columns=10, string_length=2000)  # 400,000 characters
    assert len(content) * 20 < 400_000 < len(content) * 1000

    settings.ASSET_EXTRACTED_MAX_RATIO = 20
    refused = process(upload(dpo.client, "amplified.xlsx", content).json()["id"])
    settings.ASSET_EXTRACTED_MAX_RATIO = 1000
    accepted = process(upload(dpo.client, "amplified.xlsx", content).json()["id"])

    assert refused.status == AssetStatus.FAILED
    assert f"longer than {20 * len(content):,} characters" in refused.error_message
    assert accepted.status == AssetStatus.COMPLETED


def test_a_docx_of_one_vertically_merged_cell_keeps_its_text_once(dpo, settings):
    settings.ASSET_EXTRACTED_MAX_CHARS = 1_000_000
    # Repeated on its 2,000 continuation rows the cell would make 20 million characters.
    content = vertical_merge_docx(rows=2000, text_length=10_000)

    asset = process(upload(dpo.client, "vmerge.docx", content).json()["id"])

    assert asset.status == AssetStatus.COMPLETED, asset.error_message
    stored = sum(
        len(text) for text in AssetChunk.objects.filter(asset=asset).values_list("text", flat=True)
    )
    assert 10_000 <= stored < 15_000  # the text once, and the chunks' overlap


def test_a_worker_pool_process_is_replaced_once_it_grew_past_the_memory_setting():
    from config.celery import app as celery_app

    assert celery_app.conf.worker_max_memory_per_child == 1536 * 1024  # KiB
