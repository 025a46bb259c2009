"""Periods computed as Regulation (EEC, Euratom) No 1182/71 computes them.

The GDPR sets its deadlines in months (Art. 12(3): one month, extendable by two further
months); Regulation 1182/71 is how EU law counts such periods:
- Art. 3(1): the day of the event (here: receipt of the request) is not counted;
- Art. 3(2)(c): a period in months ends at the end of the day of the last month with the same
  date as the day of the event, or at the end of that month's last day when it has no such
  date (31 January + 1 month = 28/29 February);
- Art. 3(4): a period that would end on a Saturday, Sunday or public holiday ends at the end
  of the following working day.

Public holidays supported (`public_holidays`): the fixed-date ones common to the Member
States (1 January, 1 May, 25 and 26 December) and the Easter-based ones (Good Friday, Easter
Monday, Ascension Day, Whit Monday). Member State holidays beyond these (national days,
regional feasts) are not known here: a caller passes them as `extra_holidays`.
"""

from __future__ import annotations

import calendar
from collections.abc import Collection
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal

from gdpr.i18n import N_

HOLIDAYS_SUPPORTED = N_(
    "1 January, 1 May, 25 and 26 December, Good Friday, Easter Monday, Ascension Day and Whit"
    " Monday"
)


def add_months(start: date, months: int) -> date:
    """Same date `months` later; that month's last day when the date does not exist."""
    month_index = start.month - 1 + months
    year, month = start.year + month_index // 12, month_index % 12 + 1
    day = min(start.day, calendar.monthrange(year, month)[1])
    return date(year, month, day)


def easter_sunday(year: int) -> date:
    """Western (Gregorian) Easter Sunday, by the anonymous Gregorian algorithm."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = b // 4, b % 4
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = c // 4, c % 4
    l_ = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * l_) // 451
    month, day = divmod(h + l_ - 7 * m + 114, 31)
    return date(year, month, day + 1)


def public_holidays(year: int) -> frozenset[date]:
    """The holidays of `year` this module knows (see HOLIDAYS_SUPPORTED)."""
    easter = easter_sunday(year)
    return frozenset(
        {
            date(year, 1, 1),
            date(year, 5, 1),
            date(year, 12, 25),
            date(year, 12, 26),
            easter - timedelta(days=2),
            easter + timedelta(days=1),
            easter + timedelta(days=39),
            easter + timedelta(days=50),
        }
    )


def is_working_day(day: date, *, extra_holidays: Collection[date] = ()) -> bool:
    """Not a Saturday, a Sunday or a public holiday."""
    return day.weekday() < 5 and day not in public_holidays(day.year) and day not in extra_holidays


def next_working_day_from(day: date, *, extra_holidays: Collection[date] = ()) -> date:
    """`day` itself when it is a working day, else the first working day after it."""
    while not is_working_day(day, extra_holidays=extra_holidays):
        day += timedelta(days=1)
    return day


def period_end(event: date, months: int, *, extra_holidays: Collection[date] = ()) -> date:
    """The last day of a period of `months` running from `event` (Art. 3(2)(c) and 3(4))."""
    return next_working_day_from(add_months(event, months), extra_holidays=extra_holidays)


DeadlineStatus = Literal["pending", "due-today", "overdue"]


def deadline_status(deadline: date, *, today: date) -> DeadlineStatus:
    """Whether a deadline (its last day included) is still open on `today`."""
    if today > deadline:
        return "overdue"
    if today == deadline:
        return "due-today"
    return "pending"


@dataclass(frozen=True, slots=True)
class ResponseDeadline:
    """Art. 12(3) deadlines for a data subject request received on `received`.

    `deadline` is one month; `extended_deadline` two further months, i.e. three months from
    receipt, both moved to the next working day under Art. 3(4) of Regulation 1182/71.
    """

    received: date
    deadline: date
    extended_deadline: date

    @property
    def extension_notice_by(self) -> date:
        """The data subject must be told of an extension, with reasons, within the first month."""
        return self.deadline

    def status(self, *, today: date, extended: bool) -> DeadlineStatus:
        """Open or overdue on `today`, against the extended deadline when the extension is used."""
        return deadline_status(self.extended_deadline if extended else self.deadline, today=today)


def response_deadline(received: date, *, extra_holidays: Collection[date] = ()) -> ResponseDeadline:
    """One month from receipt; at most two further months (three in all)."""
    return ResponseDeadline(
        received=received,
        deadline=period_end(received, 1, extra_holidays=extra_holidays),
        extended_deadline=period_end(received, 3, extra_holidays=extra_holidays),
    )
