"""Regulation (EEC, Euratom) No 1182/71 periods, as used for Art. 12(3) GDPR deadlines."""

from __future__ import annotations

from datetime import date

import pytest

from gdpr.composition.periods import (
    add_months,
    deadline_status,
    easter_sunday,
    is_working_day,
    period_end,
    public_holidays,
    response_deadline,
)


@pytest.mark.parametrize(
    ("year", "easter"),
    [(2024, date(2024, 3, 31)), (2025, date(2025, 4, 20)), (2026, date(2026, 4, 5)),
     (2027, date(2027, 3, 28)), (2038, date(2038, 4, 25))],
)  # fmt: skip
def test_easter_sunday(year: int, easter: date) -> None:
    assert easter_sunday(year) == easter


def test_easter_based_and_fixed_holidays_2026() -> None:
    holidays = public_holidays(2026)
    for day in (
        date(2026, 1, 1), date(2026, 4, 3), date(2026, 4, 6), date(2026, 5, 1),
        date(2026, 5, 14), date(2026, 5, 25), date(2026, 12, 25), date(2026, 12, 26),
    ):  # fmt: skip
        assert day in holidays
    assert len(holidays) == 8


def test_a_month_ends_on_the_same_date_or_the_last_day_of_a_shorter_month() -> None:
    assert add_months(date(2026, 3, 10), 1) == date(2026, 4, 10)
    assert add_months(date(2026, 1, 31), 1) == date(2026, 2, 28)
    assert add_months(date(2028, 1, 31), 1) == date(2028, 2, 29)
    assert add_months(date(2026, 11, 30), 3) == date(2027, 2, 28)


def test_a_period_ending_on_a_weekend_or_holiday_ends_on_the_next_working_day() -> None:
    assert period_end(date(2026, 1, 31), 1) == date(2026, 3, 2)  # Sat 28 Feb -> Mon 2 Mar
    assert period_end(date(2026, 3, 6), 1) == date(2026, 4, 7)  # Mon 6 Apr Easter Monday
    assert period_end(date(2026, 11, 25), 1) == date(2026, 12, 28)  # 25-27 Dec
    assert period_end(date(2026, 3, 10), 1) == date(2026, 4, 10)  # a Friday stays


def test_extra_national_holidays_are_honoured() -> None:
    german_unity = date(2026, 10, 5)  # a Monday, declared as an extra holiday for the test
    assert is_working_day(german_unity)
    assert period_end(date(2026, 9, 5), 1, extra_holidays={german_unity}) == date(2026, 10, 6)


def test_response_deadline_and_extension() -> None:
    deadline = response_deadline(date(2026, 1, 31))
    assert deadline.deadline == date(2026, 3, 2)
    assert deadline.extended_deadline == date(2026, 4, 30)
    assert deadline.status(today=date(2026, 3, 3), extended=False) == "overdue"
    assert deadline.status(today=date(2026, 3, 3), extended=True) == "pending"


def test_deadline_status() -> None:
    assert deadline_status(date(2026, 3, 2), today=date(2026, 3, 1)) == "pending"
    assert deadline_status(date(2026, 3, 2), today=date(2026, 3, 2)) == "due-today"
    assert deadline_status(date(2026, 3, 2), today=date(2026, 3, 3)) == "overdue"
