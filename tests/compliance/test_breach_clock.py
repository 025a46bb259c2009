"""The 72-hour clock of an open breach as the start page draws it, against a fixed clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from compliance.breach_clock import breach_clock
from gdpr.composition.assessments.breach_deadline import notification_deadline

AWARE = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("elapsed", "state", "percent"),
    [
        (timedelta(0), "running", 0),
        (timedelta(hours=18), "running", 25),
        (timedelta(hours=47, minutes=59), "running", 66),
        (timedelta(hours=48), "near", 66),  # the last 24 hours: amber
        (timedelta(hours=71, minutes=59), "near", 99),
        (timedelta(hours=72), "near", 100),  # the deadline itself is still in time
        (timedelta(hours=72, seconds=1), "overdue", 100),  # red, and the bar stays full
        (timedelta(hours=200), "overdue", 100),
    ],
)
def test_the_bar_fills_with_the_hours_since_awareness_and_turns_red_past_72(
    elapsed, state, percent
):
    clock = breach_clock(notification_deadline(AWARE, AWARE + elapsed))

    assert (clock.state, clock.percent) == (state, percent)
    assert clock.elapsed_hours == pytest.approx(elapsed.total_seconds() / 3600)


def test_each_state_has_its_own_colour():
    colours = {
        breach_clock(notification_deadline(AWARE, AWARE + timedelta(hours=hours))).colour
        for hours in (1, 50, 80)
    }

    assert len(colours) == 3
    assert breach_clock(notification_deadline(AWARE, AWARE + timedelta(hours=80))).colour == (
        "#ba2121"
    )


def test_a_clock_read_before_awareness_shows_an_empty_bar():
    clock = breach_clock(notification_deadline(AWARE, AWARE - timedelta(hours=2)))

    assert (clock.state, clock.percent, clock.elapsed_hours) == ("running", 0, 0)
