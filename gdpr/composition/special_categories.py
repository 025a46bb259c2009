"""Art. 9 and Art. 10 data: found in the inputs, and the condition each one needs.

Special categories may be named in `specialCategories` or only among `dataCategories`
("biometric templates"); either way the processing is not ordinary: it needs an Art. 9(2)
condition (given in `legalBasis`, e.g. "Art. 9(2)(a) explicit consent"), and criminal
conviction data needs an Art. 10 basis (`art10Basis`: official authority or the Union or
Member State law authorising it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gdpr.composition.context import CompositionContext
from gdpr.composition.inputs import SpecialCategoryCondition
from gdpr.composition.markdown import bullets, join_blocks, to_be_completed
from gdpr.i18n import _, cite_reference

_ART_9_WORDS = re.compile(
    r"biometri|genetic|\bhealth|medical|diagnos|racial|ethnic|political\s+opinion|relig"
    r"|philosophical|trade[\s-]+union|sex\s+life|sexual\s+orientation|fingerprint|face\s*print"
    r"|facial\s+recognition",
    re.IGNORECASE,
)
_ART_10_WORDS = re.compile(
    r"criminal|conviction|offen[cs]e|police\s+record|judicial\s+record", re.IGNORECASE
)


@dataclass(frozen=True, slots=True)
class SensitiveData:
    """The Art. 9(1) and Art. 10 data of the processing and the conditions given."""

    special: tuple[str, ...]
    criminal: tuple[str, ...]
    conditions: tuple[SpecialCategoryCondition, ...]
    art10_basis: str | None

    @property
    def special_without_condition(self) -> bool:
        return bool(self.special) and not self.conditions

    @property
    def criminal_without_basis(self) -> bool:
        return bool(self.criminal) and not self.art10_basis


def _texts(context: CompositionContext, key: str) -> list[str]:
    # `specialCategories` is a list for DPIAs but a yes/no flag for breach notifications.
    return [str(v) for v in context.items(key) if not isinstance(v, bool)]


def sensitive_data(context: CompositionContext) -> SensitiveData:
    """Art. 9/10 data named in `specialCategories` or recognised among `dataCategories`."""
    declared = _texts(context, "specialCategories")
    categories = _texts(context, "dataCategories")
    special = [*declared, *(c for c in categories if _ART_9_WORDS.search(c))]
    criminal = [c for c in [*declared, *categories] if _ART_10_WORDS.search(c)]
    special = [c for c in special if c not in criminal]
    return SensitiveData(
        special=tuple(dict.fromkeys(special)),
        criminal=tuple(dict.fromkeys(criminal)),
        conditions=tuple(context.items("specialCategoryConditions")),
        art10_basis=context.inline("art10Basis"),
    )


def write_sensitive_data(context: CompositionContext) -> str:
    """The checklist text: the data, its Art. 9(2) condition / Art. 10 basis, or the gap."""
    found = sensitive_data(context)
    if not found.special and not found.criminal:
        return _(
            "No special category of data (Art. 9(1)) and no data relating to criminal"
            " convictions and offences (Art. 10) is processed, as far as the inputs state."
        )
    blocks: list[str | None] = []
    if found.special:
        blocks.append(
            _("Special categories of data processed (Art. 9(1)):\n\n") + bullets(found.special)
        )
        if found.conditions:
            blocks.append(
                _("Condition(s) lifting the prohibition (Art. 9(2)):\n\n")
                + bullets(found.conditions)
            )
        else:
            blocks.append(
                _(
                    "Processing these data is prohibited (Art. 9(1)) unless a condition of"
                    " Art. 9(2) applies; an Art. 6(1) basis alone is not enough. "
                )
                + to_be_completed(
                    _(
                        "the Art. 9(2) condition (a)-(j) relied on, e.g."
                        " 'Art. 9(2)(a) explicit consent'"
                    )
                )
            )
    if found.criminal:
        blocks.append(
            _("Data relating to criminal convictions and offences (Art. 10):\n\n")
            + bullets(found.criminal)
        )
        blocks.append(
            _("Art. 10 basis: {art10_basis}.", art10_basis=found.art10_basis)
            if found.art10_basis
            else _(
                "Such data may only be processed under official authority or when Union or"
                " Member State law authorises it with appropriate safeguards (Art. 10). "
            )
            + to_be_completed(_("the Art. 10 basis (the authority or the law relied on)"))
        )
    return join_blocks(*blocks)


def special_category_labels(context: CompositionContext) -> tuple[str, ...]:
    """What the screening should treat as Art. 9 data (declared, recognised or by condition)."""
    found = sensitive_data(context)
    labels = [*found.special, *found.criminal]
    if not labels:
        labels = [
            # The letter is known only here: the whole reference is cited in the document's
            # language (a placeholder inside a reference cannot be localised by the catalog).
            _(
                "data processed under {reference}",
                reference=cite_reference(f"Art. 9(2)({condition.letter})"),
            )
            for condition in found.conditions
        ]
    return tuple(labels)
