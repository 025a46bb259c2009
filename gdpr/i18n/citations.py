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

_ELEMENT = (
    r"(?P<art{n}>\d+)(?P<artend{n}>(?:[-/]\d+)*)"
    r"(?:\((?P<para{n}>\d+)\)(?:-\((?P<paraend{n}>\d+)\)(?![(]))?)?"
    r"(?:\((?P<point{n}>[a-z])\)(?:-\((?P<pointend{n}>[a-z])\))?)?"
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
    + r"(?!\s?Abs\.|\s?\()"
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
    )


def _range_word(language: str) -> str:
    return {"de": "bis", "fr": "à", "es": "a", "it": "a"}[language]


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
        return text
    to = _range_word(language)
    articles = element.article
    plural = bool(element.article_end)
    if element.article_end.startswith("-"):
        start = "da " if language == "it" else ""
        articles = f"{start}{element.article} {to} {element.article_end[1:]}"
    elif element.article_end:
        articles = element.article + element.article_end
    if language == "de":
        text = f"Art. {articles}"
        if element.paragraph:
            text += f" Abs. {element.paragraph}"
            if element.paragraph_end:
                text += f" {to} {element.paragraph_end}"
        if element.point:
            text += f" lit. {element.point}"
            if element.point_end:
                text += f" {to} {element.point_end}"
        return text
    words = {
        "fr": ("article", "articles", "paragraphe", "paragraphes", "point", "points"),
        "es": ("artículo", "artículos", "apartado", "apartados", "letra", "letras"),
        "it": ("articolo", "articoli", "paragrafo", "paragrafi", "lettera", "lettere"),
    }[language]
    start = "da " if language == "it" else ""
    text = f"{words[1] if plural else words[0]} {articles}"
    if element.paragraph:
        if element.paragraph_end:
            text += f", {words[3]} {start}{element.paragraph} {to} {element.paragraph_end}"
        else:
            text += f", {words[2]} {element.paragraph}"
    if element.point:
        if element.point_end:
            text += f", {words[5]} {start}{element.point}) {to} {element.point_end})"
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
    parts = [_render(last, language)]
    for joiner, element in continuations:
        last = _element(element)
        word = joiner.strip().removesuffix("Art.").strip().strip(",")
        if word in {"and", "und", "et", "y", "e"}:
            glue = f" {_CONJUNCTIONS['and'].get(language, 'and')} "
        elif word in {"or", "oder", "ou", "o"}:
            glue = f" {_CONJUNCTIONS['or'].get(language, 'or')} "
        else:
            glue = ", "
        parts.append(glue + _render(last, language))
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
        if language != "de" and (not before or before.endswith((".", ":", "\n"))):
            rendered = rendered[0].upper() + rendered[1:]
        return rendered

    return _REFERENCE.sub(replace, text)
