"""The offline review: term sets per item and language, patterns for weak wording.

(Contract for the helpers of issue 28; the review-engine helper implements it.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gdpr.review.report import Passage, ReviewReport

# Document types a review knows a checklist for.
REVIEWABLE_TYPES: tuple[str, ...] = ("DATA_PROCESSING_AGREEMENT", "PRIVACY_POLICY")


def item_queries(*, document_type: str, language: str) -> dict[str, list[str]]:
    """Per checklist item, the questions that retrieve its candidate passages in ``language``."""
    raise NotImplementedError


def review_document(
    *,
    document_type: str,
    passages: Sequence[Passage],
    report_language: str,
    retrieved: Mapping[str, Sequence[int]] | None = None,
) -> ReviewReport:
    """Review the document made of ``passages`` (reading order) against its checklist.

    ``retrieved``: per item id, the indexes of the passages the hybrid search ranked best
    for that item's questions (best first); the rules prefer them for quotes but read every
    passage, so an item is never `missing` because retrieval ranked it low.
    """
    raise NotImplementedError
