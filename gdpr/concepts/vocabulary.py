"""One recogniser for every concept the engine reasons with, in every language.

A DPO writes "Gesundheitsdaten", "données de santé" or "health data"; the rules must reach the
same conclusion from each. The words are data (`data/<scheme>.json`, one file per scheme of
concepts: data categories, security measures, legal bases...), never regular expressions in
the writers. Each concept has terms in en, de, fr, es, it (nl, pl where given); recognition
looks for the terms of *every* language in any text, so the conclusion never depends on the
language of the document or of the DPO.

Term syntax (after folding: lower case, accents removed, "ß" as "ss", every character that is
not a letter or digit a space):
- words separated by spaces must follow each other in the text;
- each word matches a word of the text that *starts* with it: "berechtigt interess" matches
  "berechtigtes Interesse", "health" matches "healthcare" (plurals and inflections);
- a leading "~" lets the first word start inside a word of the text, for compounds whose head
  comes last: "~gesundheit" matches "Mitarbeitergesundheitsdaten";
- a leading "=" makes every word match a whole word only: "=eu" does not match "euro";
- "..." between two words lets up to three other words stand between them:
  "registr ... acces" matches "Registro centralizado de los accesos" (Romance languages put
  adjectives and articles where English has none);
- a leading "!" makes an exception: the concept is not named by a match that lies inside the
  exception's match ("!coordonnees bancair" under contact data: bank details are not a way
  to contact someone).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parent / "data"
# Languages every concept must have terms in (tests/gdpr/test_concepts.py checks it).
REQUIRED_LANGUAGES: tuple[str, ...] = ("en", "de", "fr", "es", "it")
_WORD_CHAR = "a-z0-9"


def fold(text: str) -> str:
    """Lower case, accents removed, "ß" as "ss", anything but letters and digits a space."""
    decomposed = unicodedata.normalize("NFKD", str(text).casefold().replace("ß", "ss"))
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(re.sub(r"[^a-z0-9]+", " ", bare).split())


_GAP = rf"(?:[{_WORD_CHAR}]+ ){{0,3}}"


def _term_pattern(term: str) -> str:
    inside = term.startswith("~")
    whole = term.startswith("=")
    words = [
        part
        for word in term.lstrip("~=").split()
        for part in ([word] if word == "..." else fold(word).split())
    ]
    if not words or "..." in (words[0], words[-1]):
        raise ValueError(f"Empty term or a gap at its edge: {term!r}")
    pattern = ""
    for index, word in enumerate(words):
        if index and words[index - 1] != "...":
            pattern += " "
        if word == "...":
            pattern += _GAP
            continue
        start = "" if (inside and index == 0) else rf"(?<![{_WORD_CHAR}])"
        end = rf"(?![{_WORD_CHAR}])" if whole else rf"[{_WORD_CHAR}]*"
        pattern += f"{start}{re.escape(word)}{end}"
    return pattern


@dataclass(frozen=True, slots=True)
class Concept:
    """One concept: its code, the group it belongs to, its attributes and its terms."""

    scheme: str
    code: str
    label: str
    terms: Mapping[str, tuple[str, ...]]
    group: str | None = None
    attributes: Mapping[str, Any] = field(default_factory=dict)
    pattern: re.Pattern[str] | None = None
    exceptions: re.Pattern[str] | None = None
    # The longest word of each term, which the pattern needs literally: a text containing
    # none of them cannot match, found by substring tests far cheaper than the pattern's
    # search (measured: a 150 KB contract's review spent 8 of its 14 s in the searches).
    # None: no shortcut (the pattern decides alone).
    literals: tuple[str, ...] | None = None

    def matches(self, folded: str) -> bool:
        if self.pattern is None:
            return False
        if self.literals is not None and not any(word in folded for word in self.literals):
            return False
        if self.exceptions is None:
            return self.pattern.search(folded) is not None
        excepted = [match.span() for match in self.exceptions.finditer(folded)]
        return any(
            not any(start <= m.start() and m.end() <= end for start, end in excepted)
            for m in self.pattern.finditer(folded)
        )


@dataclass(frozen=True, slots=True)
class Scheme:
    """The concepts of one file of `data/`, in the file's order (the order results come in)."""

    name: str
    description: str
    concepts: tuple[Concept, ...]

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(concept.code for concept in self.concepts)

    def concept(self, code: str) -> Concept:
        for concept in self.concepts:
            if concept.code == code:
                return concept
        raise KeyError(f"{self.name}: unknown concept {code!r}")

    def recognise(self, text: str) -> tuple[str, ...]:
        """The codes of the concepts `text` names (several when it names several)."""
        folded = fold(text)
        if not folded:
            return ()
        return tuple(concept.code for concept in self.concepts if concept.matches(folded))

    def in_group(self, group: str) -> tuple[str, ...]:
        return tuple(concept.code for concept in self.concepts if concept.group == group)


