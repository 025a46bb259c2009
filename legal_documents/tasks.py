"""Celery tasks: thin wrappers that call the services with ids.

The work tasks read: load by id and claim the lease (legal_documents/work.py), call the
service with the lease's token (it ends the work), hand the lease back before a retry.
"""

from __future__ import annotations

from celery import Task, shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings

from common.background import leases
from common.tasks import DATABASE_ERRORS, ServiceTask
from legal_documents import work
from legal_documents.providers import TransientProviderError
from legal_documents.services import documents, flow, jobs
from legal_documents.staleness import mark_stale

MAX_RETRIES = 3
# Worth another attempt: the model provider or the database may be back in a moment.
TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (*DATABASE_ERRORS, TransientProviderError)


def _public_failure(error: BaseException, *, action: str, failure: str) -> tuple[str, str]:
    """Code and message a client may see: never database internals or a traceback."""
    if isinstance(error, TransientProviderError):
        return error.code, error.message
    if isinstance(error, SoftTimeLimitExceeded):
        seconds = settings.GENERATION_TIMEOUT_SECONDS
        return "GENERATION_TIMEOUT", f"{action} took longer than {seconds} seconds."
    if isinstance(error, DATABASE_ERRORS):
        return "SERVICE_UNAVAILABLE", "A backing service was unavailable; retry shortly."
    return "GENERATION_FAILED", f"{failure}; the error was logged."


def _fail_generation(task: Task, error: BaseException, document_id: str, job_id: str) -> None:
    code, message = _public_failure(
        error, action="Generation", failure="The document could not be generated"
    )
    jobs.fail_job(document_id=document_id, job_id=job_id, code=code, message=message)


@shared_task(
    base=ServiceTask,
    bind=True,
    autoretry_for=TRANSIENT_ERRORS,
    max_retries=MAX_RETRIES,
    soft_time_limit_setting="GENERATION_TIMEOUT_SECONDS",
    give_up=_fail_generation,
)
def generate_document_task(self, document_id: str, job_id: str) -> None:  # type: ignore[no-untyped-def]
    """Generate a document; never leaves it `processing` once the retries are spent.

    Transient errors (model timeouts, database hiccups) are retried with exponential backoff
    and full jitter (ServiceTask); then, like anything else, they fail the document with a
    reason a client may read. A task for another job than the document's finds nothing.
    """
    lease = leases.claim(work.DOCUMENT_JOB, document_id, job_id=job_id)
    if lease is None:
        return
    try:
        documents.run_generation(document_id=document_id, job_id=job_id, token=lease.token)
    except TRANSIENT_ERRORS:
        work.hand_back_for_retry(work.DOCUMENT_JOB, document_id, lease.token)
        raise


def _fail_package(task: Task, error: BaseException, package_id: str) -> None:
    from legal_documents.packages import services as packages

    reason = (
        "the database was unavailable"
        if isinstance(error, DATABASE_ERRORS)
        else type(error).__name__
    )
    packages.documentation_package_fail(
        package_id=package_id,
        message=f"The package could not be built ({reason}); the error was logged.",
    )


@shared_task(base=ServiceTask, bind=True, max_retries=MAX_RETRIES, give_up=_fail_package)
def build_documentation_package_task(self, package_id: str) -> None:  # type: ignore[no-untyped-def]
    """Build an inspection package; it ends `completed` or `failed` (with the reason).

    Database hiccups are retried with backoff and jitter (ServiceTask); then, like any other
    error, they fail the package. The reason shown never carries internal error text (Celery
    logs the error). A package whose task is lost is sent again by the one sweeper of
    background work (common.background), or fails once it waited too long.
    """
    from legal_documents.packages import services as packages

    lease = leases.claim(work.PACKAGE_BUILD, package_id)
    if lease is None:
        return
    try:
        packages.documentation_package_build(package_id=package_id, token=lease.token)
    except DATABASE_ERRORS:
        work.hand_back_for_retry(work.PACKAGE_BUILD, package_id, lease.token)
        raise


def _fail_iteration(
    task: Task, error: BaseException, document_id: str, job_id: str, iteration_id: str
) -> None:
    code, message = _public_failure(
        error, action="The edit", failure="The edit could not be applied"
    )
    flow.fail_iteration(
        document_id=document_id, job_id=job_id, iteration_id=iteration_id,
        code=code, message=message,
    )  # fmt: skip


@shared_task(
    base=ServiceTask,
    bind=True,
    autoretry_for=TRANSIENT_ERRORS,
    max_retries=MAX_RETRIES,
    soft_time_limit_setting="GENERATION_TIMEOUT_SECONDS",
    give_up=_fail_iteration,
)
def iterate_document_task(self, document_id: str, job_id: str, iteration_id: str) -> None:  # type: ignore[no-untyped-def]
    """Apply one iteration message; never leaves the document `processing`.

    Same discipline as generate_document_task: transient errors retry with backoff and
    jitter, then fail; anything else fails the job and the iteration at once, and the thread
    is finished.
    """
    lease = leases.claim(work.DOCUMENT_JOB, document_id, job_id=job_id)
    if lease is None:
        return
    try:
        flow.run_iteration(
            document_id=document_id, job_id=job_id, iteration_id=iteration_id, token=lease.token
        )
    except TRANSIENT_ERRORS:
        work.hand_back_for_retry(work.DOCUMENT_JOB, document_id, lease.token)
        raise


@shared_task(base=ServiceTask, bind=True, max_retries=MAX_RETRIES)
def mark_stale_task(  # type: ignore[no-untyped-def]
    self, organization_id: str, activity_ids: list[str], vendor_ids: list[str]
) -> int:
    """Mark the organization's documents written from these entries stale (staleness.py).

    Enqueued by the `register_changed` receiver once a register write has committed. Safe to
    run twice (a redelivery, two changes at once): documents already stale are skipped, so
    each keeps its first `stale_since` and gets one `document.stale` event. Database hiccups
    are retried with backoff and jitter (ServiceTask); then the failure is only logged, by
    Celery: the documents stay fresh until their entries change again.
    """
    marked = mark_stale(
        organization_id=organization_id, activity_ids=activity_ids, vendor_ids=vendor_ids
    )
    return len(marked)
