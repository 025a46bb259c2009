"""Dates and numbers in each language's conventions (English keeps ISO 8601 and 1,234)."""

from __future__ import annotations

from datetime import UTC, date, datetime

from gdpr.i18n.citations import cite
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


_AND = {"en": "and", "de": "und", "fr": "et", "es": "y", "it": "e"}


def join_list(items: list[str] | tuple[str, ...], language: str | None = None) -> str:
    """ "a and b", "a, b and c" with the language's "and" (never a literal English word)."""
    language = language or current_language()
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {_AND.get(language, 'and')} " + items[-1]


# French typography: a no-break space before ":", ";", "?" and "!".
_SPACED_PUNCTUATION = {"fr": "\u00a0"}


def punct(mark: str, language: str | None = None) -> str:
    """A separator written by the code (":", ";"), spaced as the language requires
    ("\u00a0:" in French); msgstrs carry their own typography."""
    language = language or current_language()
    return _SPACED_PUNCTUATION.get(language, "") + mark


def lower_label(label: str, language: str | None = None) -> str:
    """A label placed inside a sentence: lower-cased, except German nouns keep their capital."""
    language = language or current_language()
    return label if language == "de" else label.lower()


def cite_reference(reference: str, language: str | None = None) -> str:
    """A reference built by the code ("Art. 9(2)(a)", the letter known only at run time) in
    the language's citation form; English keeps the code's own short form, without "GDPR"."""
    language = language or current_language()
    return cite(reference, language, with_law=language != "en")
