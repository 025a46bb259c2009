"""Celery tasks: thin wrappers that call the services with ids."""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import InterfaceError, OperationalError

from legal_documents.providers import TransientProviderError
from legal_documents.services import documents, flow, jobs

logger = logging.getLogger(__name__)

MAX_RETRIES = 3


def _public_failure(error: Exception) -> tuple[str, str]:
    """Code and message a client may see: a provider's own words, never database internals."""
    if isinstance(error, TransientProviderError):
        return error.code, error.message
    logger.warning("job failed after retries: %s", error)
    return "SERVICE_UNAVAILABLE", "A backing service was unavailable; retry shortly."


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=MAX_RETRIES,
    soft_time_limit=settings.GENERATION_TIMEOUT_SECONDS,
)
def generate_document_task(self, document_id: str, job_id: str) -> None:  # type: ignore[no-untyped-def]
    """Generate a document; never leaves it `processing` once the retries are spent.

    Transient errors (model timeouts, database or Redis hiccups) are retried with
    exponential backoff and jitter; anything else fails the document with a reason.
    """
    try:
        documents.run_generation(document_id=document_id, job_id=job_id)
    except (TransientProviderError, OperationalError, InterfaceError) as error:
        if self.request.retries >= self.max_retries:
            code, message = _public_failure(error)
            jobs.fail_job(document_id=document_id, job_id=job_id, code=code, message=message)
            return
        countdown = min(60, 2 ** (self.request.retries + 1))
        raise self.retry(exc=error, countdown=countdown) from error
    except SoftTimeLimitExceeded:
        jobs.fail_job(
            document_id=document_id,
            job_id=job_id,
            code="GENERATION_TIMEOUT",
            message=f"Generation took longer than {settings.GENERATION_TIMEOUT_SECONDS} seconds.",
        )
    except Exception:
        logger.exception("generation of %s failed", document_id)
        jobs.fail_job(
            document_id=document_id,
            job_id=job_id,
            code="GENERATION_FAILED",
            message="The document could not be generated; the error was logged.",
        )


@shared_task
def fail_stale_jobs_task() -> int:
    """Beat: fail jobs processing for longer than twice the generation timeout, and close
    the iterations whose job has ended without them."""
    older_than = timedelta(seconds=2 * settings.GENERATION_TIMEOUT_SECONDS)
    failed = jobs.fail_stale_jobs(older_than=older_than)
    flow.finish_interrupted_iterations(older_than=timedelta(minutes=2))
    return failed


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=MAX_RETRIES)
def build_documentation_package_task(self, package_id: str) -> None:  # type: ignore[no-untyped-def]
    """Build an inspection package; it ends `completed` or `failed` (with the reason).

    Database hiccups are retried with backoff; any other error fails the package. The
    reason shown never carries internal error text (the error is logged). A package whose
    task is lost is recovered by `sweep_documentation_packages_task`.
    """
    from legal_documents.packages import services as packages

    try:
        packages.documentation_package_build(package_id=package_id)
    except (OperationalError, InterfaceError) as error:
        if self.request.retries >= self.max_retries:
            logger.warning("inspection package %s failed after retries", package_id, exc_info=True)
            packages.documentation_package_fail(
                package_id=package_id,
                message="The package could not be built (the database was unavailable); "
                "the error was logged.",
            )
            return
        raise self.retry(exc=error, countdown=min(60, 2 ** (self.request.retries + 1))) from error
    except Exception as error:
        logger.exception("inspection package %s failed", package_id)
        packages.documentation_package_fail(
            package_id=package_id,
            message=f"The package could not be built ({type(error).__name__}); "
            "the error was logged.",
        )


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=MAX_RETRIES,
    soft_time_limit=settings.GENERATION_TIMEOUT_SECONDS,
)
def iterate_document_task(self, document_id: str, job_id: str, iteration_id: str) -> None:  # type: ignore[no-untyped-def]
    """Apply one iteration message; never leaves the document `processing`.

    Same discipline as generate_document_task: transient errors retry with backoff, then
    fail; anything else fails the job and the iteration, and the thread is finished.
    """

    def fail(code: str, message: str) -> None:
        flow.fail_iteration(
            document_id=document_id, job_id=job_id, iteration_id=iteration_id,
            code=code, message=message,
        )  # fmt: skip

    try:
        flow.run_iteration(document_id=document_id, job_id=job_id, iteration_id=iteration_id)
    except (TransientProviderError, OperationalError, InterfaceError) as error:
        if self.request.retries >= self.max_retries:
            fail(*_public_failure(error))
            return
        countdown = min(60, 2 ** (self.request.retries + 1))
        raise self.retry(exc=error, countdown=countdown) from error
    except SoftTimeLimitExceeded:
        fail(
            "GENERATION_TIMEOUT",
            f"The edit took longer than {settings.GENERATION_TIMEOUT_SECONDS} seconds.",
        )
    except Exception:
        logger.exception("iteration %s of %s failed", iteration_id, document_id)
        fail("GENERATION_FAILED", "The edit could not be applied; the error was logged.")


@shared_task
def sweep_documentation_packages_task() -> dict[str, int]:
    """Beat: enqueue again packages whose build was lost; fail those processing too long."""
    from legal_documents.packages import services as packages

    sweep = packages.documentation_packages_sweep()
    return {"requeued": sweep.requeued, "failed": sweep.failed}
