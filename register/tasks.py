"""Celery tasks of the register (queue `imports`): thin wrappers that call the jobs with ids."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
from pathlib import Path

from celery import Task, shared_task
from django.conf import settings

from common.child_process import OUT_OF_MEMORY_EXIT
from common.tasks import ServiceTask
from register import work
from register.importing import jobs

logger = logging.getLogger(__name__)

PROJECT_ROOT = Path(__file__).resolve().parents[1]
# How a child that ran out of its address space ends: its own exit (a MemoryError), killed,
# or glibc aborting a failed allocation ("cannot allocate memory for thread-local data":
# status 127, or SIGABRT).
MEMORY_EXITS = (OUT_OF_MEMORY_EXIT, -signal.SIGKILL, -signal.SIGABRT, 127)


def _give_up(task: Task, error: BaseException, import_id: str) -> None:
    jobs.fail(
        import_id=import_id, token=None, code="INTERNAL_ERROR", message=jobs.UNEXPECTED_FAILURE
    )


class RegisterImportTask(ServiceTask):
    """Soft limit: the import's time budget plus the grace (the child is killed before)."""

    @property  # type: ignore[override]
    def soft_time_limit(self) -> int:
        return work.budget_seconds() + work.GRACE_SECONDS

    @property  # type: ignore[override]
    def time_limit(self) -> int:
        return work.budget_seconds() + 2 * work.GRACE_SECONDS


@shared_task(base=RegisterImportTask, bind=True, give_up=_give_up)
def run_register_import_task(self, import_id: str) -> None:  # type: ignore[no-untyped-def]
    """Run one register import in a bounded child process; it never stays `processing`.

    Claims the import's lease (a redelivered or duplicate task finds nothing to do, or
    looks again once the lease of the attempt still running expires), runs the child and
    waits at most REGISTER_IMPORT_TIMEOUT_SECONDS. The child records the plan or the file's
    error itself; if it ran out of memory or time, or crashed, the import is failed here
    with what happened. Database hiccups are retried (ServiceTask), then the import fails
    with a generic message.
    """
    token = jobs.claim(import_id=import_id)
    if token is None:
        return
    outcome = _run_child(import_id, token)
    if outcome is not None:
        code, message = outcome
        jobs.fail(import_id=import_id, token=token, code=code, message=message)


def _run_child(import_id: str, token: str) -> tuple[str, str] | None:
    """Run the child; (code, message) of a failure it could not record itself, else None."""
    memory_bytes = settings.REGISTER_IMPORT_MEMORY_LIMIT_MB * 1024 * 1024
    seconds = work.budget_seconds()
    command = [
        sys.executable, "-m", "register.import_child",
        import_id, token, str(memory_bytes), str(os.getpid()),
    ]  # fmt: skip
    child = subprocess.Popen(
        command, cwd=PROJECT_ROOT, env=_child_environment(), stdin=subprocess.DEVNULL
    )
    try:
        returncode = child.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
        return "IMPORT_TIMEOUT", f"The import took longer than the {seconds} seconds allowed."
    finally:
        if child.poll() is None:  # interrupted while waiting: never leave the child running
            child.kill()
            child.wait()
    if returncode == 0:
        return None  # the child recorded the outcome (or another attempt holds the lease)
    megabytes = settings.REGISTER_IMPORT_MEMORY_LIMIT_MB
    if returncode in MEMORY_EXITS:
        return "IMPORT_TOO_LARGE", f"The import needs more than {megabytes} MiB of memory."
    logger.error("register import %s: the child exited with status %s", import_id, returncode)
    return "INTERNAL_ERROR", jobs.UNEXPECTED_FAILURE


def _child_environment() -> dict[str, str]:
    path = os.pathsep.join(dict.fromkeys([str(PROJECT_ROOT), *(p for p in sys.path if p)]))
    environment = {**os.environ, "PYTHONPATH": path}
    environment.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    return environment


@shared_task
def clean_up_register_imports_task() -> dict[str, int]:
    """Beat: delete the files no import needs and the imports past their keeping.

    The leases of the imports (requeue, fail, send again) are the one sweeper's
    (common.tasks.sweep_background_work_task); this is the register's own retention.
    """
    return jobs.clean_up()
