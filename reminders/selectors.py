"""What the admin's start page shows of the reminders: the next ones and the latest sent."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import QuerySet

from reminders.clocks import Clock, Step, organization_clocks
from reminders.models import SentReminder

UPCOMING_HORIZON = timedelta(days=30)


@dataclass(frozen=True, slots=True)
class UpcomingReminder:
    clock: Clock
    step: Step


def upcoming_reminders(*, organization_id: Any, now: datetime) -> list[UpcomingReminder]:
    """Each clock's next reminder within the horizon, soonest first."""
    found = [
        UpcomingReminder(clock, step)
        for clock in organization_clocks(organization_id=organization_id, now=now)
        if (step := clock.upcoming(now)) is not None and step.due_at <= now + UPCOMING_HORIZON
    ]
    return sorted(found, key=lambda reminder: reminder.step.due_at)


def sent_reminders(*, organization_id: Any) -> QuerySet[SentReminder]:
    """The organization's reminders sent, latest first."""
    return SentReminder.objects.filter(organization_id=organization_id).select_related("user")
