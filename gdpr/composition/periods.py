"""Periods computed as Regulation (EEC, Euratom) No 1182/71 computes them.

The GDPR sets its deadlines in months (Art. 12(3): one month, extendable by two further
months); Regulation 1182/71 is how EU law counts such periods:
- Art. 3(1): the day of the event (here: receipt of the request) is not counted;
- Art. 3(2)(c): a period in months ends at the end of the day of the last month with the same
  date as the day of the event, or at the end of that month's last day when it has no such
  date (31 January + 1 month = 28/29 February);
- Art. 3(4): a period that would end on a Saturday, Sunday or public holiday ends at the end
  of the following working day;
- Art. 2(1): the public holidays are those of the Member State (or institution) where the
  action is to be taken: for an answer to a data subject, the controller's Member State.

A `HolidayCalendar` holds the public holidays of one Member State and, where they differ,
region (the `holidays` package: German Länder, Spanish autonomous communities...), with days
the controller adds (`added`) or counts as working days (`removed`). Without a Member State
it falls back to the days common to the Member States (`public_holidays`: 1 January, 1 May,
25 and 26 December, Good Friday, Easter Monday, Ascension Day, Whit Monday), which callers
must present as a fallback: Good Friday is a working day in Italy, Ascension Day in Spain.
"""

from __future__ import annotations

import calendar
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import lru_cache
from typing import Literal

import holidays as holiday_tables

from gdpr.authorities import find_country, find_german_state
from gdpr.i18n import N_, _, current_language

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


def common_holidays(year: int) -> dict[date, str]:
    """The days common to the Member States (HOLIDAYS_SUPPORTED), each with its name (msgid)."""
    easter = easter_sunday(year)
    return {
        date(year, 1, 1): N_("New Year's Day"),
        easter - timedelta(days=2): N_("Good Friday"),
        easter + timedelta(days=1): N_("Easter Monday"),
        date(year, 5, 1): N_("Labour Day"),
        easter + timedelta(days=39): N_("Ascension Day"),
        easter + timedelta(days=50): N_("Whit Monday"),
        date(year, 12, 25): N_("Christmas Day"),
        date(year, 12, 26): N_("St Stephen's Day"),
    }


def public_holidays(year: int) -> frozenset[date]:
    """The days common to the Member States in `year` (see HOLIDAYS_SUPPORTED)."""
    return frozenset(common_holidays(year))


@lru_cache(maxsize=256)
def holiday_language(country: str, language: str) -> str:
    """The `holidays` package's language for `country`'s holiday names in `language`
    ("it" -> "it_IT"), else the country's own. Always explicit: without one the package
    follows the process's locale, and the same document would vary with the server."""
    table = holiday_tables.country_holidays(country)
    own = str(table.default_language)
    if own.split("_")[0] == language:
        return own
    supported = [str(code) for code in table.supported_languages]
    if language == "en" and "en_US" in supported:
        return "en_US"
    return next((code for code in supported if code.split("_")[0] == language), own)


@lru_cache(maxsize=256)
def _member_state_holidays(
    country: str, subdivision: str | None, year: int, language: str
) -> dict[date, str]:
    table = holiday_tables.country_holidays(
        country, subdiv=subdivision, years=year, language=language
    )
    return dict(table.items())


@dataclass(frozen=True, slots=True)
class HolidayCalendar:
    """The public holidays that end a period later (Art. 3(4)): those of `country` (ISO
    3166-1 alpha-2) and `subdivision` (a `holidays` package code, e.g. "BY"), or the common
    list when `country` is None; plus `added` days, minus `removed` ones (working days there).
    """

    country: str | None = None
    subdivision: str | None = None
    added: frozenset[date] = field(default_factory=frozenset)
    removed: frozenset[date] = field(default_factory=frozenset)

    def named_holidays(self, year: int) -> dict[date, str]:
        """The holidays of `year` with their names in the current language where the
        `holidays` package has them (else its own); added days are unnamed ("")."""
        if self.country is None:
            found = {day: _(name) for day, name in common_holidays(year).items()}
        else:
            language = holiday_language(self.country, current_language())
            found = dict(_member_state_holidays(self.country, self.subdivision, year, language))
        found.update(dict.fromkeys((day for day in self.added if day.year == year), ""))
        return {day: name for day, name in found.items() if day not in self.removed}

    def is_holiday(self, day: date) -> bool:
        """A public holiday, whatever the weekday."""
        if day in self.removed:
            return False
        return day in self.added or day in self.named_holidays(day.year)

    def weekday_holidays(self, *, first: date, last: date) -> list[tuple[date, str]]:
        """The holidays from `first` to `last` that fall Monday to Friday (those on a weekend
        change nothing), in date order, named as in `named_holidays`."""
        found: dict[date, str] = {}
        for year in range(first.year, last.year + 1):
            found.update(self.named_holidays(year))
        return sorted(
            (day, name) for day, name in found.items() if first <= day <= last and day.weekday() < 5
        )


