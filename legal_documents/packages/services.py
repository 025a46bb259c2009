"""Requesting, building and opening inspection packages (`DocumentationPackage`)."""

from __future__ import annotations

import hashlib
import logging
import tempfile
from datetime import date
from typing import IO, Any

from django.core.files import File
from django.core.files.storage import default_storage
from django.db import transaction
from django.utils import timezone

from common.errors import ApiError
from legal_documents.models import DocumentationPackage, LegalDocument, PackageStatus, Status
from legal_documents.packages.builder import package_files, write_zip
from legal_documents.packages.index import filtered_documents
from organizations.models import Organization

logger = logging.getLogger(__name__)

# Above this size the ZIP being written moves from memory to a temporary file.
_SPOOL_BYTES = 16 * 1024 * 1024


def _enqueue_build(package_id: str) -> None:
    from legal_documents.tasks import build_documentation_package_task

    build_documentation_package_task.delay(package_id)


@transaction.atomic
def documentation_package_request(
    *, organization: Organization, user_id: int | None, filters: dict[str, Any]
) -> DocumentationPackage:
    """Create a package in `processing` and enqueue its build after commit.

    `filters`: optional `documentTypes` (list), `createdFrom` and `createdTo` (dates,
    inclusive), stored as JSON.
    """
    stored = {
        key: (value.isoformat() if isinstance(value, date) else value)
        for key, value in filters.items()
    }
    package = DocumentationPackage.objects.create(
        organization=organization, requested_by_id=user_id, filters=stored
    )
    package_id = str(package.pk)
    transaction.on_commit(lambda: _enqueue_build(package_id))
    return package


def packaged_documents(package: DocumentationPackage) -> list[LegalDocument]:
    """The completed documents of the package's organization that match its filters."""
    queryset = LegalDocument.objects.filter(
        organization_id=package.organization_id, status=Status.COMPLETED, version__gt=0
    ).select_related("organization")
    filters = package.filters or {}
    return list(
        filtered_documents(
            queryset,
            document_types=filters.get("documentTypes"),
            created_from=_date(filters.get("createdFrom")),
            created_to=_date(filters.get("createdTo")),
        )
    )


def _date(value: str | None) -> date | None:
    return date.fromisoformat(value) if value else None


def storage_name(package: DocumentationPackage) -> str:
    """Under the organization's container, so the files of organizations never mix."""
    return f"{package.organization.container_name}/packages/{package.pk}.zip"


def documentation_package_build(*, package_id: str) -> DocumentationPackage | None:
    """Build the ZIP of a `processing` package, store it and mark the package completed.

    Idempotent: a package that is no longer `processing` (a redelivered task) is left alone
    and None is returned. Exceptions propagate (the task decides between retrying and
    `documentation_package_fail`); nothing is marked completed unless the file was stored.
    """
    package = (
        DocumentationPackage.objects.select_related("organization")
        .filter(pk=package_id, status=PackageStatus.PROCESSING)
        .first()
    )
    if package is None:
        logger.info("package %s is not processing; build skipped", package_id)
        return None
    documents = packaged_documents(package)
    files = package_files(package, documents)
    with tempfile.SpooledTemporaryFile(max_size=_SPOOL_BYTES) as buffer:
        write_zip(files, buffer)
        size = buffer.tell()
        buffer.seek(0)
        digest = _sha256_of(buffer)
        stored_name = default_storage.save(storage_name(package), File(buffer))
    with transaction.atomic():
        updated = DocumentationPackage.objects.filter(
            pk=package.pk, status=PackageStatus.PROCESSING
        ).update(
            status=PackageStatus.COMPLETED,
            file_name=stored_name,
            size_bytes=size,
            sha256=digest,
            document_count=len(documents),
            completed_at=timezone.now(),
        )
    if not updated:  # built twice concurrently: keep the first file, drop this one
        default_storage.delete(stored_name)
    package.refresh_from_db()
    return package


def _sha256_of(stream: IO[bytes]) -> str:
    """SHA-256 of a stream from its current position; leaves it rewound to the start."""
    digest = hashlib.sha256()
    while chunk := stream.read(1024 * 1024):
        digest.update(chunk)
    stream.seek(0)
    return digest.hexdigest()


def documentation_package_fail(*, package_id: str, message: str) -> None:
    """Mark a package still `processing` as failed with `message` (shown as `error`)."""
    DocumentationPackage.objects.filter(pk=package_id, status=PackageStatus.PROCESSING).update(
        status=PackageStatus.FAILED, error=message[:2000], completed_at=timezone.now()
    )


def documentation_package_open(package: DocumentationPackage) -> IO[bytes]:
    """The stored ZIP for reading; CONFLICT (409) until the package is completed."""
    if package.status != PackageStatus.COMPLETED or not package.file_name:
        raise ApiError(
            "CONFLICT",
            f"The package is {package.status}; download it once it is completed.",
            status_code=409,
        )
    return default_storage.open(package.file_name, "rb")
