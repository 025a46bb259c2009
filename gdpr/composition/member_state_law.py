"""The law and the courts of an EEA State, named in the document's language.

A contract names its governing law and its courts ("the law of Germany", Decision (EU) 2021/914
Clauses 17 and 18). Written from the country code, the phrase is the document's own words in
each language ("deutsches Recht", "le droit allemand"); a law typed by the user is recognised
only when it does no more than name a country, since a longer text may carry conditions
("excluding its conflict-of-laws rules") that a rewritten phrase would drop.

Translators: each phrase stands where the sentence needs a subject or object without a
preposition (de nominative: "Auf diesen Vertrag findet {law} Anwendung").
"""

from __future__ import annotations

from gdpr.authorities import find_country
from gdpr.concepts import recognise
from gdpr.i18n import N_, _

# A country named with at most this many words ("the law of Germany", "Recht der
# Bundesrepublik Deutschland") is only a country; more words may be conditions.
_MAX_WORDS = 5

# ISO 3166-1 alpha-2 (as gdpr.authorities.find_country gives it) -> (law, courts).
PHRASES: dict[str, tuple[str, str]] = {
    "AT": (N_("the law of Austria"), N_("the courts of Austria")),
    "BE": (N_("the law of Belgium"), N_("the courts of Belgium")),
    "BG": (N_("the law of Bulgaria"), N_("the courts of Bulgaria")),
    "HR": (N_("the law of Croatia"), N_("the courts of Croatia")),
    "CY": (N_("the law of Cyprus"), N_("the courts of Cyprus")),
    "CZ": (N_("the law of the Czech Republic"), N_("the courts of the Czech Republic")),
    "DK": (N_("the law of Denmark"), N_("the courts of Denmark")),
    "EE": (N_("the law of Estonia"), N_("the courts of Estonia")),
    "FI": (N_("the law of Finland"), N_("the courts of Finland")),
    "FR": (N_("the law of France"), N_("the courts of France")),
    "DE": (N_("the law of Germany"), N_("the courts of Germany")),
    "GR": (N_("the law of Greece"), N_("the courts of Greece")),
    "HU": (N_("the law of Hungary"), N_("the courts of Hungary")),
    "IE": (N_("the law of Ireland"), N_("the courts of Ireland")),
    "IT": (N_("the law of Italy"), N_("the courts of Italy")),
    "LV": (N_("the law of Latvia"), N_("the courts of Latvia")),
    "LT": (N_("the law of Lithuania"), N_("the courts of Lithuania")),
    "LU": (N_("the law of Luxembourg"), N_("the courts of Luxembourg")),
    "MT": (N_("the law of Malta"), N_("the courts of Malta")),
    "NL": (N_("the law of the Netherlands"), N_("the courts of the Netherlands")),
    "PL": (N_("the law of Poland"), N_("the courts of Poland")),
    "PT": (N_("the law of Portugal"), N_("the courts of Portugal")),
    "RO": (N_("the law of Romania"), N_("the courts of Romania")),
    "SK": (N_("the law of Slovakia"), N_("the courts of Slovakia")),
    "SI": (N_("the law of Slovenia"), N_("the courts of Slovenia")),
    "ES": (N_("the law of Spain"), N_("the courts of Spain")),
    "SE": (N_("the law of Sweden"), N_("the courts of Sweden")),
    "IS": (N_("the law of Iceland"), N_("the courts of Iceland")),
    "LI": (N_("the law of Liechtenstein"), N_("the courts of Liechtenstein")),
    "NO": (N_("the law of Norway"), N_("the courts of Norway")),
}


def _named(text: str) -> tuple[str, ...]:
    """The EEA States `text` names: by the adjective of its law, else by name or code."""
    # Adjectives first: find_country reads the Spanish article "el" as Greece's EU code.
    adjectives = recognise("member-state-law", text)
    if adjectives:
        return adjectives
    code = find_country(text)
    return (code,) if code else ()


def names_member_state_law(text: str) -> bool:
    """True when `text` names the law of an EEA State, in any language ("deutsches Recht")."""
    return bool(_named(text))


def member_state_of(text: str) -> str | None:
    """The one EEA State a short text names ("the law of Germany", "DE", "German law")."""
    if len(text.split()) > _MAX_WORDS:
        return None
    named = _named(text)
    return named[0] if len(named) == 1 and named[0] in PHRASES else None


def law_of(code: str) -> str:
    """The law of the EEA State `code`, in the current language."""
    return _(PHRASES[code][0])


def courts_of(code: str) -> str:
    """The courts of the EEA State `code`, in the current language."""
    return _(PHRASES[code][1])
