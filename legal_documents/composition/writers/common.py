"""Writer helpers shared by several document types."""

from __future__ import annotations

from legal_documents.composition.context import CompositionContext
from legal_documents.composition.markdown import (
    bullets,
    escape_inline,
    join_blocks,
    table,
    to_be_completed,
)

LEGAL_BASIS_LABELS = {
    "consent": "consent of the data subject (Art. 6(1)(a))",
    "contract": "performance of a contract or pre-contractual steps (Art. 6(1)(b))",
    "legal-obligation": "compliance with a legal obligation (Art. 6(1)(c))",
    "vital-interests": "protection of vital interests (Art. 6(1)(d))",
    "public-task": "a task in the public interest or official authority (Art. 6(1)(e))",
    "legitimate-interests": "legitimate interests (Art. 6(1)(f))",
}
SAFEGUARD_LABELS = {
    "adequacy-decision": "adequacy decision (Art. 45)",
    "standard-contractual-clauses": "standard contractual clauses (Art. 46(2)(c))",
    "binding-corporate-rules": "binding corporate rules (Art. 47)",
    "code-or-certification": "approved code of conduct or certification (Art. 46(2)(e)-(f))",
    "art-49-derogation": "derogation for a specific situation (Art. 49(1))",
    "art-49-compelling-legitimate-interests": (
        "compelling legitimate interests, Art. 49(1) second subparagraph"
    ),
    "none": "no safeguard identified",
}


def list_or_marker(context: CompositionContext, key: str, label: str, needed: str) -> str:
    """'label:' and a bullet list of the values, or the marker saying what is needed."""
    values = context.items(key)
    if not values:
        return f"{label}: {to_be_completed(needed)}"
    return f"{label}:\n\n{bullets(values)}"


def text_or_marker(context: CompositionContext, key: str, needed: str) -> str:
    """The escaped text under `key`, or the marker saying what is needed."""
    return context.text(key) or to_be_completed(needed)


def controller_identity(context: CompositionContext) -> str:
    """Name and contact details of the controller; marked when either is missing."""
    name = context.company_name
    lines = [
        f"- **Name:** {escape_inline(name) if name else to_be_completed('controller name')}",
        "- **Contact details:** "
        + (context.inline("companyDetails") or to_be_completed("address, e-mail and telephone")),
    ]
    return "\n".join(lines)


def dpo_line(context: CompositionContext) -> str:
    """The DPO contact line; marked when not given."""
    contact = context.inline("dpoContact")
    if contact:
        return f"- **Data protection officer:** {contact}"
    return "- **Data protection officer:** " + to_be_completed(
        "DPO contact details, or a statement that no DPO is required under Art. 37"
    )


def legal_basis_lines(context: CompositionContext) -> list[str]:
    """Readable labels of the Art. 6(1) bases given."""
    return [LEGAL_BASIS_LABELS.get(str(basis), str(basis)) for basis in context.items("legalBasis")]


def legal_basis_text(context: CompositionContext) -> str:
    """The legal bases as a list, or the marker."""
    labels = legal_basis_lines(context)
    if not labels:
        return "Legal basis: " + to_be_completed("the Art. 6(1) legal basis of each purpose")
    return "Legal basis:\n\n" + "\n".join(f"- {label}" for label in labels)


def legitimate_interests_text(context: CompositionContext) -> str:
    """The Art. 6(1)(f) interests when relied on; a 'not applicable' line otherwise."""
    if "legitimate-interests" not in context.items("legalBasis"):
        return "The processing does not rely on legitimate interests (Art. 6(1)(f))."
    return "Legitimate interests pursued: " + text_or_marker(
        context,
        "legitimateInterests",
        "the legitimate interests pursued and the balancing test against the data subjects'"
        " interests",
    )


def transfers_text(context: CompositionContext, *, none_text: str) -> str:
    """A table of third-country transfers and their safeguards; Art. 49 gaps are marked."""
    transfers = context.items("thirdCountryTransfers")
    if not transfers:
        return none_text
    rows = []
    gaps = []
    for transfer in transfers:
        safeguard = transfer.get("safeguard") or "none"
        details = transfer.get("safeguardDetails") or ""
        rows.append(
            (
                transfer.get("country", ""),
                transfer.get("recipient") or "not stated",
                SAFEGUARD_LABELS.get(safeguard, safeguard),
                details or "-",
            )
        )
        if safeguard == "none" or (safeguard.startswith("art-49") and not details):
            gaps.append(escape_inline(transfer.get("country", "")))
    blocks = [table(("Country", "Recipient", "Safeguard", "Documentation"), rows)]
    if gaps:
        blocks.append(
            to_be_completed(
                "the safeguards (and, for Art. 49(1) second-subparagraph transfers, their"
                " documentation) for transfers to: " + ", ".join(gaps)
            )
        )
    return join_blocks(*blocks)
