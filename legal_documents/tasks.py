"""Celery tasks: thin wrappers that call the services with ids."""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import InterfaceError, OperationalError

from legal_documents.providers import TransientProviderError
from legal_documents.services import documents, jobs

logger = logging.getLogger(__name__)

MAX_RETRIES = 3


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
            code = getattr(error, "code", "PROVIDER_UNAVAILABLE")
            jobs.fail_job(document_id=document_id, job_id=job_id, code=code, message=str(error))
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
    """Beat: fail jobs processing for longer than twice the generation timeout."""
    return jobs.fail_stale_jobs(
        older_than=timedelta(seconds=2 * settings.GENERATION_TIMEOUT_SECONDS)
    )
