"""Article references in each language's official citation form.

The code and the catalogs write references in the English short form: "Art. 6(1)(f)",
"Art. 13(1)(c)-(e), 14(1)(d)", "Art. 44-46", "Art. 9(2), Art. 10". `cite()` renders one such
reference in a language's form, with the regulation's name:

- en "Art. 6(1)(f) GDPR"
- de "Art. 6 Abs. 1 lit. f DSGVO"
- fr "article 6, paragraphe 1, point f) du RGPD"
- es "artículo 6, apartado 1, letra f) del RGPD"
- it "articolo 6, paragrafo 1, lettera f) del GDPR"

`localize_citations()` rewrites every English-form reference inside a translated string, so
translators copy references unchanged and never format one by hand. A reference followed
(or preceded in the same clause) by another act ("Art. 3(4) of Regulation 1182/71") gets no
GDPR name. English text is never rewritten: its wording is the code's own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

LAW_NAMES = {"en": "GDPR", "de": "DSGVO", "fr": "RGPD", "es": "RGPD", "it": "GDPR"}

# Further points of the same paragraph: "Art. 5(1)(b) and (e)", "Art. 5(1)(b),(e)".
_FURTHER_POINT = r"(?:,\s?|\s(?:and|or|und|oder|et|ou|y|o|e)\s)\([a-z]\)"
_ELEMENT = (
    # A number is never split to let the rest of the pattern match ("Art. 35 Abs. 4" is left
    # alone, never read as "Art. 3" followed by "5 Abs. 4"), and a repetition is never cut
    # short: each `X*(?!X)` is the possessive `X*+`, written so because possessive
    # quantifiers are wrong in Python 3.11 before 3.11.5 (Debian 12's 3.11.2 read no
    # "Art. 13(1)(c), 14(1)(d)"; tests/gdpr/test_citations_regex.py).
    r"(?P<art{n}>\d+(?!\d))(?P<artend{n}>(?:[-/]\d+(?!\d))*(?![-/]\d))"
    r"(?:\((?P<para{n}>\d+)\)(?:-\((?P<paraend{n}>\d+)\)(?![(]))?)?"
    r"(?:\((?P<point{n}>[a-z])\)(?:-\((?P<pointend{n}>[a-z])\))?"
    r"(?P<points{n}>(?:" + _FURTHER_POINT + r")*(?!" + _FURTHER_POINT + r")))?"
)
_ONE = re.compile(_ELEMENT.format(n=""))
_JOINER = r"(?:,\s?(?:Art\.\s?)?|\s(?:and|und|et|y|e|or|oder|ou|o)\s(?:Art\.\s?)?)"
_REFERENCE = re.compile(
    r"\bArts?\.\s?"
    + _ELEMENT.format(n="")
    + r"(?P<more>(?:"
    + _JOINER
    + r"\d+(?:\(\d+\))?(?:\([a-z]\))?(?:-\((?:\d+|[a-z])\))?(?=[\s,;).:]|$)(?<=\))?"
    + r")*)"
    + r"(?P<law>\s(?:GDPR|DSGVO|RGPD))?"
    # Not a reference in another form ("Art. 35 Abs. 4", "Art. 35.4") nor one split by a
    # placeholder ("Art. 9(2)({letter})": built with cite() in the code instead).
    + r"(?!\s?Abs\.|\(|\.\d|\w)"
)
_CONTINUATION = re.compile(r"(?P<joiner>" + _JOINER + r")(?P<element>[^,\s]+)")
_OTHER_ACT_AFTER = re.compile(
    r"^\s+(?:of|der|des|du|de|del|della|dello|dell'|di)\s+(?:the\s+|la\s+|l')?"
    r"(?:Regulation|Directive|Decision|Charter|Verordnung|Richtlinie|Beschlusses|Beschluss"
    r"|Charta|règlement|directive|décision|Charte|Reglamento|Directiva|Decisión|Carta"
    r"|regolamento|direttiva|decisione)",
    re.IGNORECASE,
)
_OTHER_ACT_BEFORE = re.compile(
    r"(?:Regulation|Directive|Decision|Verordnung|Richtlinie|Beschluss|règlement|directive"
    r"|décision|Reglamento|Directiva|Decisión|regolamento|direttiva|decisione)[^.;()]{0,30}$",
    re.IGNORECASE,
)
_CONJUNCTIONS = {
    "and": {"de": "und", "fr": "et", "es": "y", "it": "e"},
    "or": {"de": "oder", "fr": "ou", "es": "o", "it": "o"},
}


@dataclass(frozen=True, slots=True)
class _Element:
    article: str
    article_end: str
    paragraph: str | None
    paragraph_end: str | None
    point: str | None
    point_end: str | None
    more_points: tuple[tuple[str, str], ...] = ()  # (joiner word, letter): "and (e)"


def _element(text: str) -> _Element:
    match = _ONE.fullmatch(text)
    if match is None:
        raise ValueError(f"Not an article reference: {text!r}")
    return _Element(
        match["art"],
        match["artend"],
        match["para"],
        match["paraend"],
        match["point"],
        match["pointend"],
        tuple(
            (m[1] or ",", m[2])
            for m in re.finditer(r"(?:,\s?|\s(\w+)\s)\(([a-z])\)", match["points"] or "")
        ),
    )


def _range_word(language: str) -> str:
    return {"de": "bis", "fr": "à", "es": "a", "it": "a"}[language]


def _consecutive(start: str, end: str) -> bool:
    """ "2-3", "b-c": two items, named as a pair ("2 et 3"), never as a range ("2 à 3")."""
    if start.isdigit() and end.isdigit():
        return int(end) == int(start) + 1
    return len(start) == len(end) == 1 and ord(end) == ord(start) + 1


def _span(start: str, end: str, language: str, *, close: str = "") -> str:
    """ "2 à 4" / "2 et 3" (Italian "da 2 a 4" / "2 e 3"), each item followed by `close`."""
    if _consecutive(start, end):
        return f"{start}{close} {_CONJUNCTIONS['and'][language]} {end}{close}"
    begin = "da " if language == "it" else ""
    return f"{begin}{start}{close} {_range_word(language)} {end}{close}"


def _points_list(element: _Element, language: str, close: str) -> str:
    """ "b) et e)", "b), c) et e)" (German "b und e"): the points named after the first."""
    items = [element.point or "", *(letter for _, letter in element.more_points)]
    words = [word for word, _ in element.more_points]
    conjunction = "or" if "or" in words or "oder" in words or "ou" in words else "and"
    glue = _CONJUNCTIONS[conjunction][language] if language != "en" else conjunction
    if language == "it" and glue == "e" and items[-1] in "aeiou":
        glue = "ed"  # "lettere b) ed e)"
    rendered = [f"{item}{close}" for item in items]
    return ", ".join(rendered[:-1]) + f" {glue} " + rendered[-1]


def _render(element: _Element, language: str) -> str:
    """One element in the language's form, without the regulation's name."""
    if language == "en":
        text = "Art. " + element.article + element.article_end
        if element.paragraph:
            text += f"({element.paragraph})"
            if element.paragraph_end:
                text += f"-({element.paragraph_end})"
        if element.point:
            text += f"({element.point})"
            if element.point_end:
                text += f"-({element.point_end})"
            for word, letter in element.more_points:
                text += f"{word if word == ',' else ' ' + word + ' '}({letter})"
        return text
    articles = element.article
    plural = bool(element.article_end)
    if element.article_end.startswith("-") and "-" not in element.article_end[1:]:
        articles = _span(element.article, element.article_end[1:], language)
    elif element.article_end:
        articles = element.article + element.article_end
    if language == "de":
        text = f"Art. {articles}"
        if element.paragraph_end:
            text += " Abs. " + _span(element.paragraph or "", element.paragraph_end, language)
        elif element.paragraph:
            text += f" Abs. {element.paragraph}"
        if element.point:
            if element.more_points:
                text += " lit. " + _points_list(element, language, "")
            elif element.point_end:
                text += " lit. " + _span(element.point, element.point_end, language)
            else:
                text += f" lit. {element.point}"
        return text
    words = {
        "fr": ("article", "articles", "paragraphe", "paragraphes", "point", "points"),
        "es": ("artículo", "artículos", "apartado", "apartados", "letra", "letras"),
        "it": ("articolo", "articoli", "paragrafo", "paragrafi", "lettera", "lettere"),
    }[language]
    text = f"{words[1] if plural else words[0]} {articles}"
    if element.paragraph:
        if element.paragraph_end:
            span = _span(element.paragraph, element.paragraph_end, language)
            text += f", {words[3]} {span}"
        else:
            text += f", {words[2]} {element.paragraph}"
    if element.point:
        if element.more_points:
            text += f", {words[5]} " + _points_list(element, language, ")")
        elif element.point_end:
            text += f", {words[5]} " + _span(element.point, element.point_end, language, close=")")
        else:
            text += f", {words[4]} {element.point})"
    return text


def _with_law(text: str, language: str, last: _Element) -> str:
    law = LAW_NAMES[language]
    if language in {"en", "de"}:
        return f"{text} {law}"
    preposition = {"fr": "du", "es": "del", "it": "del"}[language]
    # "article 13, paragraphe 3, du RGPD" but "point f) du RGPD" and "article 7 du RGPD".
    separator = "," if last.paragraph and not last.point else ""
    return f"{text}{separator} {preposition} {law}"


def _render_reference(
    first: str, continuations: list[tuple[str, str]], language: str, *, with_law: bool
) -> str:
    last = _element(first)
    elements = [last]
    glues: list[str] = []
    for joiner, text in continuations:
        last = _element(text)
        elements.append(last)
        word = joiner.strip().removesuffix("Art.").strip().strip(",")
        if word in {"and", "und", "et", "y", "e"}:
            glues.append(f" {_CONJUNCTIONS['and'].get(language, 'and')} ")
        elif word in {"or", "oder", "ou", "o"}:
            glues.append(f" {_CONJUNCTIONS['or'].get(language, 'or')} ")
        else:
            glues.append(", ")
    bare = all(not e.paragraph and not e.point and not e.article_end for e in elements)
    if language != "en" and len(elements) > 1 and bare:
        # "articles 13 et 14", "Art. 13 und 14": one plural word, never "artículo 13 y
        # artículo 14".
        word = {"de": "Art.", "fr": "articles", "es": "artículos", "it": "articoli"}[language]
        numbers = [elements[0].article]
        for glue, following in zip(glues, elements[1:], strict=True):
            numbers.append(glue + following.article)
        text = f"{word} {''.join(numbers)}"
    else:
        parts = [_render(elements[0], language)]
        for glue, following in zip(glues, elements[1:], strict=True):
            parts.append(glue + _render(following, language))
        text = "".join(parts)
    return _with_law(text, language, last) if with_law else text


def cite(reference: str, language: str, *, with_law: bool = True) -> str:
    """One English-form reference ("Art. 13(1)(c)-(d), 14(1)(d)") in the language's form."""
    match = _REFERENCE.fullmatch(reference.strip())
    if match is None:
        raise ValueError(f"Not an article reference: {reference!r}")
    return _render_reference(
        _first(match), _continuations(match["more"]), language, with_law=with_law
    )


