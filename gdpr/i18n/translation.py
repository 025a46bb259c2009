"""The active language of a composition and the lookup of marked strings.

`compose()` activates the document's language for the duration of the call (a contextvar,
so concurrent compositions in threads or tasks do not see each other's language); writers
call `_("...")` or `_("... {name}", name=value)` without threading the language through
every function. Strings evaluated at import time (declarations, label tables) are marked
with `N_()` for the extractor and translated where they are shown, with `_(value)`. A text
with a count is marked with `ngettext("{days} day left.", "{days} days left.", n, days=n)`:
the form follows each language's plural rule (French: 0 and 1 are singular).

In English `_()` returns the msgid itself, formatted: the English text is the code's own.
In another language the compiled catalog (all domains, `catalog.py`) translates it; an
untranslated msgid falls back to English. Article references written in the English short form
("Art. 6(1)(f)") are rendered in the language's official citation form.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from gdpr.i18n.catalog import catalog, typeset
from gdpr.i18n.citations import localize_citations
from gdpr.i18n.languages import DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES

_LANGUAGE: ContextVar[str] = ContextVar("gdpr_language", default=DEFAULT_LANGUAGE)
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


class UnsupportedLanguage(ValueError):  # noqa: N818 - reads as the situation
    """A language code outside SUPPORTED_LANGUAGES."""

    def __init__(self, language: object) -> None:
        super().__init__(language)
        self.language = language

    def __str__(self) -> str:
        return f"Unsupported language {self.language!r}; expected one of: " + ", ".join(
            SUPPORTED_LANGUAGES
        )


def current_language() -> str:
    """The language `_()` translates into (English unless a composition activated another)."""
    return _LANGUAGE.get()


@contextmanager
def activate(language: str | None) -> Iterator[str]:
    """Make `language` current for the block; None keeps the current one."""
    if language is None:
        yield current_language()
        return
    if language not in SUPPORTED_LANGUAGES:
        raise UnsupportedLanguage(language)
    token = _LANGUAGE.set(language)
    try:
        yield language
    finally:
        _LANGUAGE.reset(token)


def gettext(message: str, /, **values: object) -> str:
    """`message` in the current language, its `{name}` placeholders filled from `values`.

    Values are inserted as given (user text is escaped by the caller, never re-read as a
    placeholder or a citation); a placeholder without a value is left as written.
    """
    language = _LANGUAGE.get()
    text = message
    if language != DEFAULT_LANGUAGE:
        text = _localized(language, message, catalog(language).gettext(message))
    return _filled(text, values)


def ngettext(singular: str, plural: str, n: int, /, **values: object) -> str:
    """The form of `singular`/`plural` for the count `n` in the current language, filled.

    The count is shown through a placeholder like any value (`days=n`), so that the
    language's number format applies where the caller formats it.
    """
    language = _LANGUAGE.get()
    text = singular if n == 1 else plural
    if language != DEFAULT_LANGUAGE:
        text = _localized(language, text, catalog(language).ngettext(singular, plural, n))
    return _filled(text, values)


def _localized(language: str, english: str, found: str) -> str:
    # The catalog answers the English text itself when it has no translation: typography is
    # the translation's, but citations are rewritten in both (the English text uses the
    # short form "Art. 6(1)(f)" whatever the language).
    text = typeset(language, found) if found != english else english
    return localize_citations(text, language)


def _filled(text: str, values: dict[str, object]) -> str:
    if not values:
        return text
    return _PLACEHOLDER.sub(
        lambda match: format(values[match[1]]) if match[1] in values else match[0], text
    )


def in_every_language(message: str) -> frozenset[str]:
    """`message` as written in each supported language (to recognise our own text in any)."""
    found = {message}
    for language in SUPPORTED_LANGUAGES:
        with activate(language):
            found.add(gettext(message))
    return frozenset(found)


def gettext_noop(message: str) -> str:
    """Marks a string evaluated at import time for extraction; translated where shown."""
    return message


_ = gettext
N_ = gettext_noop
