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


def basis_entry(wording: str, *, code: str = "") -> dict[str, str]:
    """`{code, wording}` for a wording (the code recognised from it unless given)."""
    if not code:
        found = recognise_legal_basis(wording)
        if found is not None and found.codes:
            code = found.codes[0]
        elif found is not None and found.conditions:
            code = f"art-9-2-{found.conditions[0]}"
    if not wording and code.startswith("art-9-2-"):
        wording = f"Art. 9(2)({code[-1]})"
    return {"code": code, "wording": wording or code}


def basis_entries(values: Iterable[Any]) -> list[Any]:
    """Texts as `{code, wording}`; objects (already validated) as they are."""
    return [value if isinstance(value, Mapping) else basis_entry(str(value)) for value in values]
