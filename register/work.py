"""The register import as a kind of background work (common.background).

Registered in `RegisterConfig.ready`, so that the one sweeper (common.tasks) requeues an
import whose worker was lost, sends again one whose task the broker refused or lost, and
fails one interrupted MAX_ATTEMPTS times or queued past MAX_QUEUED_SECONDS.
"""

from __future__ import annotations

from django.conf import settings

from common.background.kinds import WorkKind
from register.models import ImportStatus, RegisterImport

# Attempts of one import (a worker lost mid-way is one); then it fails.
MAX_ATTEMPTS = 3
# After the time budget, the attempt has this long to record its own end.
GRACE_SECONDS = 30
# A queued import untouched this long lost its task (a lost message): sent again.
RESEND_AFTER_SECONDS = 300
# An import the broker kept refusing this long fails (SERVICE_UNAVAILABLE): it holds one
# of the organization's REGISTER_IMPORT_MAX_RUNNING slots while it waits.
MAX_QUEUED_SECONDS = 900


def budget_seconds() -> int:
    return int(settings.REGISTER_IMPORT_TIMEOUT_SECONDS)


def _send(import_id: str, countdown: float) -> None:
    from register.tasks import run_register_import_task

    run_register_import_task.apply_async((import_id,), countdown=countdown)


def _end_failed(register_import: RegisterImport, reason: str) -> None:
    from register.importing.jobs import end_failed

    end_failed(register_import, reason)


def _requeued(register_import: RegisterImport) -> None:
    # The API shows it waiting again (its worker was lost), not still running.
    register_import.status = ImportStatus.QUEUED
    register_import.stage = ""
    register_import.save(update_fields=["status", "stage"])


KIND = WorkKind(
    name="register_import",
    model=RegisterImport,
    send=_send,
    lease_seconds=lambda register_import: budget_seconds() + GRACE_SECONDS,
    end_failed=_end_failed,
    max_attempts=MAX_ATTEMPTS,
    resend_after_seconds=RESEND_AFTER_SECONDS,
    max_queued_seconds=MAX_QUEUED_SECONDS,
    requeued=_requeued,
)
