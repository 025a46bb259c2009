"""The 72-hour clock of an open breach (Art. 33(1)) as the start page draws it: a bar.

"Open" is the register report's notion (`compliance.report.open_breaches`): a breach
notification not finalized and without a `notifiedAt` input. The bar fills with the hours
elapsed since awareness, turns amber for the last 24 hours (NEAR_END) and red once the
72 hours are over, when the notification must give the reasons for the delay.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from gdpr.composition.assessments.breach_deadline import NOTIFICATION_WINDOW, NotificationDeadline

NEAR_END = timedelta(hours=24)
WINDOW_HOURS = NOTIFICATION_WINDOW.total_seconds() / 3600
# The bar's colours: the admin's own ones (compliance.css's severities).
COLOURS = {"running": "#417690", "near": "#c47d00", "overdue": "#ba2121"}


@dataclass(frozen=True, slots=True)
class BreachClock:
    elapsed_hours: float
    percent: int  # of the 72 hours, capped at 100 (an overdue bar is full, and red)
    state: str  # "running", "near" (last 24 hours) or "overdue"

    @property
    def colour(self) -> str:
        return COLOURS[self.state]


def breach_clock(deadline: NotificationDeadline) -> BreachClock:
    """Where `deadline.now` stands in the 72 hours from `deadline.aware_at`."""
    elapsed = max(timedelta(0), deadline.now - deadline.aware_at)
    hours = elapsed.total_seconds() / 3600
    if deadline.passed:
        state = "overdue"
    elif deadline.deadline - deadline.now <= NEAR_END:
        state = "near"
    else:
        state = "running"
    return BreachClock(
        elapsed_hours=hours, percent=min(100, int(hours / WINDOW_HOURS * 100)), state=state
    )
