"""Starting, completing and failing the asynchronous work on a document.

Every piece of work (create, draft, finalize, iterate) is a *job*: the document is set to
`processing` with a fresh `job_id` and a Celery task is enqueued after commit. Only the
task carrying the current `job_id` may complete or fail the document, so a redelivered or
superseded task changes nothing (idempotency). At most MAX_CONCURRENT_GENERATIONS jobs run
per organization, counted under a row lock on the organization (no race).
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

from common.domain import ContentTooLong
from legal_documents import events
from legal_documents.exceptions import GenerationLimitReached
from legal_documents.models import LegalDocument, Stage, Status
from legal_documents.rendering import markdown_to_text, render_html_page
from legal_documents.selectors import document_completeness
from legal_documents.versioning import record_version, sha256_text
from organizations.models import Organization
from webhooks.events import DOCUMENT_DRAFTED, DOCUMENT_FINALIZED, DOCUMENT_UPDATED

logger = logging.getLogger(__name__)

# The default of settings.DOCUMENT_MAX_CONTENT_CHARS (read through content_limit()).
MAX_CONTENT_LENGTH = 100_000
DEFAULT_DURATIONS = {"template": 1.0, "openai": 60.0}


class JobKind:
    CREATE = "create"
    DRAFT = "draft"
    FINALIZE = "finalize"
    ITERATE = "iterate"


def claim_generation_slot(organization: Organization) -> None:
    """Raise GENERATION_LIMIT when the organization already runs its maximum of jobs.

    Must run inside the transaction that then marks a document `processing`: the row lock
    on the organization makes the count and the claim one atomic step.
    """
    # no_key: audit inserts of the same organization take a KEY SHARE lock on its row; a
    # plain FOR UPDATE here would deadlock with them (one waits on the audit lock).
    Organization.objects.select_for_update(no_key=True).filter(pk=organization.pk).first()
    running = LegalDocument.objects.filter(
        organization=organization, status=Status.PROCESSING
    ).count()
    limit = settings.MAX_CONCURRENT_GENERATIONS
    if running >= limit:
        raise GenerationLimitReached(running=running, limit=limit)


def start_job(
    document: LegalDocument,
    *,
    kind: str,
    stage: str,
    enqueue: Callable[[str, str], None],
) -> LegalDocument:
    """Mark the document processing with a new job and enqueue `enqueue(id, job_id)` on commit.

    The caller holds a transaction and has claimed a generation slot when the job generates.
    """
    document.status = Status.PROCESSING
    document.stage = stage
    document.job_id = uuid.uuid4()
    document.job_kind = kind
    document.processing_started_at = timezone.now()
    document.error_code = document.error_message = ""
    document.save()
    document_id, job_id = str(document.pk), str(document.job_id)
    transaction.on_commit(lambda: _enqueue_or_fail(enqueue, document_id, job_id))
    transaction.on_commit(lambda: _announce(document_id))
    return document


def _enqueue_or_fail(enqueue: Callable[[str, str], None], document_id: str, job_id: str) -> None:
    """A job whose task cannot be queued (broker down) fails at once, with a clear reason,
    instead of staying `processing` until the sweep finds it."""
    try:
        enqueue(document_id, job_id)
    except Exception:
        logger.exception("could not queue job %s of document %s", job_id, document_id)
        fail_job(
            document_id=document_id,
            job_id=job_id,
            code="SERVICE_UNAVAILABLE",
            message="The job queue is unavailable; the work was not started. Retry shortly.",
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


def current_job(document_id: str, job_id: str) -> LegalDocument | None:
    """The document locked for update if `job_id` is still its running job, else None."""
    # of=("self",): lock the document only, not the organization row joined in.
    document = (
        LegalDocument.objects.select_for_update(of=("self",))
        .select_related("organization")
        .filter(pk=document_id)
        .first()
    )
    if document is None or document.status != Status.PROCESSING or str(document.job_id) != job_id:
        return None
    return document


def complete_job(
    *,
    document_id: str,
    job_id: str,
    markdown: str | None,
    author_id: int | None,
    reason: str,
    duration_seconds: float | None = None,
) -> LegalDocument | None:
    """Store the new content as the next version and mark the job completed.

    `markdown=None` completes without a new version (an iteration that changed nothing).
    Content over the cap (content_limit()) fails the job with CONTENT_TOO_LONG instead.
    """
    with transaction.atomic():
        document = current_job(document_id, job_id)
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
    *, document_id: str, job_id: str | None, code: str, message: str
) -> LegalDocument | None:
    """Mark the job failed (only if it is still the current one; `job_id=None`: any job)."""
    with transaction.atomic():
        document = (
            LegalDocument.objects.select_for_update().filter(pk=document_id).first()
            if job_id is None
            else current_job(document_id, job_id)
        )
        if document is None or document.status != Status.PROCESSING:
            return None
        return _fail(document, code, message)


def _fail(document: LegalDocument, code: str, message: str) -> LegalDocument:
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
    return document


def fail_stale_jobs(*, older_than: timedelta) -> int:
    """Fail every job processing for longer than `older_than` (workers lost, tasks lost)."""
    cutoff = timezone.now() - older_than
    stale = LegalDocument.objects.filter(
        status=Status.PROCESSING, processing_started_at__lt=cutoff
    ).values_list("pk", flat=True)
    failed = 0
    for document_id in list(stale):
        if fail_job(
            document_id=str(document_id),
            job_id=None,
            code="GENERATION_TIMEOUT",
            message=f"The job did not finish within {int(older_than.total_seconds())} seconds.",
        ):
            failed += 1
    return failed


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
