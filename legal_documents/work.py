"""The background work of legal_documents, described once for the lease (common.background).

Two kinds: a document's job (create, draft, finalize, iterate: the document row carries the
lease, `job_id` names the job a task was sent for) and an inspection package's build. The
app registers them in `LegalDocumentsConfig.ready`; the one sweeper (beat) then requeues or
fails their expired leases and sends again what waits too long.

The kinds' hooks import the services and tasks when called: services use the kinds, and the
tasks call the services (the services<->tasks idiom, docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings

from common.background import leases
from common.background.kinds import WorkKind
from legal_documents.models import DocumentationPackage, LegalDocument

logger = logging.getLogger(__name__)

# Past the soft time limit (GENERATION_TIMEOUT_SECONDS) a run still records its failure.
JOB_LEASE_GRACE_SECONDS = 30
# A build has no time limit of its own; a lease this long outlasts any build seen.
PACKAGE_LEASE_SECONDS = 600
# A package waiting this long for a worker was lost and is sent again; this long, failed.
PACKAGE_RESEND_AFTER_SECONDS = 300
PACKAGE_MAX_QUEUED_SECONDS = 1800


def _send_job(document_id: str, countdown: float) -> None:
    from legal_documents.services import jobs

    jobs.send_job(document_id=document_id, countdown=countdown)


def _end_job_failed(document: LegalDocument, reason: str) -> None:
    from legal_documents.services import flow

    flow.end_job_failed(document, reason)


def _send_build(package_id: str, countdown: float) -> None:
    from legal_documents.tasks import build_documentation_package_task

    build_documentation_package_task.apply_async((package_id,), countdown=countdown)


def _end_build_failed(package: DocumentationPackage, reason: str) -> None:
    from legal_documents.packages import services as packages

    packages.end_build_failed(package, reason)


def _job_lease_seconds(document: LegalDocument) -> float:
    return float(settings.GENERATION_TIMEOUT_SECONDS + JOB_LEASE_GRACE_SECONDS)


def _build_lease_seconds(package: DocumentationPackage) -> float:
    return float(PACKAGE_LEASE_SECONDS)


DOCUMENT_JOB = WorkKind(
    name="document-job",
    model=LegalDocument,
    send=_send_job,
    lease_seconds=_job_lease_seconds,
    end_failed=_end_job_failed,
    # A job whose worker was lost three times ends GENERATION_TIMEOUT.
    max_attempts=3,
    # A job no worker took for twice the generation timeout ends failed, as it always did.
    max_queued_seconds=2 * settings.GENERATION_TIMEOUT_SECONDS,
)

PACKAGE_BUILD = WorkKind(
    name="documentation-package",
    model=DocumentationPackage,
    send=_send_build,
    lease_seconds=_build_lease_seconds,
    end_failed=_end_build_failed,
    max_attempts=3,
    resend_after_seconds=PACKAGE_RESEND_AFTER_SECONDS,
    max_queued_seconds=PACKAGE_MAX_QUEUED_SECONDS,
)


def hand_back_for_retry(kind: WorkKind, pk: Any, token: str) -> None:
    """Before the task's own retry (a transient error): the lease back, the attempt not
    counted, nothing sent. Without a database the lease stays held: the retry waits for it."""
    try:
        leases.hand_back(kind, pk, token, send=False)
    except Exception:
        logger.warning(
            "could not hand back the lease of %s %s before its retry", kind.name, pk, exc_info=True
        )
