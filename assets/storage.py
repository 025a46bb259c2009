"""Where asset files live: Django's default storage, one prefix per organization.

Keys are ``<container_name>/assets/<asset id>/original.<ext>`` and ``.../converted.<ext>``.
The storage is looked up on every call (``storages["default"]``), so a test can switch it
with ``override_settings(STORAGES=...)``. Local storage serves files through the
authenticated download route; S3 through short-lived signed URLs.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING

from django.conf import settings
from django.core.files import File
from django.core.files.storage import Storage, storages

from assets.exceptions import StorageUnavailable
from formats.kinds import FileKind
from formats.registry import conversion_target

if TYPE_CHECKING:
    from assets.models import Asset

logger = logging.getLogger(__name__)

COPY_BLOCK_BYTES = 1024 * 1024


def asset_storage() -> Storage:
    return storages["default"]


def asset_key(*, container_name: str, asset_id: object, role: str, extension: str) -> str:
    """The storage key of one of an asset's files (``role`` is "original" or "converted")."""
    return f"{container_name}/assets/{asset_id}/{role}{extension}"


def converted_key_of(asset: Asset, kind: FileKind) -> str:
    """The storage key of the converted file of ``asset`` (read as ``kind``); "" when its
    format is not converted (the format's registration says, formats.registry)."""
    target = conversion_target(kind)
    if target is None:
        return ""
    return asset_key(
        container_name=asset.organization.container_name,
        asset_id=asset.pk,
        role="converted",
        extension=f".{target}",
    )


def store_file(key: str, content: File | IO[bytes]) -> str:
    """Save ``content`` under ``key``; return the key the storage used.

    All or nothing: if the storage fails part way, whatever it wrote is deleted and
    StorageUnavailable is raised, so no partial file stays behind.
    """
    storage = asset_storage()
    try:
        # An UploadedFile goes as it is: local storage then moves its temporary file.
        file = content if isinstance(content, File) else File(content, name=Path(key).name)
        return storage.save(key, file)
    except Exception as error:
        logger.warning("storing %s failed: %s", key, error)
        delete_files([key], quiet=True)
        raise StorageUnavailable() from error


def delete_files(keys: list[str], *, quiet: bool = False) -> None:
    """Delete stored files (missing ones are fine). Raises the storage's error unless quiet."""
    storage = asset_storage()
    for key in keys:
        if not key:
            continue
        try:
            storage.delete(key)
        except Exception:
            if not quiet:
                raise
            logger.warning("could not delete stored file %s", key, exc_info=True)


@contextmanager
def local_copy(key: str, *, suffix: str = "") -> Iterator[Path]:
    """A path to the stored file on local disk for the duration of the block.

    Local storage: the file itself (read only, never modified). Remote storage: a temporary
    copy streamed in 1 MiB blocks, deleted afterwards.
    """
    storage = asset_storage()
    if is_local(storage):
        yield Path(storage.path(key))
        return
    with tempfile.TemporaryDirectory(dir=settings.FILE_UPLOAD_TEMP_DIR) as directory:
        path = Path(directory) / f"asset{suffix}"
        with storage.open(key, "rb") as source, path.open("wb") as target:
            shutil.copyfileobj(source, target, COPY_BLOCK_BYTES)
        yield path


def is_local(storage: Storage | None = None) -> bool:
    """True when the storage has local paths (files are served by the download route)."""
    try:
        (storage or asset_storage()).path("probe")
    except NotImplementedError:
        return False
    return True


def signed_download_url(key: str, *, file_name: str) -> str:
    """A short-lived URL of a remote file that downloads as ``file_name`` (S3 only)."""
    storage = asset_storage()
    disposition = f"attachment; filename*=UTF-8''{_rfc5987(file_name)}"
    return storage.url(  # type: ignore[call-arg]
        key,
        parameters={"ResponseContentDisposition": disposition},
        expire=settings.AWS_QUERYSTRING_EXPIRE,
    )


def _rfc5987(value: str) -> str:
    from urllib.parse import quote

    return quote(value, safe="")
