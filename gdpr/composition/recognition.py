"""Recognising what integrators write: legal bases, transfer safeguards, EEA countries.

Integrators hold their facts in their own words ("Art. 6(1)(b) employment contract",
"Standard Contractual Clauses", "DE"). The create body accepts those words; this module maps
them onto the codes the writers reason with. The original wording is never replaced: the
writers show it beside the recognised code. Pure Python (no Django), used by the create-body
serializers of the app (`common.gdpr_inputs`, to refuse what names nothing) and by
`inputs.normalize_inputs`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

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

# "Art. 6(1)(b)", "Article 6 (1) lit. b", "6.1.b", "Art. 6(1) f".
_ARTICLE = (
    r"\b{number}\s*(?:\(\s*{paragraph}\s*\)|\.\s*{paragraph}\b|\s+{paragraph}\b)\s*\.?\s*"
    r"(?:lit\.?\s*)?\(?\s*([a-{last}])\s*(?:\)|(?![a-z]))"
)
_ART_6 = re.compile(_ARTICLE.format(number="6", paragraph="1", last="f"), re.IGNORECASE)
_ART_9 = re.compile(_ARTICLE.format(number="9", paragraph="2", last="j"), re.IGNORECASE)
# Words naming an Art. 6(1) basis, checked when no article is cited.
_BASIS_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("consent", re.compile(r"\bconsent", re.IGNORECASE)),
    ("contract", re.compile(r"\b(?:pre-?)?contract(?:ual)?\b|\bcontracts\b", re.IGNORECASE)),
    (
        "legal-obligation",
        re.compile(
            r"\blegal(?:ly)?\s+(?:obligation|requirement|duty)|\bstatutory\b|required\s+by\s+law"
            r"|\bobligations?\s+under\b|\blaw\s+obligations?\b|\blegal\s+obligations?\b",
            re.IGNORECASE,
        ),
    ),
    ("vital-interests", re.compile(r"\bvital\s+interests?\b", re.IGNORECASE)),
    (
        "public-task",
        re.compile(r"\bpublic\s+(?:task|interest)|\bofficial\s+authority\b", re.IGNORECASE),
    ),
    ("legitimate-interests", re.compile(r"\blegitimate\s+interests?\b", re.IGNORECASE)),
)

_SAFEGUARD_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "art-49-compelling-legitimate-interests",
        re.compile(r"compelling\s+legitimate|49\s*\(\s*1\s*\)\s*(?:second|2nd|sub)", re.I),
    ),
    ("art-49-derogation", re.compile(r"\bderogation|\bart(?:icle)?\.?\s*49\b", re.I)),
    (
        "standard-contractual-clauses",
        re.compile(
            r"standard\s+(?:contractual|data\s+protection)\s+clauses|\bsccs?\b|model\s+clauses"
            r"|\b46\s*\(\s*2\s*\)\s*\(?\s*[cd]\b",
            re.I,
        ),
    ),
    (
        "binding-corporate-rules",
        re.compile(r"binding\s+corporate\s+rules|\bbcrs?\b|\bart(?:icle)?\.?\s*47\b", re.I),
    ),
    (
        "code-or-certification",
        re.compile(r"code\s+of\s+conduct|certification|\b46\s*\(\s*2\s*\)\s*\(?\s*[ef]\b", re.I),
    ),
    (
        "adequacy-decision",
        re.compile(r"adequa(?:cy|te)|privacy\s+framework|\bdpf\b|\bart(?:icle)?\.?\s*45\b", re.I),
    ),
    ("none", re.compile(r"^\s*(?:none|no\s+safeguards?|n/?a)\s*$", re.I)),
)

ACCEPTED_LEGAL_BASIS_FORMS: tuple[str, ...] = (
    "a code: " + ", ".join(LEGAL_BASES),
    "an article reference: 'Art. 6(1)(a)' to 'Art. 6(1)(f)', or an Art. 9(2) condition"
    " 'Art. 9(2)(a)' to 'Art. 9(2)(j)', optionally followed by your own wording",
    "text naming the basis: 'consent', 'performance of a contract', 'legal obligation',"
    " 'vital interests', 'public task' or 'public interest', 'legitimate interest(s) in ...'",
)
ACCEPTED_SAFEGUARD_FORMS: tuple[str, ...] = (
    "a code: " + ", ".join(TRANSFER_SAFEGUARDS),
    "text naming the mechanism: 'adequacy decision', 'Standard Contractual Clauses' (SCC),"
    " 'Binding Corporate Rules' (BCR), 'code of conduct' or 'certification', 'Art. 49"
    " derogation', 'compelling legitimate interests', or an article reference (Art. 45,"
    " 46(2)(c), 47, 49)",
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
    Art. 9(2)(b) condition, not also a legal obligation.
    """
    code = _code_form(text)
    for candidate in (code, code + "s"):  # "legitimate-interest" as well
        if candidate in LEGAL_BASES:
            return RecognisedBasis(codes=(candidate,), conditions=())
    codes = _unique(_ART_6_LETTERS[m.group(1).lower()] for m in _ART_6.finditer(text))
    conditions = _unique(m.group(1).lower() for m in _ART_9.finditer(text))
    if not codes and not conditions:
        codes = _unique(name for name, pattern in _BASIS_WORDS if pattern.search(text))
    if not codes and not conditions:
        return None
    return RecognisedBasis(codes=codes, conditions=conditions)


def recognise_safeguard(text: str) -> str | None:
    """The TRANSFER_SAFEGUARDS code `text` names (a code or words), or None."""
    code = _code_form(text)
    if code in TRANSFER_SAFEGUARDS:
        return code
    for name, pattern in _SAFEGUARD_WORDS:
        if pattern.search(text):
            return name
    return None


def _unique(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(values))


# --- the European Economic Area: one table for the project, in gdpr.countries --------------
# Re-exported: the writers, the register and the inputs import `is_in_eea` from here.
from gdpr.countries import EEA_COUNTRIES as EEA_COUNTRIES  # noqa: E402
from gdpr.countries import is_in_eea as is_in_eea  # noqa: E402
