"""The request form counts Art. 12(3) periods with the controller's Member State's holidays.

Regulation 1182/71 Art. 3(4) moves a period's end past the public holidays "of the Member
State where an action is to be taken" (Art. 2(1)): the controller's, named by `country`
(and `region`), or by `companyDetails`.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from gdpr.composition import compose
from gdpr.composition.completeness import item_blocks
from gdpr.doctypes.registry import DOCUMENT_TYPES
from gdpr.i18n import activate

FORM = DOCUMENT_TYPES["DATA_SUBJECT_REQUEST_FORM"]
NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def deadline_text(language: str = "en", **inputs: Any) -> str:
    with activate(language):
        markdown = compose(document_type=FORM, inputs={"companyName": "Acme", **inputs}, now=NOW)
    return item_blocks(markdown)["deadline"][0].body


def test_an_italian_controller_answers_on_good_friday():
    text = deadline_text(country="IT", receivedAt="2026-03-03")
    assert "answer due by **2026-04-03**" in text


def test_a_spanish_controller_answers_on_ascension_day():
    text = deadline_text(country="ES", receivedAt="2026-04-14")
    assert "answer due by **2026-05-14**" in text


def test_the_country_is_read_from_the_company_address():
    text = deadline_text(
        companyDetails={"address": "Via Roma 1, 00100 Roma, Italia"}, receivedAt="2026-03-03"
    )
    assert "answer due by **2026-04-03**" in text


def test_a_lands_holiday_counts_only_in_that_land():
    # 6 Dec 2025 + 1 month = Tue 6 Jan 2026, Epiphany: a holiday in Bavaria, not in Berlin.
    bavaria = deadline_text(country="DE", region="BY", receivedAt="2025-12-06")
    berlin = deadline_text(country="DE", region="BE", receivedAt="2025-12-06")
    assert "answer due by **2026-01-07**" in bavaria
    assert "answer due by **2026-01-06**" in berlin
    assert "2026-01-06 Epiphany" in bavaria
    assert "Epiphany" not in berlin


def test_a_day_given_as_a_working_day_counts_as_one():
    text = deadline_text(
        country="DE", region="BY", receivedAt="2025-12-06", workingDays=["2026-01-06"]
    )
    assert "answer due by **2026-01-06**" in text
    assert "Counted as working days: 2026-01-06." in text


def test_the_holidays_applied_are_listed_by_date_and_name_in_the_documents_language():
    text = deadline_text("de", country="DE", region="Bayern", receivedAt="2026-03-03")
    assert "03.04.2026 Karfreitag" in text
    assert "Bayern" in text and "Deutschland" in text


def test_an_unknown_member_state_keeps_the_common_list_and_asks_for_it():
    text = deadline_text(receivedAt="2026-03-03")
    assert "answer due by **2026-04-07**" in text
    assert "**[To be completed]**" in text
    assert "Member State" in text
    assert "2026-04-03 Good Friday" in text
