"""The languages a document can be written in, and those whose catalogs are complete.

A translator adds their language to COMPLETE_LANGUAGES once every msgid of every domain in
`locale/<lang>/` is translated and the stop-word test passes for it (docs/i18n/README.md).
The API accepts only complete languages: a half-translated document is not offered.
"""

from __future__ import annotations

from typing import Final

DEFAULT_LANGUAGE: Final = "en"
SUPPORTED_LANGUAGES: Final[tuple[str, ...]] = ("en", "de", "fr", "es", "it")
# Extended by translators (en is the source language: its text is the code's own).
COMPLETE_LANGUAGES: Final[tuple[str, ...]] = ("en", "de", "it")

LANGUAGE_NAMES: Final[dict[str, str]] = {
    "en": "English",
    "de": "Deutsch",
    "fr": "Français",
    "es": "Español",
    "it": "Italiano",
}
