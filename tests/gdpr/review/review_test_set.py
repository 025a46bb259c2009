"""The review test set: documents the organization did not write, with the statuses a DPO expects.

The documents live in tests/fixtures/reviews/<kind>/ as `<name>.<lang>.md|txt`, each beside
`<name>.<lang>.expected.json` (see the README there for the format and the reasoning). They
are split into passages the way the service stores an ingested asset: the assets chunker
(1000 characters, 150 overlap), and for documents marked `paged` (a PDF upload) one location
"page N" per ~3000 characters, a chunk never spanning two pages.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from assets.processing.chunking import chunk_segments
from formats.segments import Segment
from gdpr.review.engine import review_document
from gdpr.review.report import ItemStatus, Passage, ReviewReport

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "reviews"
PAGE_SIZE = 3000
# The report languages every case is reviewed in; statuses must not depend on them.
REPORT_LANGUAGES = ("en", "de")
STATUSES = frozenset(status.value for status in ItemStatus)


@dataclass(frozen=True)
class Case:
    name: str
    text: str
    document_type: str
    document_language: str
    paged: bool
    verdict: str | None
    # item id -> the statuses a DPO accepts (one, or a few where the law leaves a choice).
    statuses: dict[str, tuple[str, ...]]
    # item id -> phrases of which at least one must be inside one of the item's quotes.
    quotes: dict[str, tuple[str, ...]]


def _as_tuple(value: str | list[str]) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


def _case(document: Path) -> Case:
    stem = document.name.removesuffix(document.suffix)
    expected: dict[str, Any] = json.loads(
        document.with_name(f"{stem}.expected.json").read_text(encoding="utf-8")
    )
    return Case(
        name=stem,
        text=document.read_text(encoding="utf-8"),
        document_type=expected["documentType"],
        document_language=expected["documentLanguage"],
        paged=bool(expected.get("paged", False)),
        verdict=expected.get("verdict"),
        statuses={item: _as_tuple(value) for item, value in expected["items"].items()},
        quotes={item: _as_tuple(value) for item, value in expected.get("quotes", {}).items()},
    )


@cache
def cases(kind: str) -> tuple[Case, ...]:
    """Every document of tests/fixtures/reviews/<kind>/ with its expectations, by name."""
    folder = FIXTURES / kind
    documents = sorted(
        path
        for path in folder.iterdir()
        if path.suffix in {".md", ".txt"} and path.name != "README.md"
    )
    return tuple(_case(document) for document in documents)


def case_names(kind: str) -> list[str]:
    return [case.name for case in cases(kind)]


def case_named(kind: str, name: str) -> Case:
    return next(case for case in cases(kind) if case.name == name)


def _pages(text: str) -> list[str]:
    """The text cut at line ends into pages of about PAGE_SIZE characters, joined = the text."""
    pages: list[str] = []
    current = ""
    for line in text.splitlines(keepends=True):
        if current and len(current) + len(line) > PAGE_SIZE:
            pages.append(current)
            current = ""
        current += line
    if current:
        pages.append(current)
    return pages


def _segments(case: Case) -> list[Segment]:
    if not case.paged:
        return [Segment(case.text, None)]
    return [Segment(page, f"page {number}") for number, page in enumerate(_pages(case.text), 1)]


@cache
def passages(kind: str, name: str) -> tuple[Passage, ...]:
    """The document's passages as the service stores them after ingestion."""
    case = case_named(kind, name)
    return tuple(
        Passage(index=chunk.index, text=chunk.text, location=chunk.location or "")
        for chunk in chunk_segments(_segments(case))
    )


@cache
def review(kind: str, name: str, report_language: str) -> ReviewReport:
    case = case_named(kind, name)
    return review_document(
        document_type=case.document_type,
        passages=passages(kind, name),
        report_language=report_language,
    )


def status_mismatches(case: Case, report: ReviewReport) -> list[str]:
    """Each expected item whose status the report does not meet, as a readable line."""
    found = {item.item_id: item for item in report.items}
    wrong = []
    for item_id, accepted in case.statuses.items():
        item = found.get(item_id)
        if item is None:
            wrong.append(f"{item_id}: not in the report, expected {'|'.join(accepted)}")
        elif item.status.value not in accepted:
            quotes = [citation.quote[:80] for citation in item.citations]
            wrong.append(
                f"{item_id}: {item.status.value}, expected {'|'.join(accepted)}"
                f" (finding: {item.finding!r}; quotes: {quotes})"
            )
    return wrong


def quote_mismatches(case: Case, report: ReviewReport) -> list[str]:
    """Each item whose quotes contain none of its expected phrases (case-insensitive)."""
    found = {item.item_id: item for item in report.items}
    wrong = []
    for item_id, phrases in case.quotes.items():
        item = found.get(item_id)
        quotes = [citation.quote for citation in item.citations] if item else []
        if not any(phrase.casefold() in quote.casefold() for phrase in phrases for quote in quotes):
            wrong.append(f"{item_id}: none of {list(phrases)} in its quotes {quotes}")
    return wrong


def unverifiable_quotes(kind: str, name: str, report: ReviewReport) -> list[str]:
    """Each quote of the report that is not verbatim in one passage and in the document."""
    texts = [passage.text for passage in passages(kind, name)]
    document = case_named(kind, name).text
    return [
        f"{item.item_id}: {citation.quote!r}"
        for item in report.items
        for citation in item.citations
        if not citation.quote.strip()
        or not any(citation.quote in text for text in texts)
        or citation.quote not in document
    ]


def comparable(report: ReviewReport) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Per item, what must not depend on the report language: its status and its quotes."""
    return {
        item.item_id: (item.status.value, tuple(citation.quote for citation in item.citations))
        for item in report.items
    }
