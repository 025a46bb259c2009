"""Requesting, building and opening inspection packages (`DocumentationPackage`)."""

from __future__ import annotations

import hashlib
import logging
import tempfile
from dataclasses import dataclass
from datetime import date, timedelta
from typing import IO, Any

from django.conf import settings
from django.core.cache import cache
from django.core.files import File
from django.core.files.storage import default_storage
from django.db import transaction
from django.utils import timezone

from audit.services import Actor, record_event
from legal_documents.exceptions import PackageLimitReached, PackageNotReady
from legal_documents.models import DocumentationPackage, LegalDocument, PackageStatus, Status
from legal_documents.packages.builder import package_files, write_zip
from legal_documents.packages.index import filtered_documents
from organizations.models import Organization

logger = logging.getLogger(__name__)

# Above this size the ZIP being written moves from memory to a temporary file.
_SPOOL_BYTES = 16 * 1024 * 1024
# A build normally starts within seconds of the request. A package still processing this
# long after it, with no build under way, lost its task (broker down at request time, the
# message or the worker lost) and is enqueued again by the sweep.
REQUEUE_AFTER = timedelta(minutes=5)
# How long a started build keeps the sweep from enqueueing the package again.
BUILD_UNDER_WAY_SECONDS = 600
# A package still processing this long after its request is failed by the sweep.
FAIL_AFTER = timedelta(minutes=30)
STALE_PACKAGE_MESSAGE = "The package could not be built in time; request a new one."


def _enqueue_build(package_id: str) -> None:
    from legal_documents.tasks import build_documentation_package_task

    build_documentation_package_task.delay(package_id)


def _build_marker(package_id: Any) -> str:
    return f"documentation-package:{package_id}:build"


def claim_package_build_slot(organization: Organization) -> None:
    """Raise PACKAGE_LIMIT (429) when the organization already builds its maximum of packages.

    The same claim as generation's (legal_documents/services/jobs.py): inside the transaction
    that creates the `processing` package, the organization's row lock makes the count and
    the claim one step, so concurrent requests cannot all pass the count.
    """
    # no_key: audit inserts of the organization take a KEY SHARE lock on its row.
    Organization.objects.select_for_update(no_key=True).filter(pk=organization.pk).first()
    running = DocumentationPackage.objects.filter(
        organization=organization, status=PackageStatus.PROCESSING
    ).count()
    limit = settings.MAX_CONCURRENT_PACKAGE_BUILDS
    if running >= limit:
        raise PackageLimitReached(running=running, limit=limit)


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
    every organization). A failed enqueue (broker down) is logged, never raised: the
    package is committed and `documentation_packages_sweep` enqueues it again later.
    Records `package.create` (with `rebuildOf`, the package rebuilt, when given) in the
    same transaction, whether the API or the admin asked.
    """
    claim_package_build_slot(organization)
    stored = {
        key: (value.isoformat() if isinstance(value, date) else value)
        for key, value in filters.items()
    }
    package = DocumentationPackage.objects.create(
        organization=organization, requested_by_id=actor.user_id, filters=stored
    )
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
    package_id = str(package.pk)
    transaction.on_commit(lambda: _enqueue_build(package_id), robust=True)
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
    _note_build_under_way(package_id)
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


def _note_build_under_way(package_id: Any) -> None:
    try:
        cache.set(_build_marker(package_id), "building", timeout=BUILD_UNDER_WAY_SECONDS)
    except Exception:  # the marker only spares a duplicate build; never fail this one for it
        logger.warning("could not note the build of package %s", package_id, exc_info=True)


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


@dataclass(frozen=True, slots=True)
class PackageSweep:
    """What one sweep did: packages enqueued again, and packages failed."""

    requeued: int
    failed: int


def documentation_packages_sweep() -> PackageSweep:
    """Recover packages left `processing` by a lost enqueue, message or worker.

    Packages still processing `FAIL_AFTER` after their request are failed with
    `STALE_PACKAGE_MESSAGE`. Those processing for `REQUEUE_AFTER` with no build started in
    the last `BUILD_UNDER_WAY_SECONDS` are enqueued again (the build is idempotent), each
    at most once per `REQUEUE_AFTER`. An enqueue that fails (broker down) is logged and
    tried again by a later sweep.
    """
    now = timezone.now()
    failed = DocumentationPackage.objects.filter(
        status=PackageStatus.PROCESSING, created_at__lt=now - FAIL_AFTER
    ).update(status=PackageStatus.FAILED, error=STALE_PACKAGE_MESSAGE, completed_at=now)
    stalled = DocumentationPackage.objects.filter(
        status=PackageStatus.PROCESSING, created_at__lt=now - REQUEUE_AFTER
    ).values_list("pk", flat=True)
    requeued = 0
    for package_id in stalled:
        marker = _build_marker(package_id)
        # add() does nothing while a build is under way or the package was just requeued.
        if not cache.add(marker, "requeued", timeout=int(REQUEUE_AFTER.total_seconds())):
            continue
        try:
            _enqueue_build(str(package_id))
        except Exception:
            cache.delete(marker)
            logger.warning("could not enqueue package %s again", package_id, exc_info=True)
            continue
        requeued += 1
    if requeued or failed:
        logger.info("package sweep: %s enqueued again, %s failed", requeued, failed)
    return PackageSweep(requeued=requeued, failed=failed)


def documentation_package_open(package: DocumentationPackage) -> IO[bytes]:
    """The stored ZIP for reading; CONFLICT (409) until the package is completed."""
    if package.status != PackageStatus.COMPLETED or not package.file_name:
        raise PackageNotReady(f"The package is {package.status}; download it once it is completed.")
    return default_storage.open(package.file_name, "rb")
