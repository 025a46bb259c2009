"""Starting, completing and failing the asynchronous work on a document.

Every piece of work (create, draft, finalize, iterate) is a *job*: the document is set to
`processing` with a fresh `job_id` and queued under the lease of common.background
(legal_documents/work.py: DOCUMENT_JOB); its task is sent once the transaction commits.
A task claims the lease for its `job_id`, so a redelivered or superseded task changes
nothing, and only the attempt holding the lease completes or fails the document, ending
the lease in the same transaction. A refused send leaves the job queued: the one sweeper
sends it again, and a job no worker took in time ends SERVICE_UNAVAILABLE. At most
MAX_CONCURRENT_GENERATIONS jobs run per organization (common.background.slots).
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from common.background import leases, slots
from common.domain import ContentTooLong
from legal_documents import events
from legal_documents.exceptions import GenerationLimitReached
from legal_documents.models import DocumentIteration, LegalDocument, Stage, Status
from legal_documents.rendering import markdown_to_text, render_html_page
from legal_documents.selectors import document_completeness
from legal_documents.versioning import record_version, sha256_text
from legal_documents.work import DOCUMENT_JOB
from organizations.models import Organization
from webhooks.events import DOCUMENT_DRAFTED, DOCUMENT_FINALIZED, DOCUMENT_UPDATED

logger = logging.getLogger(__name__)

# The default of settings.DOCUMENT_MAX_CONTENT_CHARS (read through content_limit()).
MAX_CONTENT_LENGTH = 100_000
DEFAULT_DURATIONS = {"template": 1.0, "openai": 60.0}
# How a job the lease ends failed reads (work.DOCUMENT_JOB's `end_failed`, by reason).
UNSENT_CODE = "SERVICE_UNAVAILABLE"
UNSENT_MESSAGE = "The job queue was unavailable; the work was not started. Retry shortly."
INTERRUPTED_CODE = "GENERATION_TIMEOUT"


class JobKind:
    CREATE = "create"
    DRAFT = "draft"
    FINALIZE = "finalize"
    ITERATE = "iterate"


def claim_generation_slot(organization: Organization) -> None:
    """Raise GENERATION_LIMIT when the organization already runs its maximum of jobs.

    Must run inside the transaction that then marks a document `processing` (the one slot
    claim, common.background.slots, makes the count and the claim one atomic step).
    """
    slots.claim_slot(
        owner=organization,
        running=LegalDocument.objects.filter(organization=organization, status=Status.PROCESSING),
        limit=settings.MAX_CONCURRENT_GENERATIONS,
        refuse=lambda running, limit: GenerationLimitReached(running=running, limit=limit),
    )


def start_job(document: LegalDocument, *, kind: str, stage: str) -> LegalDocument:
    """Mark the document processing with a new job, queued: its task is sent on commit.

    The caller holds a transaction and has claimed a generation slot when the job generates
    (an iteration creates its DocumentIteration first: the task is sent for it).
    """
    document.status = Status.PROCESSING
    document.stage = stage
    document.job_id = uuid.uuid4()
    document.job_kind = kind
    document.processing_started_at = timezone.now()
    document.error_code = document.error_message = ""
    document.save()
    leases.queue(DOCUMENT_JOB, document)
    document_id = str(document.pk)
    transaction.on_commit(lambda: _announce(document_id))
    return document


def send_job(*, document_id: str, countdown: float) -> None:
    """Send the task of the document's current job (DOCUMENT_JOB's `send`; raises when the
    broker refuses). Nothing to send once the document runs no job."""
    from legal_documents.tasks import generate_document_task, iterate_document_task

    document = (
        LegalDocument.objects.filter(pk=document_id, status=Status.PROCESSING)
        .values("job_id", "job_kind")
        .first()
    )
    if document is None or document["job_id"] is None:
        return
    job_id = str(document["job_id"])
    if document["job_kind"] != JobKind.ITERATE:
        generate_document_task.apply_async((document_id, job_id), countdown=countdown)
        return
    # A document runs one job at a time: its iteration still processing is this job's.
    iteration_id = (
        DocumentIteration.objects.filter(
            document_id=uuid.UUID(document_id), status=Status.PROCESSING
        )
        .order_by("-created_at")
        .values_list("pk", flat=True)
        .first()
    )
    if iteration_id is not None:
        iterate_document_task.apply_async(
            (document_id, job_id, str(iteration_id)), countdown=countdown
        )


def _announce(document_id: str) -> None:
    document = LegalDocument.objects.filter(pk=document_id).first()
    if document is not None:
        events.send_document_status(
            document_id=document.pk,
            status=document.status,
            stage=document.stage,
            version=document.version,
        )


def current_job(document_id: str, job_id: str, token: str | None = None) -> LegalDocument | None:
    """The document locked for update if `job_id` is still its running job and the attempt
    `token` holds its lease, else None. `token=None`: not run under a lease (a direct call,
    a task's final-failure hook): any attempt."""
    # Locks the document only (of self), not the organization it refers to.
    document: LegalDocument | None = (
        leases.locked(DOCUMENT_JOB, document_id)
        if token is None
        else leases.holding(DOCUMENT_JOB, document_id, token)
    )
    if document is None or document.status != Status.PROCESSING or str(document.job_id) != job_id:
        return None
    return document


def is_running(*, document_id: str, job_id: str) -> bool:
    """Whether `job_id` is still the document's running job (another attempt may hold it)."""
    return LegalDocument.objects.filter(
        pk=document_id, job_id=job_id, status=Status.PROCESSING
    ).exists()


def complete_job(
    *,
    document_id: str,
    job_id: str,
    markdown: str | None,
    author_id: int | None,
    reason: str,
    duration_seconds: float | None = None,
    token: str | None = None,
) -> LegalDocument | None:
    """Store the new content as the next version and mark the job completed.

    `markdown=None` completes without a new version (an iteration that changed nothing).
    Content over the cap (content_limit()) fails the job with CONTENT_TOO_LONG instead.
    `token`: the attempt's lease (current_job); the lease ends in the same transaction.
    """
    with transaction.atomic():
        document = current_job(document_id, job_id, token)
        if document is None:
            logger.info("job %s of document %s is no longer current; skipped", job_id, document_id)
            return None
        if markdown is not None:
            try:
                set_content(document, markdown)
            except ContentTooLong as error:
                return _fail(document, error.code, f"The generated content: {error.message}")
        document.status = Status.COMPLETED
        document.completed_at = timezone.now()
        document.job_id = None
        document.save()
        leases.finish(document)
        if markdown is not None:
            record_version(document=document, author_id=author_id, reason=reason)
            events.notify_webhooks(document=document, event=_completion_event(document))
        document_pk = str(document.pk)
        transaction.on_commit(lambda: _announce(document_pk))
    if duration_seconds is not None:
        remember_duration(document.provider, duration_seconds)
    return document


def _completion_event(document: LegalDocument) -> str:
    """Generation ends in a draft or a final document; an iteration updates the content."""
    if document.job_kind == JobKind.ITERATE:
        return DOCUMENT_UPDATED
    if document.stage == Stage.FINAL:
        return DOCUMENT_FINALIZED
    return DOCUMENT_DRAFTED


def content_limit() -> int:
    """The most characters a document's Markdown may hold (DOCUMENT_MAX_CONTENT_CHARS)."""
    return int(getattr(settings, "DOCUMENT_MAX_CONTENT_CHARS", MAX_CONTENT_LENGTH))


def check_content_length(markdown: str) -> None:
    """Raise ContentTooLong (400 CONTENT_TOO_LONG) for Markdown over content_limit()."""
    limit = content_limit()
    if len(markdown) > limit:
        raise ContentTooLong(
            f"The content would be {len(markdown):,} characters; a document holds at most"
            f" {limit:,}.",
            details={"markdown": [f"At most {limit} characters."], "length": len(markdown)},
        )


def set_content(document: LegalDocument, markdown: str) -> None:
    """Content and its derived forms; the version number moves on.

    The one place every writer (generation, iteration, questionnaire, manual edit, refresh)
    stores content, so the cap is enforced here: over content_limit() it raises
    ContentTooLong before touching the document (the caller's transaction rolls back; the
    exports, PDF included, never see a document larger than the cap).
    """
    from gdpr.doctypes.registry import get_document_type

    check_content_length(markdown)

    spec = get_document_type(document.document_type)
    title = spec.title
    report = document_completeness(document, markdown)
    # Stored so that lists never re-read and re-check every document's content.
    document.compliance_complete = report.complete
    document.compliance_missing = list(report.missing)
    document.content_markdown = markdown
    document.content_html = render_html_page(markdown, title=title)
    document.content_text = markdown_to_text(markdown)
    document.content_sha256 = sha256_text(markdown)
    document.version += 1


def fail_job(
    *, document_id: str, job_id: str, code: str, message: str, token: str | None = None
) -> LegalDocument | None:
    """Mark the job failed if it is still the current one (and `token` holds its lease)."""
    with transaction.atomic():
        document = current_job(document_id, job_id, token)
        if document is None:
            return None
        return _fail(document, code, message)


def _fail(document: LegalDocument, code: str, message: str) -> LegalDocument:
    record_failure(document, code, message)
    leases.finish(document)
    return document


def record_failure(document: LegalDocument, code: str, message: str) -> None:
    """The job ended failed, on the locked document (the caller ends the lease)."""
    # A failed edit leaves the last good version readable; the error stays recorded.
    keeps_content = document.job_kind == JobKind.ITERATE and document.has_content
    document.status = Status.COMPLETED if keeps_content else Status.FAILED
    document.error_code = code
    document.error_message = message[:2000]
    document.job_id = None
    document.completed_at = timezone.now()
    document.save()
    document_pk = str(document.pk)
    transaction.on_commit(lambda: _announce(document_pk))


def failure_of(reason: str) -> tuple[str, str]:
    """Code and message of a job the lease ended: "unsent" (no worker ever took it: the
    broker refused it, or no worker ran), "interrupted" (its workers were lost)."""
    if reason == "unsent":
        return UNSENT_CODE, UNSENT_MESSAGE
    return (
        INTERRUPTED_CODE,
        f"The job did not finish: its worker was lost {DOCUMENT_JOB.max_attempts} times.",
    )


# --- estimated completion time ------------------------------------------------------------
def _duration_key(provider: str) -> str:
    return f"generation-duration:{provider}"


def remember_duration(provider: str, seconds: float) -> None:
    """Keep a moving average of job durations per provider (shared by all processes)."""
    try:
        previous = cache.get(_duration_key(provider))
        average = seconds if previous is None else 0.8 * float(previous) + 0.2 * seconds
        cache.set(_duration_key(provider), average, timeout=None)
    except Exception:  # an estimate is never worth failing a job
        logger.warning("could not record the duration of a %s job", provider, exc_info=True)


def expected_duration(provider: str) -> float:
    try:
        value = cache.get(_duration_key(provider))
    except Exception:
        value = None
    return float(value) if value is not None else DEFAULT_DURATIONS.get(provider, 30.0)


def estimated_completion(document: LegalDocument) -> str | None:
    if document.status != Status.PROCESSING or document.processing_started_at is None:
        return None
    eta = document.processing_started_at + timedelta(seconds=expected_duration(document.provider))
    return eta.isoformat().replace("+00:00", "Z")


def measure() -> Callable[[], float]:
    started = time.monotonic()
    return lambda: time.monotonic() - started
