"""Writing assets: upload (validate, dedupe, store, enqueue) and delete.

Processing (convert, extract, chunk, embed) is in ``assets.ingestion``; reads in
``assets.selectors``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any

from django.core.files.uploadedfile import UploadedFile
from django.db import IntegrityError, transaction

from assets.exceptions import UnsupportedFileType
from assets.models import Asset, AssetChunk, AssetStatus
from assets.processing import FileKind, InvalidFileType, detect_file_type, sha256_of_file
from assets.storage import (
    asset_key,
    asset_storage,
    converted_key_of,
    delete_files,
    store_file,
)
from assets.uploads import sanitize_file_name
from assets.work import ASSET_PROCESSING
from common.background import leases
from organizations.models import Organization

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class UploadResult:
    """The stored asset, and whether it already existed (same content, same organization)."""

    asset: Asset
    duplicate: bool


def _enqueue_file_deletion(keys: list[str]) -> None:
    from assets.tasks import delete_asset_files_task

    delete_asset_files_task.delay(keys)


def uploaded_file_path(uploaded: UploadedFile) -> Path:
    """The on-disk path of an upload (the upload handler always writes to disk)."""
    path = getattr(uploaded, "temporary_file_path", None)
    if path is None:  # only possible with a custom FILE_UPLOAD_HANDLERS setting
        raise RuntimeError("uploads must be received by BoundedTemporaryFileUploadHandler")
    return Path(path())


def asset_upload(
    *, organization: Organization, uploader: Any, uploaded: UploadedFile
) -> UploadResult:
    """Validate an uploaded file, store it and enqueue its processing.

    Contract: the type is detected from the content and must agree with the declared name
    and media type, else UnsupportedFileType (415 INVALID_FILE_TYPE). Content already
    uploaded to the organization (same SHA-256) returns the existing asset with
    ``duplicate=True``; nothing is stored or processed again, unless that asset is FAILED
    or its stored original is gone: then the upload restores the original if needed and
    the same asset is processed again (back to UPLOADED, error cleared). Otherwise the file
    is stored under the organization's prefix, the row is created (status UPLOADED) and its
    processing queued (``assets.work``: ``process_asset_task`` is sent after commit).

    Nothing lost, nothing orphaned: if the storage fails (StorageUnavailable, 503) no row is
    created and no partial file stays; if the row cannot be created the stored file is
    deleted before the error propagates. Once the row is committed the upload stands: a
    failed enqueue (broker down) is logged, and the sweeper of background work sends the
    task again within minutes (common.background).
    """
    path = uploaded_file_path(uploaded)
    name = sanitize_file_name(uploaded.name)
    try:
        kind = detect_file_type(
            path, declared_name=name, declared_content_type=uploaded.content_type
        )
    except InvalidFileType as error:
        raise UnsupportedFileType(error.message) from error
    sha256 = sha256_of_file(path)
    size = path.stat().st_size

    existing = (
        Asset.objects.select_related("organization")
        .filter(organization=organization, sha256=sha256)
        .first()
    )
    if existing is not None:
        return UploadResult(_reprocess_if_broken(existing, uploaded), duplicate=True)

    asset = Asset(
        organization=organization,
        uploader=uploader,
        original_file_name=name,
        file_size=size,
        sha256=sha256,
        media_type=kind.media_type,
    )
    extension = PurePath(name).suffix.lower() or f".{kind.value}"
    key = asset_key(
        container_name=organization.container_name,
        asset_id=asset.id,
        role="original",
        extension=extension,
    )
    asset.original_file.name = store_file(key, uploaded)
    try:
        with transaction.atomic():
            # Saves the new row, queued; its task is sent once the upload commits.
            leases.queue(ASSET_PROCESSING, asset)
    except IntegrityError:
        # Another request stored the same content first: keep theirs, drop ours.
        delete_files([asset.original_file.name], quiet=True)
        winner = Asset.objects.filter(organization=organization, sha256=sha256).first()
        if winner is None:
            raise
        return UploadResult(winner, duplicate=True)
    except BaseException:
        delete_files([asset.original_file.name], quiet=True)
        raise
    return UploadResult(asset, duplicate=False)


def _reprocess_if_broken(existing: Asset, uploaded: UploadedFile) -> Asset:
    """The existing asset of an upload's content, processed again if it cannot be used.

    A stored original that is missing is stored again from this upload (the same bytes).
    A FAILED asset, or one not yet COMPLETED whose original was missing, goes back to
    UPLOADED with its error cleared and is enqueued again; an attempt still running on it
    is superseded. When a concurrent request changed the asset first, it is left to that one.
    """
    original_key = existing.original_file.name
    original_missing = not asset_storage().exists(original_key)
    if existing.status != AssetStatus.FAILED and not original_missing:
        return existing
    if original_missing:
        restored = store_file(original_key, uploaded)
        if restored != original_key:  # a concurrent upload restored it first: keep theirs
            delete_files([restored], quiet=True)
    with transaction.atomic():
        asset = Asset.objects.select_for_update().filter(pk=existing.pk).first()
        if (
            asset is None
            or asset.updated_at != existing.updated_at  # changed meanwhile by someone else
            or asset.status == AssetStatus.COMPLETED
        ):
            return asset or existing
        asset.status = AssetStatus.UPLOADED
        asset.error_code = ""
        asset.error_message = ""
        asset.error_details = None
        asset.chunk_count = 0
        asset.processing_started_at = None
        asset.completed_at = None
        asset.save()
        # A fresh lease token: supersedes an attempt still running (ingestion.py).
        leases.queue(ASSET_PROCESSING, asset)
    logger.info("asset %s is processed again after a duplicate upload", asset.pk)
    return asset


def asset_delete(*, asset: Asset) -> None:
    """Delete the asset, its chunks and vectors in one transaction, then its files.

    The row is locked and read again first, so a converted file recorded meanwhile is
    deleted too; the converted file's key is deleted even when the row does not name it
    (an attempt still running may have stored it). The files are deleted after commit (a
    rolled-back delete keeps them); if the storage fails then, ``delete_asset_files_task``
    retries until it succeeds, so no file outlives its row for good.
    """
    with transaction.atomic():
        current = (
            Asset.objects.select_for_update(of=("self",))
            .select_related("organization")
            .filter(pk=asset.pk)
            .first()
        )
        if current is None:
            return
        keys = stored_keys_of(current)
        # Chunks first: one fast DELETE (no dependants), rather than the cascade's batches.
        AssetChunk.objects.filter(asset_id=asset.pk).delete()
        Asset.objects.filter(pk=asset.pk).delete()
        transaction.on_commit(lambda: _delete_files_now_or_later(keys), robust=True)


def stored_keys_of(asset: Asset) -> list[str]:
    """Every storage key an asset's files may have: the original and the converted file."""
    keys = [asset.original_file.name, asset.converted_file.name]
    if asset.file_format != "unknown":
        keys.append(converted_key_of(asset, FileKind(asset.file_format)))
    return sorted({key for key in keys if key})


def _delete_files_now_or_later(keys: list[str]) -> None:
    try:
        delete_files(keys)
    except Exception:
        logger.warning("deleting files %s failed; a task will retry", keys, exc_info=True)
        _enqueue_file_deletion(keys)
