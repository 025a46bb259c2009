"""Documents in the reader's language: en, de, fr, es, it (issue 18).

- `languages`: the supported languages and COMPLETE_LANGUAGES (those the API accepts);
- `translation`: the language of the current composition (`activate`), `_()`, `N_()` and
  `ngettext()` (a text with a count, in the form the language's plural rule asks for);
- `catalog`: the compiled gettext catalogs `locale/<lang>/<domain>.mo`, read with `gettext`;
- `citations`: article references in each language's official form;
- `formats`: dates and numbers in each language's conventions;
- `extract`: `python -m gdpr.i18n.extract` (make catalogs) builds every catalog with Babel.
"""

from gdpr.i18n.citations import cite, localize_citations, mid_sentence
from gdpr.i18n.formats import (
    cite_reference,
    format_date,
    format_datetime,
    format_decimal,
    format_number,
    join_list,
    lower_label,
    punct,
)
from gdpr.i18n.languages import (
    COMPLETE_LANGUAGES,
    DEFAULT_LANGUAGE,
    LANGUAGE_NAMES,
    SUPPORTED_LANGUAGES,
)
from gdpr.i18n.translation import (
    N_,
    UnsupportedLanguage,
    _,
    activate,
    current_language,
    gettext,
    gettext_noop,
    in_every_language,
    ngettext,
)

__all__ = [
    "COMPLETE_LANGUAGES",
    "DEFAULT_LANGUAGE",
    "LANGUAGE_NAMES",
    "N_",
    "SUPPORTED_LANGUAGES",
    "UnsupportedLanguage",
    "_",
    "activate",
    "cite",
    "cite_reference",
    "current_language",
    "format_date",
    "format_datetime",
    "format_decimal",
    "format_number",
    "gettext",
    "gettext_noop",
    "in_every_language",
    "join_list",
    "localize_citations",
    "lower_label",
    "mid_sentence",
    "ngettext",
    "punct",
]
