"""One row of facts per purpose of a privacy notice (Art. 13(1)(c)-(e), 13(2)(a), 14(2)(f)).

A data subject must be able to tell, for each purpose, which data is used, on which legal
basis (and, for Art. 6(1)(f), which interest), for how long, who receives it and where it comes
from (WP29 Guidelines on transparency, WP260 rev.01, Annex). `processingPurposes` gives that
per purpose; without it the rows are derived from the flat fields, and a fact that cannot be
attributed to one purpose (several legal bases for several purposes) is marked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gdpr.composition.context import CompositionContext
from gdpr.composition.inputs import LegalBasis, data_category, legal_bases
from gdpr.composition.markdown import escape_inline, to_be_completed
from gdpr.i18n import _


@dataclass(frozen=True, slots=True)
class PurposeRow:
    """The facts of one purpose, each already Markdown (escaped values or the marker)."""

    purpose: str
    codes: frozenset[str]
    cells: tuple[tuple[str, str], ...]


def _list_value(value: Any) -> list[str]:
    if value is None or value == "" or value == []:
        return []
    if isinstance(value, list | tuple):
        return [str(part) for part in value if str(part).strip()]
    return [str(value)]


def _categories(value: Any) -> list[str]:
    # A purpose's own categories, each a text or `{name, category}` like `dataCategories`.
    given = value if isinstance(value, list | tuple) else [value] if value else []
    return [str(data_category(part)) for part in given if str(data_category(part)).strip()]


def _joined(values: list[Any]) -> str | None:
    return "; ".join(escape_inline(value) for value in values) if values else None


def _flat_source(context: CompositionContext) -> str:
    collected = context.flag("dataCollectedFromSubject")
    if collected:
        return _("You")
    if collected is False and context.items("dataSources"):
        return _joined(context.items("dataSources")) or ""
    return to_be_completed(_("where the data comes from (Art. 14(2)(f))"))


def _basis_cell(bases: tuple[LegalBasis, ...], flat: list[LegalBasis]) -> tuple[str, set[str]]:
    if bases:
        return _joined(list(bases)) or "", {code for basis in bases for code in basis.codes}
    if len(flat) == 1:
        return escape_inline(flat[0]), set(flat[0].codes)
    if flat:
        given = "; ".join(escape_inline(basis) for basis in flat)
        return f"{given} - " + to_be_completed(
            _("which of the legal bases given applies to this purpose (Art. 13(1)(c))")
        ), set()
    return to_be_completed(_("the Art. 6(1) legal basis of this purpose")), set()


def purpose_rows(context: CompositionContext) -> list[PurposeRow]:
    """A row per purpose: `processingPurposes` entries first, else one per flat purpose."""
    flat_bases: list[LegalBasis] = context.items("legalBasis")
    entries: list[Mapping[str, Any]] = [
        entry for entry in context.items("processingPurposes") if isinstance(entry, Mapping)
    ]
    if not entries:
        entries = [{"purpose": purpose} for purpose in context.items("purposes")]
    rows = []
    for entry in entries:
        bases, _wordings = legal_bases(_list_value(entry.get("legalBasis")))
        basis, codes = _basis_cell(bases, flat_bases)
        cells = [
            (
                _("Personal data"),
                _joined(_categories(entry.get("dataCategories")) or context.items("dataCategories"))
                or to_be_completed(_("the categories of personal data used for this purpose")),
            ),
            (_("Legal basis"), basis),
        ]
        if "legitimate-interests" in codes:
            interest = entry.get("legitimateInterest") or context.value("legitimateInterests")
            cells.append(
                (
                    _("Legitimate interest pursued"),
                    escape_inline(interest)
                    if interest
                    else to_be_completed(_("the legitimate interest pursued (Art. 13(1)(d))")),
                )
            )
        retention = _list_value(entry.get("retention")) or context.items("retentionPeriods")
        cells.append(
            (
                _("How long we keep it"),
                _joined(retention) or to_be_completed(_("the retention period or its criteria")),
            )
        )
        recipients = _list_value(entry.get("recipients")) or context.items("recipients")
        cells.append(
            (
                _("Who receives it"),
                _joined(recipients) or to_be_completed(_("the recipients, or 'no one'")),
            )
        )
        source = entry.get("source")
        cells.append(
            (_("Where it comes from"), escape_inline(source) if source else _flat_source(context))
        )
        rows.append(
            PurposeRow(
                purpose=escape_inline(entry.get("purpose") or _("Purpose not named")),
                codes=frozenset(codes),
                cells=tuple(cells),
            )
        )
    return rows


def purpose_table(row: PurposeRow) -> str:
    """A two-column table of one purpose (cells are already Markdown)."""
    lines = [
        _("**Purpose: {purpose}**", purpose=row.purpose),
        "",
        _("| Aspect | Details |"),
        "|---|---|",
    ]
    lines.extend(f"| {label} | {value} |" for label, value in row.cells)
    return "\n".join(lines)


def basis_codes(context: CompositionContext) -> set[str]:
    """Every Art. 6(1) code of the notice: the flat bases and those of each purpose."""
    flat: list[LegalBasis] = context.items("legalBasis")
    codes = {code for basis in flat for code in basis.codes}
    for row in purpose_rows(context):
        codes |= row.codes
    return codes


def purposes_with(context: CompositionContext, wanted: frozenset[str]) -> list[str]:
    """The (escaped) purposes whose basis is one of `wanted` codes, when attributable."""
    return [row.purpose for row in purpose_rows(context) if row.codes & wanted]
