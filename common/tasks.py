"""The one base class of the Celery tasks: how they retry, how long they run, how they give up.

A task declares what is worth another attempt (``autoretry_for``), and Celery retries it
with exponential backoff and full jitter (a random delay between 0 and the backoff, so
tasks that failed together do not come back together). Once the retries are spent, or at
once for an error not in the list, the task fails and ``on_failure`` calls the task's
``give_up`` hook, which records the failure on the task's object (a document, an asset, a
package) so that nothing stays `processing`. A worker lost mid-task is not a failure: the
message is requeued (``acks_late`` and ``reject_on_worker_lost``) and the hook is not called.
Nor is work whose lease another attempt holds (``LeaseHeldError``, common.background): the
task looks again once that lease expires, as a fresh task.
"""

from __future__ import annotations

import logging
from typing import Any

import celery
from billiard.einfo import ExceptionInfo
from django.conf import settings
from django.db import InterfaceError, OperationalError

from common.background.leases import LeaseHeldError

logger = logging.getLogger(__name__)

# The database may be back in a moment (a restart, a failover, a dropped connection).
DATABASE_ERRORS: tuple[type[BaseException], ...] = (OperationalError, InterfaceError)


class ServiceTask(celery.Task):  # type: ignore[misc]
    """Base of the project's tasks: ``@shared_task(base=ServiceTask, ...)``.

    Class attributes are the defaults; a task overrides them in its decorator
    (``autoretry_for=...``, ``retry_backoff=...``, ``give_up=...``,
    ``soft_time_limit_setting=...``).
    """

    # Redelivered if the worker dies mid-task; the tasks are idempotent by id.
    acks_late = True
    reject_on_worker_lost = True
    autoretry_for: tuple[type[BaseException], ...] = DATABASE_ERRORS
    max_retries: int | None = 3
    # Attempt n (from 0) waits a random 0..min(retry_backoff_max, retry_backoff * 2**n) s.
    retry_backoff: int | bool = 2
    retry_backoff_max = 60
    retry_jitter = True
    # The name of the setting that bounds a run (SoftTimeLimitExceeded), read when the task
    # is sent or run, not when it is imported; None: CELERY_TASK_SOFT_TIME_LIMIT.
    soft_time_limit_setting: str | None = None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Run the task; while another attempt holds its work's lease, look again later.

        That attempt may still be running, or its worker died and the lease has not expired
        yet: this task is sent again, fresh, for when the lease ends. Not a
        Celery retry, which would use up ``max_retries`` and then give up (fail) work that
        is going well; not a failure either. The one place this is decided for every kind.
        """
        try:
            return super().__call__(*args, **kwargs)
        except LeaseHeldError as held:
            logger.info("%s: %s; sent again for when it expires", self.name, held)
            self.apply_async(args, kwargs or None, countdown=held.seconds_left)
            return None

    @property  # type: ignore[override]
    def soft_time_limit(self) -> int | None:
        if self.soft_time_limit_setting is None:
            limit: int | None = self.app.conf.task_soft_time_limit
            return limit
        seconds: int = getattr(settings, self.soft_time_limit_setting)
        return seconds

    def on_failure(
        self,
        exc: BaseException,
        task_id: str,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        einfo: ExceptionInfo,
    ) -> None:
        """The task has failed for good (Celery has logged the error): record it."""
        self.give_up(exc, *args, **kwargs)

    def give_up(self, error: BaseException, *args: Any, **kwargs: Any) -> None:
        """Hook, called once per failed task with the error and the task's arguments.

        Replaced per task (``give_up=function`` in the decorator; the function takes the task
        first). The default has nothing to mark: the failure is in Celery's log.
        """


@celery.shared_task(ignore_result=True)
def sweep_background_work_task() -> dict[str, dict[str, int]]:
    """Beat: the one sweeper of every kind of background work (common.background)."""
    from common.background.sweeper import sweep_all

    return sweep_all()