def _first(match: re.Match[str]) -> str:
    text = match[0]
    text = text[: len(text) - len(match["more"] or "") - len(match["law"] or "")]
    return re.sub(r"^Arts?\.\s?", "", text)


def _continuations(more: str | None) -> list[tuple[str, str]]:
    return [(m["joiner"], m["element"]) for m in _CONTINUATION.finditer(more or "")]


def localize_citations(text: str, language: str) -> str:
    """Every English-form reference of `text` in the language's form (English: unchanged)."""
    if language == "en" or "Art" not in text:
        return text

    def replace(match: re.Match[str]) -> str:
        other_act = bool(
            _OTHER_ACT_AFTER.match(text[match.end() :])
            or _OTHER_ACT_BEFORE.search(text[max(0, match.start() - 40) : match.start()])
        )
        rendered = _render_reference(
            _first(match),
            _continuations(match["more"]),
            language,
            with_law=not other_act,
        )
        before = text[: match.start()].rstrip()
        if language != "de" and (not before or before.endswith((".", "!", "?", "\n"))):
            rendered = rendered[0].upper() + rendered[1:]
        return rendered

    return _REFERENCE.sub(replace, text)


_CAPITALISED = re.compile(r"^(Article|Articles|Artículo|Artículos|Articolo|Articoli)\b")


def mid_sentence(text: str) -> str:
    """A translated text that starts with a citation, placed inside a sentence by the code
    ("(artículo 30 del RGPD)", "United States: articolo 46 ..."): the citation's capital,
    given to a text that starts with it, is taken back."""
    return _CAPITALISED.sub(lambda match: match[1].lower(), text)
