"""Requesting, building and opening inspection packages (`DocumentationPackage`).

A build is background work under the lease of common.background (legal_documents/work.py:
PACKAGE_BUILD): requested (queued, sent on commit), claimed by its task, ended by the
attempt holding the lease; the one sweeper sends again a build whose task was lost and fails
one that waited too long (STALE_PACKAGE_MESSAGE).
"""

from __future__ import annotations

import hashlib
import logging
import tempfile
from datetime import date
from typing import IO, Any

from django.conf import settings
from django.core.files import File
from django.core.files.storage import default_storage
from django.db import transaction
from django.utils import timezone

from audit.services import Actor, record_event
from common.background import leases, slots
from legal_documents.exceptions import PackageLimitReached, PackageNotReady
from legal_documents.models import DocumentationPackage, LegalDocument, PackageStatus, Status
from legal_documents.packages.builder import package_files, write_zip
from legal_documents.packages.index import filtered_documents
from legal_documents.work import PACKAGE_BUILD
from organizations.models import Organization

logger = logging.getLogger(__name__)

# Above this size the ZIP being written moves from memory to a temporary file.
_SPOOL_BYTES = 16 * 1024 * 1024
# A package the lease ends failed: it waited too long for a worker, or its workers were lost.
STALE_PACKAGE_MESSAGE = "The package could not be built in time; request a new one."


@transaction.atomic
def documentation_package_request(
    *,
    organization: Organization,
    actor: Actor,
    filters: dict[str, Any],
    rebuild_of: Any = None,
) -> DocumentationPackage:
    """Create a package in `processing` requested by `actor`, enqueue its build after commit.

    `filters`: optional `documentTypes` (list), `createdFrom` and `createdTo` (dates,
    inclusive), stored as JSON. Raises PACKAGE_LIMIT (429) while the organization already
    builds MAX_CONCURRENT_PACKAGE_BUILDS packages (builds share the `packages` workers of
    every organization). The build is queued under the lease: a broker that refuses its
    task is logged, never raised, and the one sweeper sends it again later.
    Records `package.create` (with `rebuildOf`, the package rebuilt, when given) in the
    same transaction, whether the API or the admin asked.
    """
    # The one slot claim: the organization's row lock makes the count and the insert one step.
    slots.claim_slot(
        owner=organization,
        running=DocumentationPackage.objects.filter(
            organization=organization, status=PackageStatus.PROCESSING
        ),
        limit=settings.MAX_CONCURRENT_PACKAGE_BUILDS,
        refuse=lambda running, limit: PackageLimitReached(running=running, limit=limit),
    )
    stored = {
        key: (value.isoformat() if isinstance(value, date) else value)
        for key, value in filters.items()
    }
    package = DocumentationPackage(
        organization=organization, requested_by_id=actor.user_id, filters=stored
    )
    leases.queue(PACKAGE_BUILD, package)
    details: dict[str, Any] = {"filters": package.filters}
    if rebuild_of is not None:
        details["rebuildOf"] = str(rebuild_of)
    record_event(
        organization=organization,
        actor=actor,
        action="package.create",
        object_type="package",
        object_id=package.pk,
        details=details,
    )
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


def documentation_package_build(
    *, package_id: str, token: str | None = None
) -> DocumentationPackage | None:
    """Build the ZIP of a `processing` package, store it and mark the package completed.

    Idempotent: a package that is no longer `processing` (a redelivered task) is left alone
    and None is returned. Exceptions propagate (the task decides between retrying and
    `documentation_package_fail`); nothing is marked completed unless the file was stored.
    `token`: the lease of the task's attempt; only its holder completes the package and ends
    the lease (None: run directly, any attempt).
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
        held = _held(package_id, token)
        if held is not None and held.status == PackageStatus.PROCESSING:
            held.status = PackageStatus.COMPLETED
            held.file_name = stored_name
            held.size_bytes = size
            held.sha256 = digest
            held.document_count = len(documents)
            held.completed_at = timezone.now()
            held.save(
                update_fields=[
                    "status", "file_name", "size_bytes", "sha256", "document_count",
                    "completed_at",
                ]
            )  # fmt: skip
            leases.finish(held)
        else:  # another attempt took the lease over (or ended the package): drop this file
            default_storage.delete(stored_name)
    package.refresh_from_db()
    return package


def _held(package_id: Any, token: str | None) -> DocumentationPackage | None:
    """The package locked, if the attempt `token` holds its lease (None: any attempt)."""
    if token is None:
        locked: DocumentationPackage | None = leases.locked(PACKAGE_BUILD, package_id)
        return locked
    held: DocumentationPackage | None = leases.holding(PACKAGE_BUILD, package_id, token)
    return held


def _sha256_of(stream: IO[bytes]) -> str:
    """SHA-256 of a stream from its current position; leaves it rewound to the start."""
    digest = hashlib.sha256()
    while chunk := stream.read(1024 * 1024):
        digest.update(chunk)
    stream.seek(0)
    return digest.hexdigest()


def documentation_package_fail(*, package_id: str, message: str) -> None:
    """Mark a package still `processing` as failed with `message` (shown as `error`), and end
    its lease (the task's final-failure hook: whichever attempt holds it)."""
    with transaction.atomic():
        package = _held(package_id, None)
        if package is None or package.status != PackageStatus.PROCESSING:
            return
        _record_failure(package, message)
        leases.finish(package)


def end_build_failed(package: DocumentationPackage, reason: str) -> None:
    """PACKAGE_BUILD's `end_failed`, on the locked package (the lease ends after it): it
    waited too long for a worker ("unsent") or its workers were lost ("interrupted")."""
    _record_failure(package, STALE_PACKAGE_MESSAGE)


def _record_failure(package: DocumentationPackage, message: str) -> None:
    package.status = PackageStatus.FAILED
    package.error = message[:2000]
    package.completed_at = timezone.now()
    package.save(update_fields=["status", "error", "completed_at"])


def documentation_package_open(package: DocumentationPackage) -> IO[bytes]:
    """The stored ZIP for reading; CONFLICT (409) until the package is completed."""
    if package.status != PackageStatus.COMPLETED or not package.file_name:
        raise PackageNotReady(f"The package is {package.status}; download it once it is completed.")
    return default_storage.open(package.file_name, "rb")
