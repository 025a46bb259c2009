"""What a review works on and what it answers: passages in, items with citations out."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum


class ItemStatus(StrEnum):
    PRESENT = "present"
    WEAK = "weak"
    MISSING = "missing"
    NOT_APPLICABLE = "not-applicable"
    NEEDS_HUMAN_CHECK = "needs-human-check"


class Verdict(StrEnum):
    # Every applicable item is present.
    NO_GAPS = "no-gaps"
    # At least one item is missing or weak.
    GAPS = "gaps"
    # Nothing found missing or weak, but some item could not be decided.
    NEEDS_HUMAN_CHECK = "needs-human-check"


@dataclass(frozen=True, slots=True)
class Passage:
    """One stored chunk of the document, verbatim, in reading order.

    ``index`` is the chunk's index in the asset; ``location`` what extraction recorded
    ("page 3", "slide 2", or "" where the format has no pages, like DOCX). Neighbouring
    passages overlap (the chunker's overlap), so the same sentence may be in two.
    """

    index: int
    text: str
    location: str = ""


@dataclass(frozen=True, slots=True)
class Citation:
    """A verbatim quote of the document and where a DPO finds it."""

    location: str
    quote: str


@dataclass(frozen=True, slots=True)
class ItemResult:
    item_id: str
    article: str
    status: ItemStatus
    finding: str
    citations: tuple[Citation, ...] = ()
    suggestion: str = ""


@dataclass(frozen=True, slots=True)
class ReviewReport:
    document_type: str
    # The report's language (findings and suggestions) and the document's own.
    language: str
    document_language: str
    ruleset: str
    items: tuple[ItemResult, ...]
    # "rules" offline, "rules+model" when a language model was asked as well.
    method: str = "rules"
    notes: tuple[str, ...] = field(default=())

    @property
    def counts(self) -> dict[str, int]:
        counts = {status.value: 0 for status in ItemStatus}
        for item in self.items:
            counts[item.status.value] += 1
        return counts

    @property
    def verdict(self) -> Verdict:
        statuses = {item.status for item in self.items}
        if statuses & {ItemStatus.MISSING, ItemStatus.WEAK}:
            return Verdict.GAPS
        if ItemStatus.NEEDS_HUMAN_CHECK in statuses:
            return Verdict.NEEDS_HUMAN_CHECK
        return Verdict.NO_GAPS


def is_verbatim(quote: str, passages: Iterable[Passage]) -> bool:
    """Whether ``quote`` is, character for character, in one of the passages."""
    return bool(quote.strip()) and any(quote in passage.text for passage in passages)


def with_verified_quotes(item: ItemResult, passages: Sequence[Passage]) -> ItemResult:
    """The item with every quote that is not verbatim in the document dropped.

    An item that loses a quote this way cannot stand on its evidence: it becomes
    `needs-human-check` (a `missing` item has no quotes to lose). Every quote stored by
    the service passes here, whoever proposed it (the rules or a language model).
    """
    kept = tuple(citation for citation in item.citations if is_verbatim(citation.quote, passages))
    if len(kept) == len(item.citations):
        return item
    return replace(item, citations=kept, status=ItemStatus.NEEDS_HUMAN_CHECK)
