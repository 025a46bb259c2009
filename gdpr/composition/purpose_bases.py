"""A legal basis per purpose (Art. 6(1), 5(2)) and the purpose/subject mismatches it reveals.

`purposeLegalBases` pairs each purpose with its basis ({purpose, legalBasis}); with a single
basis in `legalBasis` that basis covers every purpose. Art. 6(1)(b) covers a contract with the
data subject or steps taken at their request before one: prospects the controller approaches
are not covered (their basis is consent or legitimate interests, with the Art. 21(2) right).
"""

from __future__ import annotations

from collections.abc import Mapping

from gdpr.composition.context import CompositionContext
from gdpr.composition.inputs import LEGAL_BASIS_LABELS, LegalBasis
from gdpr.composition.markdown import escape_inline, join_blocks, table, to_be_completed
from gdpr.composition.recognition import recognise_legal_basis
from gdpr.concepts import recognise
from gdpr.i18n import _

# Purposes or subjects outside any contract with the data subject (gdpr/concepts purpose.json).
_PROSPECTS = frozenset({"prospects", "advertising"})


def _names_prospects(text: str) -> bool:
    return bool(_PROSPECTS & set(recognise("purpose", text)))


_CONTRACT_ONLY = frozenset({"contract"})


def _codes(wording: object) -> tuple[str, ...]:
    found = recognise_legal_basis(str(wording or ""))
    return found.codes if found else ()


def purpose_bases(context: CompositionContext) -> list[tuple[str, tuple[str, ...]]]:
    """(purpose, Art. 6(1) codes) for every purpose; no codes when none can be told."""
    purposes = [str(p) for p in context.items("purposes")]
    mapped = {
        str(entry.get("purpose") or "").strip().lower(): _codes(entry.get("legalBasis"))
        for entry in context.items("purposeLegalBases")
        if isinstance(entry, Mapping)
    }
    bases: list[LegalBasis] = context.items("legalBasis")
    single = bases[0].codes if len(bases) == 1 else ()
    return [(p, mapped.get(p.strip().lower()) or single) for p in purposes]


def write_purpose_bases(context: CompositionContext) -> str:
    pairs = purpose_bases(context)
    if not pairs:
        return to_be_completed(_("the purposes, each with its Art. 6(1) legal basis"))
    rows = [
        (purpose, "; ".join(_(LEGAL_BASIS_LABELS[c]) for c in codes) or _("not stated"))
        for purpose, codes in pairs
    ]
    unstated = [purpose for purpose, codes in pairs if not codes]
    subjects = " ".join(str(s) for s in context.items("dataSubjects"))
    mismatches = [
        purpose
        for purpose, codes in pairs
        if set(codes) == _CONTRACT_ONLY and _names_prospects(purpose)
    ]
    all_codes = {code for _skip, codes in pairs for code in codes}
    prospects_uncovered = _names_prospects(subjects) and all_codes == _CONTRACT_ONLY
    return join_blocks(
        table((_("Purpose"), _("Legal basis (Art. 6(1))")), rows),
        to_be_completed(
            _(
                "the legal basis of each purpose (several bases are given; pair each purpose with"
                " its basis): "
            )
            + ", ".join(map(escape_inline, unstated))
        )
        if unstated
        else None,
        to_be_completed(
            _(
                "a legal basis that covers prospects: Art. 6(1)(b) only covers a contract with the"
                " data subject or steps at their request before entering into one; prospects are"
                " processed on consent (Art. 6(1)(a)) or legitimate interests (Art. 6(1)(f), with"
                " the Art. 21(2) right to object). Incorrect pairing: "
            )
            + ", ".join(map(escape_inline, mismatches or [_("prospects under Art. 6(1)(b)")]))
        )
        if mismatches or prospects_uncovered
        else None,
    )
