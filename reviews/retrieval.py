"""What a review reads: the asset's passages in order, their language, and per checklist
item the passages the hybrid search ranks best for that item's questions.

Retrieval is a hint for the rules (gdpr.review.engine reads every passage): a search that
cannot run (no embedding service, a statement timeout) degrades to the full-text search or
to no hint for that question, never fails the review.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence

from assets.selectors import SearchHit, SearchMode, asset_chunks, asset_search
from common.domain import Unavailable
from gdpr.review import engine
from gdpr.review.report import Passage
from gdpr.review.segments import units_of

logger = logging.getLogger(__name__)

# Hits asked of the search per question, and passages kept per item (best first).
HITS_PER_QUESTION = 8
PASSAGES_PER_ITEM = 8
# The code of a search the database did not finish in time (assets.exceptions): that
# question gets no hint, the next ones still use vectors.
SEARCH_TIMEOUT = "SEARCH_TIMEOUT"


def passages_of(*, organization_id: object, asset_id: object) -> list[Passage]:
    """The asset's chunks as the engine's passages, in reading order, verbatim."""
    return [
        Passage(index=chunk.index, text=chunk.text, location=chunk.location)
        for chunk in asset_chunks(organization_id=str(organization_id), asset_id=str(asset_id))
    ]


def document_language(passages: Sequence[Passage]) -> str:
    """The language most of the document's sentences are written in (English if none), as
    the engine tells it: the questions are asked in the language the report will name."""
    return engine.detect_language(units_of(passages))


def retrieve(
    *,
    organization_id: object,
    asset_id: object,
    queries: Mapping[str, Sequence[str]],
    on_item: Callable[[int, int], None] | None = None,
) -> dict[str, list[int]]:
    """Per item id, the indexes of the asset's passages ranked best for its questions.

    Each question is one hybrid search restricted to the asset; an item's passages are
    fused over its questions (the sum of each hit's score, so a passage several questions
    find wins). `on_item(done, total)` after each item (progress).
    """
    mode = SearchMode.HYBRID
    retrieved: dict[str, list[int]] = {}
    total = len(queries)
    for done, (item_id, questions) in enumerate(queries.items(), start=1):
        scores: defaultdict[int, float] = defaultdict(float)
        for question in questions:
            hits, mode = _search(
                organization_id=organization_id, asset_id=asset_id, query=question, mode=mode
            )
            for hit in hits:
                scores[hit.chunk_index] += hit.score
        ranked = sorted(scores.items(), key=lambda pair: (-pair[1], pair[0]))
        retrieved[item_id] = [index for index, _score in ranked[:PASSAGES_PER_ITEM]]
        if on_item is not None:
            on_item(done, total)
    return retrieved


def _search(
    *, organization_id: object, asset_id: object, query: str, mode: SearchMode
) -> tuple[list[SearchHit], SearchMode]:
    """The hits of one question and the mode to go on with (text once embedding failed)."""
    try:
        hits = asset_search(
            organization_id=organization_id, asset_id=str(asset_id), query=query,
            k=HITS_PER_QUESTION, mode=mode,
        )  # fmt: skip
    except Unavailable as unavailable:
        if mode is SearchMode.HYBRID and unavailable.code != SEARCH_TIMEOUT:
            # The embedding service is down: the full-text ranking still finds the words.
            logger.warning("review retrieval goes on without vectors: %s", unavailable.message)
            return _search(
                organization_id=organization_id, asset_id=asset_id, query=query,
                mode=SearchMode.TEXT,
            )  # fmt: skip
        logger.warning("a review retrieval search failed: %s", unavailable.message)
        return [], mode
    return hits, mode
