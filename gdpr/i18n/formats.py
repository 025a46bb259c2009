"""Dates and numbers in each language's conventions (English keeps ISO 8601 and 1,234)."""

from __future__ import annotations

from datetime import UTC, date, datetime

from gdpr.i18n.translation import current_language

_DATE_FORMATS = {"de": "%d.%m.%Y", "fr": "%d/%m/%Y", "es": "%d/%m/%Y", "it": "%d/%m/%Y"}
# Thousands separators: German, Spanish and Italian use a dot; French a narrow no-break space.
_GROUPING = {"de": ".", "fr": "\u202f", "es": ".", "it": "."}


def format_date(value: date, language: str | None = None) -> str:
    """A calendar date: 2026-03-02 (en), 02.03.2026 (de), 02/03/2026 (fr, es, it)."""
    language = language or current_language()
    if isinstance(value, datetime):
        value = value.date()
    pattern = _DATE_FORMATS.get(language)
    return value.strftime(pattern) if pattern else value.isoformat()


def format_datetime(value: datetime, language: str | None = None) -> str:
    """A UTC moment: 2026-03-01T08:30:00Z (en), 01.03.2026 08:30 UTC (de), ..."""
    language = language or current_language()
    moment = value.astimezone(UTC).replace(microsecond=0)
    if language not in _DATE_FORMATS:
        return moment.isoformat().replace("+00:00", "Z")
    return f"{format_date(moment.date(), language)} {moment:%H:%M} UTC"


def format_number(value: int, language: str | None = None) -> str:
    """An integer with the language's thousands separator: 4,800 / 4.800 / 4 800."""
    language = language or current_language()
    grouped = f"{int(value):,}"
    return grouped.replace(",", _GROUPING[language]) if language in _GROUPING else grouped


def format_decimal(value: float, digits: int = 0, language: str | None = None) -> str:
    """A fixed-point number with the language's decimal mark (no grouping)."""
    language = language or current_language()
    text = f"{value:.{digits}f}"
    return text.replace(".", ",") if language in _GROUPING else text
