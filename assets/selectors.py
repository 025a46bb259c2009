"""Reading assets: hybrid search over the organization's chunks, an asset's text in order,
and an asset's original file."""

from __future__ import annotations

import logging
import uuid
from typing import NamedTuple

from assets import embedding
from assets.events import asset_finished
from assets.exceptions import EmbeddingUnavailable
from assets.models import Asset, AssetChunk
from assets.search import MAX_QUERY_CHARACTERS, SearchHit, SearchMode, hybrid_chunk_search
from assets.storage import local_copy
from common.domain import TooLarge
from organizations.models import Organization

logger = logging.getLogger(__name__)

MAX_SEARCH_RESULTS = 50

__all__ = [
    "MAX_QUERY_CHARACTERS",
    "MAX_SEARCH_RESULTS",
    "ChunkText",
    "SearchHit",
    "SearchMode",
    "asset_chunks",
    "asset_finished",
    "asset_original_file",
    "asset_search",
    "chunk_search",
]


def asset_search(
    *,
    organization: Organization | None = None,
    organization_id: object = None,
    query: str,
    k: int = 10,
    mode: SearchMode = SearchMode.HYBRID,
    asset_id: uuid.UUID | str | None = None,
) -> list[SearchHit]:
    """The ``k`` chunks of the organization's COMPLETED assets that best match ``query``.

    ``mode``: ``hybrid`` (vector, full-text and trigram rankings fused), ``vector`` or
    ``text`` (full-text and trigram, no embedding); see :mod:`assets.search`. Never returns
    another organization's chunks: the organization filter is in every ranker of the one
    SQL query. ``asset_id``: only that asset's chunks (a review reads one document); an
    asset of another organization, or not COMPLETED, gives none. Give ``organization`` or
    its id. Raises EmbeddingUnavailable (503
    SERVICE_UNAVAILABLE) when the query must be embedded and cannot be (a provider
    misconfigured or unreachable); the cause is logged.
    """
    if organization is not None:
        organization_id = organization.pk
    if organization_id is None:
        raise ValueError("asset_search needs the organization")
    k = max(1, min(k, MAX_SEARCH_RESULTS))
    vector, model = _query_vector(query) if mode.needs_embedding else (None, None)
    return hybrid_chunk_search(
        organization_id=organization_id, query=query, vector=vector, k=k, mode=mode,
        vector_model=model, asset_id=uuid.UUID(str(asset_id)) if asset_id is not None else None,
    )  # fmt: skip


class ChunkText(NamedTuple):
    """One stored chunk of an asset: its index (reading order), its text, where it is."""

    index: int
    text: str
    location: str


def asset_chunks(*, organization_id: uuid.UUID | str, asset_id: uuid.UUID | str) -> list[ChunkText]:
    """The chunks of one of the organization's assets, in reading order (empty for another
    organization's asset). The text is verbatim as extracted: quotes are checked against it.
    """
    rows = (
        AssetChunk.objects.filter(asset_id=asset_id, organization_id=organization_id)
        .order_by("index")
        .values_list("index", "text", "location")
    )
    return [ChunkText(index=index, text=text, location=location) for index, text, location in rows]


def chunk_search(*, organization_id: object, vector: list[float], k: int) -> list[SearchHit]:
    """Nearest chunks to an already embedded query within one organization (vector only)."""
    return hybrid_chunk_search(
        organization_id=organization_id, query="", vector=vector, k=k, mode=SearchMode.VECTOR
    )


def _query_vector(query: str) -> tuple[list[float], str]:
    """The query's vector and the model (assets.embedding.MODELS) that made it: the active
    one, whose vectors are in ``AssetChunk.embedding``."""
    try:
        model = embedding.active_model()
        return embedding.provider_for(model).embed_query(query), model
    except Exception as error:
        # Whatever the provider's library raises (configuration, network, API errors).
        logger.exception("the search query could not be embedded")
        raise EmbeddingUnavailable() from error


def asset_original_file(
    *, organization_id: uuid.UUID | str, asset_id: uuid.UUID | str, max_bytes: int
) -> tuple[str, bytes] | None:
    """(file name, bytes) of one of the organization's assets as uploaded, or None.

    None when no asset of that id belongs to the organization (another organization's asset
    is "not found" for the caller). Raises TooLarge past `max_bytes`, before reading it.
    """
    asset = Asset.objects.filter(pk=asset_id, organization_id=organization_id).first()
    if asset is None:
        return None
    if asset.file_size > max_bytes:
        raise TooLarge(
            f"The asset is {asset.file_size:,} bytes; at most {max_bytes:,} are read here."
        )
    with local_copy(asset.original_file.name) as path:
        return asset.original_file_name, path.read_bytes()[: max_bytes + 1]
