"""Regulation (EEC, Euratom) No 1182/71 periods, as used for Art. 12(3) GDPR deadlines."""

from __future__ import annotations

from datetime import date

import pytest

from gdpr.composition.periods import (
    add_months,
    deadline_status,
    easter_sunday,
    holiday_calendar,
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


# Each Member State's own public holidays (Reg. 1182/71 Art. 2(1), 3(4)) -------------------


def test_it_counts_good_friday_as_a_working_day_in_italy() -> None:
    # 3 Mar 2026 + 1 month = Fri 3 Apr 2026, Good Friday: a working day in Italy.
    italy = holiday_calendar(country="IT")
    assert response_deadline(date(2026, 3, 3), holidays=italy).deadline == date(2026, 4, 3)
    # The common list (no Member State known) keeps today's answer.
    assert response_deadline(date(2026, 3, 3)).deadline == date(2026, 4, 7)


def test_it_counts_ascension_day_as_a_working_day_in_spain() -> None:
    # 14 Apr 2026 + 1 month = Thu 14 May 2026, Ascension Day: no public holiday in Spain.
    spain = holiday_calendar(country="ES")
    assert response_deadline(date(2026, 4, 14), holidays=spain).deadline == date(2026, 5, 14)


def test_it_applies_a_lands_own_holiday_only_in_that_land() -> None:
    # 6 Dec 2025 + 1 month = Tue 6 Jan 2026, Epiphany: a holiday in Bavaria, not in Berlin.
    bavaria = holiday_calendar(country="DE", region="BY")
    berlin = holiday_calendar(country="DE", region="BE")
    assert period_end(date(2025, 12, 6), 1, holidays=bavaria) == date(2026, 1, 7)
    assert period_end(date(2025, 12, 6), 1, holidays=berlin) == date(2026, 1, 6)


def test_it_finds_the_region_by_its_name_in_any_language() -> None:
    assert holiday_calendar(country="DE", region="Bavaria").subdivision == "BY"
    assert holiday_calendar(country="Germany", region="Freistaat Bayern").subdivision == "BY"
    assert holiday_calendar(country="ES", region="Cataluña").subdivision == "CT"
    assert holiday_calendar(country="DE", region="DE-BE").subdivision == "BE"
    assert holiday_calendar(country="DE", region="Atlantis").subdivision is None


def test_it_keeps_the_common_list_when_the_member_state_is_unknown() -> None:
    unknown = holiday_calendar(country="Narnia")
    assert unknown.country is None
    assert response_deadline(date(2026, 3, 3), holidays=unknown).deadline == date(2026, 4, 7)


def test_a_day_declared_a_working_day_counts_as_one() -> None:
    bavaria = holiday_calendar(country="DE", region="BY", working_days={date(2026, 1, 6)})
    assert is_working_day(date(2026, 1, 6), holidays=bavaria)
    assert period_end(date(2025, 12, 6), 1, holidays=bavaria) == date(2026, 1, 6)


def test_a_day_added_as_a_holiday_counts_as_one_in_any_member_state() -> None:
    italy = holiday_calendar(country="IT", added={date(2026, 4, 3)})
    assert response_deadline(date(2026, 3, 3), holidays=italy).deadline == date(2026, 4, 7)


def test_it_lists_the_weekday_holidays_of_a_period_with_their_names() -> None:
    italy = holiday_calendar(country="IT")
    listed = italy.weekday_holidays(first=date(2026, 3, 4), last=date(2026, 6, 3))
    assert [day for day, _name in listed] == [
        date(2026, 4, 6),
        date(2026, 5, 1),
        date(2026, 6, 2),
    ]  # fmt: skip  (25 Apr 2026 is a Saturday, Easter Sunday a Sunday)
    assert all(name for _day, name in listed)