COMMON_CALENDAR = HolidayCalendar()


def _subdivision_code(country: str, region: str) -> str | None:
    """The `holidays` code of the region `region` names: its code ("BY", "DE-BY") or one of
    the package's names for it ("Bayern"); in Germany any name `gdpr.authorities` knows."""
    table = holiday_tables.country_holidays(country)
    codes = {str(code).casefold(): str(code) for code in table.subdivisions}
    aliases = {str(name).casefold(): str(code) for name, code in table.subdivisions_aliases.items()}
    wanted = region.strip().casefold()
    wanted = wanted.removeprefix(f"{country.casefold()}-")
    found = codes.get(wanted) or aliases.get(wanted)
    if found is None and country == "DE":  # the Länder in five languages
        state = find_german_state(region)
        found = aliases.get(state.casefold()) if state else None
    return found


def holiday_region_name(country: str, subdivision: str) -> str:
    """The region's name as the `holidays` package knows it ("Bayern"), else its code."""
    aliases = holiday_tables.country_holidays(country).subdivisions_aliases
    return next((str(name) for name, code in aliases.items() if code == subdivision), subdivision)


def has_regional_holidays(country: str) -> bool:
    """Whether some regions of `country` have public holidays of their own."""
    return bool(holiday_tables.country_holidays(country).subdivisions)


def holiday_calendar(
    *,
    country: str | None,
    region: str | None = None,
    added: Iterable[date] = (),
    working_days: Iterable[date] = (),
) -> HolidayCalendar:
    """The calendar of the Member State `country` names (a code or a name, as
    `gdpr.authorities.find_country` reads it) and of its region `region` names, when known.

    An unknown country gives the common list (`country` None); an unknown region, the
    country's nationwide holidays (`subdivision` None).
    """
    code = find_country(country or "")
    if code is not None and code not in holiday_tables.list_supported_countries():
        code = None
    subdivision = _subdivision_code(code, region) if code and region else None
    return HolidayCalendar(
        country=code,
        subdivision=subdivision,
        added=frozenset(added),
        removed=frozenset(working_days),
    )


def is_working_day(
    day: date, *, extra_holidays: Collection[date] = (), holidays: HolidayCalendar | None = None
) -> bool:
    """Not a Saturday, a Sunday or a public holiday (of `holidays`, default the common list)."""
    calendar_used = holidays or COMMON_CALENDAR
    return day.weekday() < 5 and day not in extra_holidays and not calendar_used.is_holiday(day)


def next_working_day_from(
    day: date, *, extra_holidays: Collection[date] = (), holidays: HolidayCalendar | None = None
) -> date:
    """`day` itself when it is a working day, else the first working day after it."""
    while not is_working_day(day, extra_holidays=extra_holidays, holidays=holidays):
        day += timedelta(days=1)
    return day


def period_end(
    event: date,
    months: int,
    *,
    extra_holidays: Collection[date] = (),
    holidays: HolidayCalendar | None = None,
) -> date:
    """The last day of a period of `months` running from `event` (Art. 3(2)(c) and 3(4))."""
    return next_working_day_from(
        add_months(event, months), extra_holidays=extra_holidays, holidays=holidays
    )


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


def response_deadline(
    received: date,
    *,
    extra_holidays: Collection[date] = (),
    holidays: HolidayCalendar | None = None,
) -> ResponseDeadline:
    """One month from receipt; at most two further months (three in all)."""
    return ResponseDeadline(
        received=received,
        deadline=period_end(received, 1, extra_holidays=extra_holidays, holidays=holidays),
        extended_deadline=period_end(received, 3, extra_holidays=extra_holidays, holidays=holidays),
    )
