"""The compiled gettext catalogs of each language, read with the standard `gettext` module.

Catalogs live in `locale/<lang>/<domain>.po`, one file per domain so that translators never
edit the same file, each compiled to `locale/<lang>/<domain>.mo` beside it; the templates in
`locale/templates/<domain>.pot`. `python -m gdpr.i18n.extract` writes all three with Babel
(`extract.py`); the `.mo` files are committed, so running the service needs no toolchain.
At run time the domains of a language are chained into one translation (a msgid belongs to
exactly one domain, see `extract.py`). Fuzzy and empty translations are not compiled: the
English text is used instead.
"""

from __future__ import annotations

import gettext
import re
from functools import cache
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
TEMPLATES_DIR = LOCALE_DIR / "templates"


def domains() -> list[str]:
    """The domains with a template, sorted."""
    return sorted(path.stem for path in TEMPLATES_DIR.glob("*.pot"))


def po_path(language: str, domain: str) -> Path:
    """The translators' catalog of one language and domain."""
    return LOCALE_DIR / language / f"{domain}.po"


def mo_path(language: str, domain: str) -> Path:
    """The compiled catalog of one language and domain, read at run time."""
    return LOCALE_DIR / language / f"{domain}.mo"


def translations_from(files: list[Path]) -> gettext.NullTranslations:
    """The compiled catalogs `files`, chained: the first that knows a msgid translates it."""
    chain = gettext.NullTranslations()
    for path in files:
        with path.open("rb") as handle:
            chain.add_fallback(gettext.GNUTranslations(handle))
    return chain


@cache
def catalog(language: str) -> gettext.NullTranslations:
    """Every domain of a language (none for the source language), read once per process."""
    return translations_from(sorted((LOCALE_DIR / language).glob("*.mo")))


# French typography: a no-break space before ":", ";", "?" and "!", as `punct()` writes it for
# the code's own separators. Translators type a plain space; the catalog keeps that (easier to
# edit and review) and the no-break space is put in when a translation is looked up, so that a
# line never breaks before the mark and every French text follows one convention.
_FRENCH_SPACE_BEFORE_MARK = re.compile(r" (?=[:;?!](?:\s|$|[*)»]))")


def typeset(language: str, text: str) -> str:
    """A translation with the typography of its language applied (French spacing)."""
    if language != "fr":
        return text
    return _FRENCH_SPACE_BEFORE_MARK.sub("\u00a0", text)