def _concept(scheme: str, entry: Mapping[str, Any]) -> Concept:
    terms = {language: tuple(words) for language, words in entry.get("terms", {}).items()}
    every = [term for words in terms.values() for term in words]
    patterns = [_term_pattern(term) for term in every if not term.startswith("!")]
    exceptions = [_term_pattern(term[1:]) for term in every if term.startswith("!")]
    literals = tuple(
        dict.fromkeys(max(_term_words(term), key=len) for term in every if not term.startswith("!"))
    )
    return Concept(
        scheme=scheme,
        code=entry["code"],
        label=entry.get("label", entry["code"]),
        terms=terms,
        group=entry.get("group"),
        attributes=dict(entry.get("attributes", {})),
        pattern=re.compile("|".join(f"(?:{p})" for p in patterns)) if patterns else None,
        exceptions=re.compile("|".join(f"(?:{p})" for p in exceptions)) if exceptions else None,
        literals=literals,
    )


def _term_words(term: str) -> tuple[str, ...]:
    """The folded words a term's pattern matches literally (as `_term_pattern` reads them)."""
    return tuple(
        part for word in term.lstrip("~=").split() if word != "..." for part in fold(word).split()
    )


def compile_concept(scheme_name: str, entry: Mapping[str, Any]) -> Concept:
    """A concept from data kept elsewhere (`{"code", "terms": {lang: [...]}}`), compiled once.

    For term sets that are not a scheme of `data/` (the review checklists of gdpr.review):
    the same syntax, folding and matching, never a second matcher.
    """
    return _concept(scheme_name, entry)


@cache
def scheme(name: str) -> Scheme:
    """The scheme `name` (`data/<name>.json`), loaded once."""
    path = DATA_DIR / f"{name}.json"
    if not path.is_file():
        raise KeyError(f"Unknown concept scheme {name!r}")
    data = json.loads(path.read_text(encoding="utf-8"))
    return Scheme(
        name=name,
        description=data.get("description", ""),
        concepts=tuple(_concept(name, entry) for entry in data["concepts"]),
    )


def scheme_names() -> tuple[str, ...]:
    """Every scheme of `data/`, sorted."""
    return tuple(sorted(path.stem for path in DATA_DIR.glob("*.json")))


def recognise(scheme_name: str, text: str) -> tuple[str, ...]:
    """The codes of scheme `scheme_name` that `text` names, in the scheme's order."""
    return scheme(scheme_name).recognise(text)


def recognise_all(scheme_name: str, texts: Iterable[str]) -> tuple[str, ...]:
    """The codes named by any of `texts`, each once, in the scheme's order."""
    found = {code for text in texts for code in recognise(scheme_name, text)}
    return tuple(code for code in scheme(scheme_name).codes if code in found)


def codes(scheme_name: str) -> tuple[str, ...]:
    """Every code of the scheme (what an explicit `category`/`family` may name)."""
    return scheme(scheme_name).codes
