"""Recognising what integrators write: legal bases, transfer safeguards, roles, EEA countries.

Integrators hold their facts in their own words, in their own language ("Art. 6(1)(b)
employment contract", "Art. 6 Abs. 1 lit. f DSGVO", "intérêt légitime", "Standard
Contractual Clauses", "Standardvertragsklauseln", "DE"). The create body accepts those words;
this module maps them onto the codes the writers reason with, the same codes whatever the
language. The original wording is never replaced: the writers show it beside the recognised
code. Pure Python (no Django), used by the create-body serializers of the app
(`register.gdpr_inputs`, to refuse what names nothing), by the register and by
`inputs.normalize_inputs`.

Two readers, in this order:
1. Article citations, in the citation form of any language (`_ARTICLE`: one regular
   expression for the structure, which is numbers and letters, not words): "Art. 6(1)(f)",
   "Art. 6 Abs. 1 S. 1 lit. f DSGVO", "article 6, paragraphe 1, point f), du RGPD",
   "art. 6.1.f RGPD", "artículo 6, apartado 1, letra f)", "art. 6, par. 1, lett. f) GDPR".
   A cited article wins over words: "Art. 9(2)(b) employment law obligations" is the
   Art. 9(2)(b) condition, not also a legal obligation.
2. Words, from the concept vocabulary (`gdpr/concepts/data/legal-basis.json`,
   `art9-condition.json`, `transfer-mechanism.json`, `recipient-role.json`): the terms of
   every language are looked for in every text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from gdpr.concepts import fold, scheme
from gdpr.i18n import N_

LEGAL_BASES: tuple[str, ...] = (
    "consent",
    "contract",
    "legal-obligation",
    "vital-interests",
    "public-task",
    "legitimate-interests",
)
TRANSFER_SAFEGUARDS: tuple[str, ...] = (
    "adequacy-decision",
    "standard-contractual-clauses",
    "binding-corporate-rules",
    "code-or-certification",
    "art-49-derogation",
    "art-49-compelling-legitimate-interests",
    "none",
)

# Art. 6(1)(a)-(f), in the order of LEGAL_BASES.
_ART_6_LETTERS = dict(zip("abcdef", LEGAL_BASES, strict=True))
ART_9_CONDITIONS: dict[str, str] = {
    "a": N_("explicit consent"),
    "b": N_("obligations and rights in employment, social security and social protection law"),
    "c": N_("vital interests where the data subject cannot give consent"),
    "d": N_("legitimate activities of a foundation, association or other not-for-profit body"),
    "e": N_("data manifestly made public by the data subject"),
    "f": N_("establishment, exercise or defence of legal claims"),
    "g": N_("substantial public interest on the basis of law"),
    "h": N_("preventive or occupational medicine, health or social care"),
    "i": N_("public interest in the area of public health"),
    "j": N_("archiving, scientific or historical research or statistics"),
}

# --- article citations, read in folded text (gdpr.concepts.fold: lower case, no accents, every
# punctuation a space), so that "Art. 6(1)(f)", "art. 6.1.f" and "Art. 6 Abs. 1 lit. f" are
# all "art 6 1 f" with or without the words that name the parts. These are the abbreviations
# of the citation forms, not words naming a concept; they only label numbers and letters.
_ARTICLE_WORD = r"(?:arts?|artt|artikel|articles?|articulos?|articolo|articoli|artigo|artykul)"
_PARAGRAPH_WORD = (
    r"(?:abs|absatz|para|paragraph|paragraphe|par|apartado|apdo|paragrafo|co|comma|lid|ust"
    r"|al|alinea)"
)
# "Art. 6 Abs. 1 S. 1 lit. f": the sentence of the paragraph, skipped.
_SENTENCE = r"(?:(?:s|satz|uabs|unterabsatz|subparagraph)\s+\d+\s+)?"
_POINT_WORD = (
    r"(?:lit|litera|buchstabe|buchst|point|points|letter|letra|lettera|lett|let|punkt|pkt"
    r"|onder|sub)"
)
# After the letter: not a longer word, not "i.V.m." ("in Verbindung mit", no point (i)), not a
# conjunction before another article ("art. 9, par. 2, e art. 10": "e" is "and").
_AFTER_LETTER = rf"(?![a-z0-9])(?!\s+v\s+m\b)(?!\s+{_ARTICLE_WORD}\b)"
# The one structure of a citation: article [paragraph [sentence] [point]], each part optional
# after the number the caller requires. {article} is "" when the article word may be left out
# ("6.1.b" is a citation too), or the word required.
_ARTICLE = (
    r"(?<![a-z0-9]){article}{number}\s+(?:{paragraph_word}\s+)?{paragraph}\s+{sentence}"
    r"(?:{point_word}\s+)?([{letters}]){after}"
)


def _citation(number: str, paragraph: str, letters: str, *, word: bool = False) -> re.Pattern[str]:
    return re.compile(
        _ARTICLE.format(
            article=rf"{_ARTICLE_WORD}\s+" if word else rf"(?:{_ARTICLE_WORD}\s+)?",
            number=number,
            paragraph_word=_PARAGRAPH_WORD,
            paragraph=paragraph,
            sentence=_SENTENCE,
            point_word=_POINT_WORD,
            letters=letters,
            after=_AFTER_LETTER,
        )
    )


_ART_6 = _citation("6", "1", "a-f")
_ART_9 = _citation("9", "2", "a-j")
# Art. 46(2)(c)-(d) and (e)-(f): SCCs, codes of conduct and certification.
_ART_46 = _citation("46", "2", "c-f")
# Art. 49(1), second subparagraph: "49(1) second subparagraph", "Art. 49 Abs. 1 UAbs. 2",
# "article 49, paragraphe 1, deuxième alinéa", "artículo 49, apartado 1, párrafo segundo",
# "articolo 49, paragrafo 1, secondo comma".
_ART_49_SECOND = re.compile(
    rf"(?<![a-z0-9])(?:{_ARTICLE_WORD}\s+)?49\s+(?:{_PARAGRAPH_WORD}\s+)?1\s+"
    r"(?:second|2nd|sub|uabs\s+2|unterabs\w*\s+2|unterabsatz\s+2|s\s+2|satz\s+2|deuxieme"
    r"|alinea\s+2|2e|parrafo\s+segundo|segundo|secondo|comma\s+2|co\s+2|akapit\s+2|tweede)"
)
# A whole article cited: "Art. 45", "article 47 du RGPD", "art. 49 Abs. 1 lit. a".
_WHOLE_ARTICLE = {
    number: re.compile(rf"(?<![a-z0-9]){_ARTICLE_WORD}\s+{number}(?![0-9])")
    for number in ("45", "47", "49")
}

ACCEPTED_LEGAL_BASIS_FORMS: tuple[str, ...] = (
    "a code: " + ", ".join(LEGAL_BASES),
    "an article reference: 'Art. 6(1)(a)' to 'Art. 6(1)(f)', or an Art. 9(2) condition"
    " 'Art. 9(2)(a)' to 'Art. 9(2)(j)', in the citation form of any EU language ('Art. 6"
    " Abs. 1 lit. f DSGVO', 'article 6, paragraphe 1, point f) du RGPD', 'art. 6.1.f RGPD',"
    " 'articolo 6, paragrafo 1, lettera f) del GDPR'), optionally followed by your own wording",
    "text naming the basis, in any EU language: 'consent', 'performance of a contract',"
    " 'legal obligation', 'vital interests', 'public task' or 'public interest', 'legitimate"
    " interest(s) in ...', 'explicit consent' ('berechtigtes Interesse', 'intérêt légitime',"
    " 'interés legítimo', 'legittimo interesse', 'Einwilligung', 'obligation légale'...)",
)
ACCEPTED_SAFEGUARD_FORMS: tuple[str, ...] = (
    "a code: " + ", ".join(TRANSFER_SAFEGUARDS),
    "text naming the mechanism, in any EU language: 'adequacy decision', 'Standard"
    " Contractual Clauses' (SCC), 'Binding Corporate Rules' (BCR), 'code of conduct' or"
    " 'certification', 'Art. 49 derogation', 'compelling legitimate interests'"
    " ('Angemessenheitsbeschluss', 'Standardvertragsklauseln', 'clauses contractuelles types',"
    " 'cláusulas contractuales tipo', 'norme vincolanti d'impresa'...), or an article"
    " reference in any EU language's citation form (Art. 45, 46(2)(c), 47, 49)",
)

ACCEPTED_ROLE_FORMS: tuple[str, ...] = (
    "a code: processor, controller, joint-controller, internal, public-authority",
    "text naming the role, in any EU language: 'processor', 'joint controller',"
    " 'Auftragsverarbeiter', 'sous-traitant', 'encargado del tratamiento', 'titolare del"
    " trattamento', 'Behörde'...",
)


def _code_form(text: str) -> str:
    return re.sub(r"[\s_]+", "-", text.strip().lower())


@dataclass(frozen=True, slots=True)
class RecognisedBasis:
    """The Art. 6(1) codes and the Art. 9(2) condition letters a wording names."""

    codes: tuple[str, ...]
    conditions: tuple[str, ...]


def recognise_legal_basis(text: str) -> RecognisedBasis | None:
    """What `text` names, or None when it names no Art. 6(1) basis nor Art. 9(2) condition.

    A cited article wins over words: "Art. 9(2)(b) employment law obligations" is the
    Art. 9(2)(b) condition, not also a legal obligation. Without a citation, words name
    bases and conditions alike ("explicit consent" is consent and the Art. 9(2)(a)
    condition), except the words of a condition that deny a basis (attributes.notBasis: "a
    person unable to give consent" is condition (c), not consent).
    """
    code = _code_form(text)
    for candidate in (code, code + "s"):  # "legitimate-interest" as well
        if candidate in LEGAL_BASES:
            return RecognisedBasis(codes=(candidate,), conditions=())
    folded = fold(text)
    codes = _unique(_ART_6_LETTERS[m.group(1)] for m in _ART_6.finditer(folded))
    conditions = _unique(m.group(1) for m in _ART_9.finditer(folded))
    if not codes and not conditions:
        codes, conditions = _named_in_words(folded)
    if not codes and not conditions:
        return None
    return RecognisedBasis(codes=codes, conditions=conditions)


def _named_in_words(folded: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(basis codes, condition letters) that the words of a folded text name."""
    rest = folded
    letters: list[str] = []
    for concept in scheme("art9-condition").concepts:
        # matches(), not the bare pattern: an exception term ("without explicit consent") holds.
        if concept.pattern is None or not concept.matches(folded):
            continue
        letters.append(str(concept.attributes["letter"]))
        if concept.attributes.get("notBasis"):
            # "unable to give consent": the consent these words name is no basis; blanked.
            rest = concept.pattern.sub(lambda m: " " * len(m[0]), rest)
    return scheme("legal-basis").recognise(rest), tuple(sorted(letters))


def recognise_safeguard(text: str) -> str | None:
    """The TRANSFER_SAFEGUARDS code `text` names (a code, a citation or words), or None.

    A cited article wins over words; among words, the first concept of
    `transfer-mechanism.json` that the text names (the file's order is the precedence).
    """
    code = _code_form(text)
    if code in TRANSFER_SAFEGUARDS:
        return code
    folded = fold(text)
    if not folded:
        return None
    cited = _cited_safeguard(folded)
    if cited is not None:
        return cited
    for concept in scheme("transfer-mechanism").concepts:
        if concept.attributes.get("wholeText"):
            terms = {fold(term.lstrip("~=")) for words in concept.terms.values() for term in words}
            if folded in terms:
                return concept.code
        elif concept.matches(folded):
            return concept.code
    return None


def _cited_safeguard(folded: str) -> str | None:
    if _ART_49_SECOND.search(folded):
        return "art-49-compelling-legitimate-interests"
    if _WHOLE_ARTICLE["49"].search(folded):
        return "art-49-derogation"
    point = _ART_46.search(folded)
    if point is not None:
        return "standard-contractual-clauses" if point[1] in "cd" else "code-or-certification"
    if _WHOLE_ARTICLE["47"].search(folded):
        return "binding-corporate-rules"
    if _WHOLE_ARTICLE["45"].search(folded):
        return "adequacy-decision"
    return None


def recognise_role(text: str) -> str | None:
    """The recipient role (inputs.RECIPIENT_ROLES) `text` names (a code or words), or None.

    The first concept of `recipient-role.json` the text names: its order puts the more
    specific first (a joint controller before a controller; the Italian "responsabile del
    trattamento", a processor, before the French and Spanish "responsable", a controller).
    """
    roles = scheme("recipient-role")
    code = _code_form(text)
    if code in roles.codes:
        return code
    found = roles.recognise(text)
    return found[0] if found else None


def _unique(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(values))


# --- the European Economic Area: one table for the project, in gdpr.countries --------------
# Re-exported: the writers, the register and the inputs import `is_in_eea` from here.
from gdpr.countries import EEA_COUNTRIES as EEA_COUNTRIES  # noqa: E402
from gdpr.countries import is_in_eea as is_in_eea  # noqa: E402
