"""Art. 12(3): answer within one month, extendable by two months with notice in the first."""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import date


def add_months(start: date, months: int) -> date:
    """Same day `months` later; the month's last day when that day does not exist.

    This is how Regulation 1182/71 counts periods in months (31 Jan + 1 month = 28/29 Feb).
    """
    month_index = start.month - 1 + months
    year, month = start.year + month_index // 12, month_index % 12 + 1
    day = min(start.day, calendar.monthrange(year, month)[1])
    return date(year, month, day)


@dataclass(frozen=True, slots=True)
class ResponseDeadline:
    """Deadlines for answering a data subject request received on `received`."""

    received: date
    deadline: date
    extended_deadline: date

    @property
    def extension_notice_by(self) -> date:
        """The data subject must be told of an extension, with reasons, by the first deadline."""
        return self.deadline


def response_deadline(received: date) -> ResponseDeadline:
    """One month from receipt; at most two further months (three in all)."""
    return ResponseDeadline(
        received=received,
        deadline=add_months(received, 1),
        extended_deadline=add_months(received, 3),
    )
