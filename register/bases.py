"""Legal bases in the register: `{code, wording}`, whoever writes them (API, admin, import).

The code is what the report and the writers reason with (an Art. 6(1) code of
`gdpr.composition.recognition.LEGAL_BASES`, or `art-9-2-<letter>` for an Art. 9(2)
condition; "" when the wording names none), the wording is the DPO's own text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gdpr.composition.recognition import ART_9_CONDITIONS, recognise_legal_basis

ART_9_CODES = tuple(f"art-9-2-{letter}" for letter in ART_9_CONDITIONS)


def basis_entry(wording: str, *, code: str = "", condition_first: bool = False) -> dict[str, str]:
    """`{code, wording}` for a wording (the code recognised from it unless given).

    A wording may name a basis and a condition ("explicit consent": consent and Art. 9(2)(a)):
    the basis is its code, or the condition with `condition_first` (an Art. 9(2) entry).
    """
    if not code:
        found = recognise_legal_basis(wording)
        bases = [*found.codes] if found is not None else []
        conditions = [f"art-9-2-{letter}" for letter in found.conditions] if found else []
        candidates = [*conditions, *bases] if condition_first else [*bases, *conditions]
        code = candidates[0] if candidates else ""
    if not wording and code.startswith("art-9-2-"):
        wording = f"Art. 9(2)({code[-1]})"
    return {"code": code, "wording": wording or code}


def basis_entries(values: Iterable[Any], *, condition_first: bool = False) -> list[Any]:
    """Texts as `{code, wording}`; objects (already validated) as they are."""
    return [
        value
        if isinstance(value, Mapping)
        else basis_entry(str(value), condition_first=condition_first)
        for value in values
    ]
