"""Art. 33(1): notify within 72 hours of becoming aware of a personal data breach."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

NOTIFICATION_WINDOW = timedelta(hours=72)


def as_utc(moment: datetime) -> datetime:
    """A timezone-aware UTC datetime; a naive one is taken to be UTC already."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def iso_z(moment: datetime) -> str:
    """ISO 8601 in UTC with a trailing Z, to the second: 2026-01-05T09:30:00Z."""
    return as_utc(moment).replace(microsecond=0).isoformat().replace("+00:00", "Z")


@dataclass(frozen=True, slots=True)
class NotificationDeadline:
    """The deadline and where `now` stands against it."""

    aware_at: datetime
    deadline: datetime
    now: datetime

    @property
    def passed(self) -> bool:
        """True once the 72 hours are over (reasons for the delay are then required)."""
        return self.now > self.deadline

    @property
    def hours_overdue(self) -> float:
        """Hours past the deadline (0 when not passed)."""
        return max(0.0, (self.now - self.deadline).total_seconds() / 3600)

    @property
    def hours_remaining(self) -> float:
        """Hours left before the deadline (0 when passed)."""
        return max(0.0, (self.deadline - self.now).total_seconds() / 3600)


def notification_deadline(aware_at: datetime, now: datetime) -> NotificationDeadline:
    """Deadline = awareness + 72 hours, both in UTC (naive datetimes are read as UTC)."""
    aware = as_utc(aware_at)
    return NotificationDeadline(
        aware_at=aware, deadline=aware + NOTIFICATION_WINDOW, now=as_utc(now)
    )
