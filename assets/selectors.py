"""Reading assets: the organization's list and vector search over its chunks."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.db import connection, transaction
from pgvector.django import CosineDistance

from assets.embedding import embedding_provider
from assets.models import AssetChunk, AssetStatus
from common.errors import ApiError
from organizations.models import Organization

logger = logging.getLogger(__name__)

MAX_SEARCH_RESULTS = 50
# HNSW candidate list: at least this, or a few times k (recall against latency).
MIN_EF_SEARCH = 40


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One chunk found by a search; ``score`` is the cosine similarity (1 = same direction)."""

    asset_id: str
    original_file_name: str
    chunk_index: int
    text: str
    location: str
    score: float


def asset_search(*, organization: Organization, query: str, k: int = 10) -> list[SearchHit]:
    """The ``k`` chunks of the organization's COMPLETED assets closest to ``query``.

    Never returns another organization's chunks: the organization filter is part of the one
    SQL query. Uses the HNSW index (ORDER BY cosine distance LIMIT k) with iterative scans,
    so that the filter cannot starve the result (docs/PITFALLS.md: the ``SET LOCAL`` must be in
    the same transaction as the query). Raises ApiError 503 SERVICE_UNAVAILABLE when the
    query cannot be embedded (a provider misconfigured or unreachable); the cause is logged.
    """
    k = max(1, min(k, MAX_SEARCH_RESULTS))
    try:
        vector = embedding_provider().embed_query(query)
    except Exception as error:
        # Whatever the provider's library raises (configuration, network, API errors).
        logger.exception("the search query could not be embedded")
        raise ApiError(
            "SERVICE_UNAVAILABLE",
            "The embedding service is unavailable; retry shortly.",
            status_code=503,
            headers={"Retry-After": "5"},
        ) from error
    return chunk_search(organization_id=organization.pk, vector=vector, k=k)


def chunk_search(*, organization_id: object, vector: list[float], k: int) -> list[SearchHit]:
    """Nearest chunks to ``vector`` within one organization (see :func:`asset_search`)."""
    distance = CosineDistance("embedding", vector)
    with transaction.atomic():
        with connection.cursor() as cursor:
            # set_config(..., true) is SET LOCAL: it ends with this transaction.
            cursor.execute(
                "SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), "
                "set_config('hnsw.ef_search', %s, true)",
                [str(max(MIN_EF_SEARCH, 2 * k))],
            )
        rows = list(
            AssetChunk.objects.filter(
                organization_id=organization_id, asset__status=AssetStatus.COMPLETED
            )
            .annotate(distance=distance)
            .order_by(distance)
            .values_list(
                "asset_id", "asset__original_file_name", "index", "text", "location", "distance"
            )[:k]
        )
    # relaxed_order may return neighbours slightly out of order: sort the k found.
    rows.sort(key=lambda row: row[5])
    return [
        SearchHit(
            asset_id=str(asset_id),
            original_file_name=name,
            chunk_index=index,
            text=text,
            location=location,
            score=round(1.0 - float(distance), 6),
        )
        for asset_id, name, index, text, location, distance in rows
    ]
