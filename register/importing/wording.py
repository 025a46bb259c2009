"""Recognising legal bases and Art. 9(2) conditions in register cells.

gdpr.composition.recognition does the recognising, in every language: registers written in
German, French, Spanish or Italian cite articles the way lawyers there do ("Art. 6 Abs. 1
lit. b DSGVO", "article 6.1 b) du RGPD", "art. 6, par. 1, lett. b) GDPR") and name bases in
their language ("Einwilligung", "intérêt légitime"), and it reads them all. The wording of
the cell is what is stored. Transfer mechanisms are read by the same recogniser as every
other register write (`recognise_safeguard`).
"""

from __future__ import annotations

from gdpr.composition.recognition import recognise_legal_basis


def legal_basis(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(Art. 6(1) codes, Art. 9(2) letters) that a register cell names; both empty if none."""
    found = recognise_legal_basis(text) if text else None
    if found is None:
        return (), ()
    return found.codes, found.conditions
