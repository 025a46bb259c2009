"""The one country table: ISO 3166-1 codes, names in every EU language, the EEA.

A DPO writes "Irland", "Pays-Bas", "Vereinigtes Königreich", "USA" or an address ending in
"Hamburg, Germany"; every rule that depends on a country (is a transfer leaving the EEA? which
adequacy decision? which supervisory authority?) must reach the same answer from each. The
names come from the Unicode CLDR through Babel (maintained, in every official EU language
plus Icelandic and Norwegian for the EEA EFTA States), not from hand-kept lists; `EXTRA_NAMES`
adds the few common names CLDR does not give ("Holland", "UK", "England", "EL" for Greece as
the EU writes it). Membership of the EEA is one list of codes: `EEA_COUNTRIES`.

Recognition is a dictionary lookup of the text's word sequences, built once: `is_in_eea` runs
per register row. Framework-free (no Django).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache

from babel import Locale, UnknownLocaleError
from babel.core import get_global

# The EU Member States (Greece as ISO's "GR"), then the EEA EFTA States.
EEA_COUNTRIES: tuple[str, ...] = (
    "AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IE", "IT",
    "LV", "LT", "LU", "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE",
    "IS", "LI", "NO",
)  # fmt: skip

# The languages whose country names are recognised: the official EU languages, Icelandic and
# Norwegian (the EEA EFTA States; Liechtenstein writes German).
NAME_LANGUAGES: tuple[str, ...] = (
    "bg", "cs", "da", "de", "el", "en", "es", "et", "fi", "fr", "ga", "hr", "hu", "it", "lt",
    "lv", "mt", "nl", "pl", "pt", "ro", "sk", "sl", "sv", "is", "no",
)  # fmt: skip

# CLDR's two-letter regions that are not countries: groupings (EU, euro area, UN, outlying
# Oceania), test and unknown codes, and the codes ISO only reserves (Ascension, Clipperton,
# Sark, Diego Garcia, Ceuta and Melilla, Canary Islands, Tristan da Cunha), whose places
# belong to a country listed anyway. Kosovo's "XK" stays: the EU and CLDR use it.
_NOT_COUNTRY_REGIONS = frozenset(
    {"EU", "EZ", "UN", "QO", "XA", "XB", "ZZ", "AC", "CP", "CQ", "DG", "EA", "IC", "TA"}
)
# Alpha-3 codes CLDR still maps that ISO withdrew (Burma, Zaire, the GDR, metropolitan
# France, East Timor, South Yemen).
_WITHDRAWN_ALPHA3 = frozenset({"BUR", "ZAR", "DDR", "FXX", "TMP", "YMD"})

# Common names CLDR does not give, by code. "Northern Ireland" is listed so that it is read
# whole: it is in the United Kingdom, not Ireland.
EXTRA_NAMES: dict[str, tuple[str, ...]] = {
    "GR": ("EL", "Hellas"),
    "NL": ("Holland", "The Netherlands"),
    "CZ": ("Czech Republic", "Tschechische Republik", "République tchèque"),
    "SK": ("Slovak Republic",),
    "GB": (
        "UK", "U.K.", "Great Britain", "Britain", "England", "Scotland", "Wales",
        "Großbritannien", "Grande-Bretagne", "Gran Bretaña", "Gran Bretagna", "Groot-Brittannië",
        "Wielka Brytania", "England", "Angleterre", "Inglaterra", "Inghilterra", "Engeland",
        "Anglia", "Schottland", "Écosse", "Escocia", "Scozia", "Schotland", "Szkocja",
        "Northern Ireland", "Nordirland", "Irlande du Nord", "Irlanda del Norte",
        "Irlanda del Nord", "Noord-Ierland", "Irlandia Północna",
    ),
    "US": (
        "USA", "U.S.", "U.S.A.", "United States of America", "America", "Amerika",
        "EE. UU.", "EEUU",
    ),
    "KR": ("Korea", "Republic of Korea", "Republik Korea", "Corée du Sud", "Corea del Sur"),
    "KP": ("Democratic People's Republic of Korea",),
    "TR": ("Turkey", "Türkiye", "Turquia"),
    "HK": ("Hong Kong", "Hongkong"),
    "MO": ("Macau", "Macao"),
    "MM": ("Burma", "Myanmar"),
    "CI": ("Ivory Coast",),
    "CV": ("Cape Verde",),
    "FO": ("Faroes", "Faroe"),
    "MK": ("Macedonia",),
    "VA": ("Vatican", "Holy See"),
    "RU": ("Russian Federation",),
}  # fmt: skip

# Places whose names contain a country's name but name no country: read whole, they name
# nothing ("New Jersey" is not Jersey, "New South Wales" not Wales); with their country
# ("Newark, New Jersey, USA") the country is found.
NOT_COUNTRY_NAMES: tuple[str, ...] = (
    "New Jersey", "Jersey City", "New Mexico", "New England", "Rhode Island", "Long Island",
    "New South Wales", "New Guinea",
)  # fmt: skip
_NOTHING = ""  # what the index holds for them

# The EEA, or the Union, named as a whole: inside.
AREA_NAMES: tuple[str, ...] = (
    "EU", "EEA", "EWR", "UE", "EEE", "EER", "EOG", "European Union", "European Economic Area",
    "Europäische Union", "Europäischer Wirtschaftsraum", "Union européenne",
    "Espace économique européen", "Unión Europea", "Espacio Económico Europeo",
    "Unione europea", "Spazio economico europeo", "Europese Unie", "Europese Economische Ruimte",
    "Unia Europejska", "Europejski Obszar Gospodarczy",
)  # fmt: skip
_AREA = "EU"  # what the index holds for an area name (never returned as a country)

# Names that are also ordinary words or places elsewhere ("Rhode Island", "Georgia, USA",
# Spanish "cada" for Chad in Latvian): recognised only as the whole text or the last part of
# an address, like codes. Names of four letters or fewer are treated the same way, and so are
# names that start with a saint's title ("St. Martin", "San Martín", "St. Helena" are towns
# and streets in many countries besides the island territories).
_ALONE_ONLY = frozenset({"island", "georgia", "america", "amerika", "jordan", "man", "britain"})
_SHORT = 4
_SAINTS = frozenset(
    {"st", "saint", "sainte", "sankt", "san", "santa", "sao", "sint", "sveti", "sv", "svaty",
     "svata", "swiety", "sventasis", "szent", "saint-martin", "sint-maarten"}
)  # fmt: skip


def fold(text: str) -> str:
    """Lower case, accents removed, "ß" as "ss", words kept (hyphens inside them too), any
    other character a space: "Côte d'Ivoire" -> "cote d ivoire", "Pays-Bas" -> "pays-bas"."""
    decomposed = unicodedata.normalize("NFKD", str(text).casefold().replace("ß", "ss"))
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(re.findall(r"\w+(?:-\w+)*", bare))


@dataclass(frozen=True, slots=True)
class _Index:
    names: dict[str, str]  # folded name -> alpha-2 (or _AREA, _NOTHING), read anywhere
    alone: dict[str, str]  # folded code or short name -> alpha-2, read only alone
    longest: dict[str, int]  # first word of a name -> words in the longest name it starts
    alpha3: dict[str, str]  # alpha-2 -> alpha-3


@cache
def _territories(language: str) -> dict[str, str]:
    return {
        code: name
        for code, name in Locale.parse(language).territories.items()
        if len(code) == 2 and code.isalpha() and code not in _NOT_COUNTRY_REGIONS
    }


def _variants(name: str) -> set[str]:
    """The name as CLDR writes it, and as people type it: "&" as "and", without the
    parenthesis ("Myanmar (Burma)"), a hyphen as a space ("Pays Bas"), "St." as "Saint"."""
    forms = {name, name.replace("&", "and"), re.sub(r"\s*\([^)]*\)", "", name)}
    folded = {fold(form) for form in forms}
    folded |= {form.replace("-", " ") for form in folded}
    folded |= {"saint" + form[2:] for form in folded if form.startswith("st ")}
    return {form for form in folded if form}


@cache
def _index() -> _Index:
    aliases = get_global("territory_aliases")
    alpha3 = {
        targets[0]: code
        for code, targets in aliases.items()
        if len(code) == 3 and code.isalpha() and len(targets) == 1
        and code not in _WITHDRAWN_ALPHA3
    }  # fmt: skip
    countries = set(_territories("en"))
    candidates: dict[str, set[str]] = {}
    for language in NAME_LANGUAGES:
        for code, name in _territories(language).items():
            for form in _variants(name):
                candidates.setdefault(form, set()).add(code)
    # A name two languages give to different countries ("Kongo") names neither.
    names = {form: codes.pop() for form, codes in candidates.items() if len(codes) == 1}
    for code, extras in EXTRA_NAMES.items():
        for extra in extras:
            names.update(dict.fromkeys(_variants(extra), code))
    union = [Locale.parse(language).territories.get("EU", "") for language in NAME_LANGUAGES]
    names.update({form: _AREA for area in (*AREA_NAMES, *union) for form in _variants(area)})
    names.update({form: _NOTHING for place in NOT_COUNTRY_NAMES for form in _variants(place)})
    alone = {fold(code): code for code in countries}
    alone.update({fold(alpha3[code]): code for code in countries if code in alpha3})
    for form in [form for form in names if _is_alone_only(form)]:
        alone[form] = names.pop(form)
    return _Index(
        names=names,
        alone=alone,
        longest=_longest(names),
        alpha3={code: alpha3[code] for code in countries if code in alpha3},
    )


def _longest(names: dict[str, str]) -> dict[str, int]:
    longest: dict[str, int] = {}
    for form in names:
        words = form.split()
        longest[words[0]] = max(longest.get(words[0], 0), len(words))
    return longest


def _is_alone_only(form: str) -> bool:
    return form in _ALONE_ONLY or len(form.replace(" ", "")) <= _SHORT or form.split()[0] in _SAINTS


@lru_cache(maxsize=4096)
def _places(text: str) -> tuple[str, ...]:
    """The codes of the places `text` names, in the order named (_AREA for the EEA/EU)."""
    index = _index()
    words = fold(text).split()
    found: list[str] = []
    start = 0
    while start < len(words):
        # The longest name first: "Papua New Guinea" before "Guinea", "New Jersey" before
        # "Jersey".
        most = min(index.longest.get(words[start], 0), len(words) - start)
        for length in range(most, 0, -1):
            code = index.names.get(" ".join(words[start : start + length]))
            if code is not None:
                if code != _NOTHING:
                    found.append(code)
                start += length
                break
        else:
            start += 1
    # A code or short name only as the whole text or the last part of an address
    # ("Hauptstraße 1, 20095 Hamburg, DE", "Havana, Cuba", "USA (Zoom)").
    parts = re.split(r"[,;\n/]", re.sub(r"\([^)]*\)", " ", text))
    last = next((fold(part) for part in reversed(parts) if fold(part)), "")
    if last in index.alone:
        found.append(index.alone[last])
    return tuple(found)


def find_country(text: str) -> str | None:
    """The ISO 3166-1 alpha-2 code of the country `text` is or names, or None.

    Any country, by its name in any EU language (and Icelandic, Norwegian), a common name
    (`EXTRA_NAMES`), its alpha-2 or alpha-3 code, also as the last part of an address. Case and
    accents do not matter. When several are named, the last wins: "Newark, New Jersey, USA".
    """
    countries = [code for code in _places(str(text or "")) if code != _AREA]
    return countries[-1] if countries else None


def is_in_eea(country: str) -> bool:
    """True when `country` (a name in any EU language, a code, an address, or the EU/EEA
    itself) is in the EEA.

    Anything not recognised counts as a third country, so that a transfer is reported rather
    than silently assumed safe.
    """
    places = _places(str(country or ""))
    return bool(places) and (places[-1] == _AREA or places[-1] in EEA_COUNTRIES)


def alpha3(code: str) -> str:
    """The ISO 3166-1 alpha-3 code of an alpha-2 code ("EL" is Greece); "" when unknown."""
    return _index().alpha3.get(_alpha2(code), "")


def country_name(code: str, language: str) -> str:
    """The country's name in `language` (ISO 639-1), English when Babel does not know the
    language; the code itself when it names no country (a writer still shows something)."""
    alpha2 = _alpha2(code)
    try:
        names = _territories(language)
    except (UnknownLocaleError, ValueError):
        names = _territories("en")
    return names.get(alpha2) or _territories("en").get(alpha2) or code


def _alpha2(code: str) -> str:
    upper = code.strip().upper()
    return "GR" if upper == "EL" else upper
