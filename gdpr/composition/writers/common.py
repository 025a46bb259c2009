"""Writer helpers shared by several document types."""

from __future__ import annotations

from gdpr.composition.context import CompositionContext
from gdpr.composition.inputs import (
    LegalBasis,
    SpecialCategoryCondition,
    Transfer,
)
from gdpr.composition.markdown import (
    bullets,
    escape_inline,
    join_blocks,
    table,
    to_be_completed,
)
from gdpr.composition.transfers import Instrument, describe_instrument
from gdpr.i18n import _, punct


def list_or_marker(context: CompositionContext, key: str, label: str, needed: str) -> str:
    """'label:' and a bullet list of the values, or the marker saying what is needed."""
    values = context.items(key)
    if not values:
        return f"{label}{punct(':')} {to_be_completed(needed)}"
    return f"{label}{punct(':')}\n\n{bullets(values)}"


def text_or_marker(context: CompositionContext, key: str, needed: str) -> str:
    """The escaped text under `key`, or the marker saying what is needed."""
    return context.text(key) or to_be_completed(needed)


def controller_identity(context: CompositionContext) -> str:
    """Name and contact details of the controller; marked when either is missing."""
    name = context.company_name
    missing_name = _("controller name")
    lines = [
        _(
            "- **Name:** {name}",
            name=escape_inline(name) if name else to_be_completed(missing_name),
        ),
        _("- **Contact details:** ")
        + (context.inline("companyDetails") or to_be_completed(_("address, e-mail and telephone"))),
    ]
    return "\n".join(lines)


def dpo_line(context: CompositionContext) -> str:
    """The DPO contact line; marked when not given."""
    contact = context.inline("dpoContact")
    if contact:
        return _("- **Data protection officer:** {contact}", contact=contact)
    return _("- **Data protection officer:** ") + to_be_completed(
        _("DPO contact details, or a statement that no DPO is required under Art. 37")
    )


def legal_basis_codes(context: CompositionContext) -> set[str]:
    """The Art. 6(1) codes recognised in `legalBasis`, whatever the wording."""
    bases: list[LegalBasis] = context.items("legalBasis")
    return {code for basis in bases for code in basis.codes}


def legal_basis_lines(context: CompositionContext) -> list[str]:
    """Readable labels of the Art. 6(1) bases given, with the wording as stated."""
    return [str(basis) for basis in context.items("legalBasis")]


def special_category_conditions_text(context: CompositionContext) -> str | None:
    """The Art. 9(2) conditions given among the legal bases, or None."""
    conditions: list[SpecialCategoryCondition] = context.items("specialCategoryConditions")
    if not conditions:
        return None
    return _("Conditions for processing special categories of data (Art. 9(2)):\n\n") + bullets(
        conditions
    )


def legal_basis_text(context: CompositionContext) -> str:
    """The legal bases as a list (and any Art. 9(2) conditions), or the marker."""
    labels = legal_basis_lines(context)
    if not labels:
        basis = _("Legal basis: ") + to_be_completed(_("the Art. 6(1) legal basis of each purpose"))
    else:
        basis = _("Legal basis:\n\n") + bullets(labels)
    return join_blocks(basis, special_category_conditions_text(context))


def legitimate_interests_text(context: CompositionContext) -> str:
    """The Art. 6(1)(f) interests when relied on; a 'not applicable' line otherwise."""
    if "legitimate-interests" not in legal_basis_codes(context):
        return _("The processing does not rely on legitimate interests (Art. 6(1)(f)).")
    return _("Legitimate interests pursued: ") + text_or_marker(
        context,
        "legitimateInterests",
        _(
            "the legitimate interests pursued and the balancing test against the data subjects'"
            " interests"
        ),
    )


def transfers_text(
    context: CompositionContext, *, none_text: str, importer_role: str | None = None
) -> str:
    """A table of third-country transfers and their precise instruments; gaps are marked.

    Transfers include recipients outside the EEA (`inputs.recipient_transfers`); one without
    a safeguard is a Chapter V gap (Art. 44-46), an Art. 49 one needs its documentation. The
    instrument is named by `transfers.describe_instrument` (adequacy decision, SCC module,
    transfer impact assessment); `importer_role` is the role of recipients that state none.
    """
    transfers: list[Transfer] = context.items("thirdCountryTransfers")
    if not transfers:
        return none_text
    instruments = transfer_instruments(context, transfers, importer_role=importer_role)
    rows = [
        (
            transfer.country,
            transfer.recipient or _("not stated"),
            transfer.safeguard.label,
            instrument.text,
            transfer.details or "-",
        )
        for transfer, instrument in zip(transfers, instruments, strict=True)
    ]
    blocks = [
        table(
            (_("Country"), _("Recipient"), _("Safeguard"), _("Instrument"), _("Documentation")),
            rows,
        )
    ]
    gaps = [t for t in transfers if t.needs_safeguard and not t.from_recipient]
    if gaps:
        blocks.append(
            to_be_completed(
                _(
                    "the safeguards (and, for Art. 49(1) second-subparagraph transfers, their"
                    " documentation) for transfers to: "
                )
                + ", ".join(escape_inline(t.country) for t in gaps)
            )
        )
    unsafe = [t for t in transfers if t.needs_safeguard and t.from_recipient]
    if unsafe:
        blocks.append(
            to_be_completed(
                _(
                    "a transfer safeguard (Art. 44-46: adequacy decision, standard contractual"
                    " clauses, binding corporate rules...) for recipients outside the EEA: "
                )
                + ", ".join(escape_inline(f"{t.recipient} ({t.country})") for t in unsafe)
            )
        )
    blocks.extend(
        to_be_completed(escape_inline(missing))
        for instrument in instruments
        for missing in instrument.missing
    )
    return join_blocks(*blocks)


def transfer_instruments(
    context: CompositionContext, transfers: list[Transfer], *, importer_role: str | None = None
) -> list[Instrument]:
    """The precise instrument of each transfer (`transfers.describe_instrument`)."""
    exporter_role = (
        "processor"
        if context.flag("actsAsProcessor") or context.flag("actingAsProcessor")
        else "controller"
    )
    return [
        describe_instrument(
            code=t.safeguard.code,
            country=t.country,
            recipient=t.recipient,
            wording=t.safeguard.wording,
            details=t.details,
            exporter_role=exporter_role,
            importer_role=t.role or importer_role,
        )
        for t in transfers
    ]


def safeguard_summary(context: CompositionContext) -> list[str]:
    """'Country: instrument' for every transfer (for texts that do not need the table)."""
    transfers: list[Transfer] = context.items("thirdCountryTransfers")
    instruments = transfer_instruments(context, transfers)
    return [
        f"{escape_inline(t.country)}: {escape_inline(instrument.text)}"
        for t, instrument in zip(transfers, instruments, strict=True)
    ]
