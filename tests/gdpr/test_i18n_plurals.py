"""A count is written in the singular or the plural its language's rule asks for.

The request form said "1 days left"; French counts 0 and 1 as singular (Plural-Forms
`n > 1`), the other four languages only 1 (`n != 1`).
"""

from __future__ import annotations

from datetime import UTC, datetime
from io import BytesIO

import pytest
from babel.messages.pofile import read_po

from gdpr.composition import compose
from gdpr.composition.completeness import item_blocks
from gdpr.doctypes.registry import DOCUMENT_TYPES
from gdpr.i18n import activate, ngettext
from gdpr.i18n.catalog import po_path
from gdpr.i18n.extract import TRANSLATED_LANGUAGES

FORM = DOCUMENT_TYPES["DATA_SUBJECT_REQUEST_FORM"]
MONDAY = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
SATURDAY = datetime(2026, 2, 28, 12, 0, tzinfo=UTC)


def deadline_text(language: str, received: str, now: datetime) -> str:
    inputs = {"companyName": "Acme", "country": "DE", "receivedAt": received}
    with activate(language):
        markdown = compose(document_type=FORM, inputs=inputs, now=now)
    return item_blocks(markdown)["deadline"][0].body


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        ("en", "pending, 1 day left.", "pending, 2 days left."),
        ("de", "offen, noch 1 Tag.", "offen, noch 2 Tage."),
        ("fr", "en cours, 1 jour restant.", "en cours, 2 jours restants."),
        ("es", "pendiente, queda 1 día.", "pendiente, quedan 2 días."),
        ("it", "in corso, 1 giorno rimanente.", "in corso, 2 giorni rimanenti."),
    ],
)
def test_the_days_left_on_the_request_form_agree_with_their_count(
    language: str, one: str, two: str
) -> None:
    # Received on 3 (4) February: due on Tuesday 3 (Wednesday 4) March; today is Monday 2.
    assert one in deadline_text(language, "2026-02-03", MONDAY)
    assert two in deadline_text(language, "2026-02-04", MONDAY)


@pytest.mark.parametrize(
    ("language", "one", "three"),
    [
        ("en", "(1 day ago,", "(3 days ago,"),
        ("de", "(vor 1 Tag,", "(vor 3 Tagen,"),
        ("fr", "(il y a 1 jour,", "(il y a 3 jours,"),
        ("es", "(hace 1 día,", "(hace 3 días,"),
        ("it", "(1 giorno fa,", "(3 giorni fa,"),
    ],
)
def test_the_days_overdue_on_the_request_form_agree_with_their_count(
    language: str, one: str, three: str
) -> None:
    # Due on Friday 27 February: one day late on Saturday, three on Monday.
    assert one in deadline_text(language, "2026-01-27", SATURDAY)
    assert three in deadline_text(language, "2026-01-27", MONDAY)


def test_french_counts_zero_as_singular_where_english_counts_it_as_plural() -> None:
    singular = "Status on {today}: pending, {days} day left."
    plural = "Status on {today}: pending, {days} days left."
    with activate("fr"):
        assert ngettext(singular, plural, 0, today="x", days=0).endswith("0 jour restant.")
    assert ngettext(singular, plural, 0, today="x", days=0).endswith("0 days left.")


def test_every_catalog_declares_its_languages_plural_rule() -> None:
    expected = {"de": "(n != 1)", "fr": "(n > 1)", "es": "(n != 1)", "it": "(n != 1)"}
    for language in TRANSLATED_LANGUAGES:
        with po_path(language, "data_subject_request_form").open("rb") as handle:
            catalog = read_po(BytesIO(handle.read()), locale=language)
        assert catalog.plural_forms == f"nplurals=2; plural={expected[language]};"
