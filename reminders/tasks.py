"""The beat's task: the reminders due now (config.settings.base CELERY_BEAT_SCHEDULE)."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from reminders.services import send_due_reminders


@shared_task(name="reminders.tasks.send_due_reminders_task", ignore_result=True)
def send_due_reminders_task() -> int:
    """Send the reminders due at the time of the run. Idempotent: a run that overlaps
    another, or repeats it, sends nothing twice (reminders.services)."""
    return send_due_reminders(now=timezone.now())
