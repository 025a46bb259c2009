"""Grounding generation in the organization's own uploaded assets.

It lives with the documents (not in ``assets``): grounding is what a document needs from the
assets, read only through ``assets.selectors`` and ``assets.models``. ``sources_for_document``
is called by ``legal_documents.services.documents`` for every generation: the ``template``
provider lists the sources in an annex, the ``openai`` provider cites them. It must be
cheap and must never fail a generation.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from assets.models import Asset, AssetStatus
from assets.selectors import asset_search
from gdpr.composition.context import SourceRef

logger = logging.getLogger(__name__)

MAX_SOURCES = 5
CANDIDATE_CHUNKS = 25
MAX_QUERY_CHARACTERS = 2000
EXCERPT_CHARACTERS = 500
# Inputs that identify rather than describe: they add only noise to the query.
IGNORED_INPUTS = frozenset({"companyName", "companyDetails", "clientCompanyId", "documentType"})


def sources_for_document(document: Any) -> list[SourceRef]:
    """Up to five of the organization's assets most relevant to ``document``.

    The query is the document type's title plus its key inputs; the organization's
    COMPLETED chunks are searched by the API's hybrid ``asset_search`` and the best chunk of
    each distinct asset becomes ``SourceRef(file_name, excerpt)``, best first. Returns []
    when the organization has no processed asset, and on any error (logged): grounding is
    optional, generation is not.
    """
    try:
        organization_id = document.organization_id
        if not Asset.objects.filter(
            organization_id=organization_id, status=AssetStatus.COMPLETED
        ).exists():
            return []
        # The API's search (hybrid: meaning, words and names), scoped the same way.
        hits = asset_search(
            organization_id=organization_id, query=document_query(document), k=CANDIDATE_CHUNKS
        )
    except Exception:
        logger.warning("grounding sources unavailable for %s", document.pk, exc_info=True)
        return []
    sources: list[SourceRef] = []
    seen: set[str] = set()
    for hit in hits:
        if hit.asset_id in seen:
            continue
        seen.add(hit.asset_id)
        excerpt = " ".join(hit.text.split())[:EXCERPT_CHARACTERS]
        sources.append(SourceRef(file_name=hit.original_file_name, excerpt=excerpt))
        if len(sources) == MAX_SOURCES:
            break
    return sources


def document_query(document: Any) -> str:
    """The search text of a document: its type's title and its descriptive inputs."""
    from gdpr.doctypes.registry import get_document_type

    parts = [get_document_type(document.document_type).title]
    for name, value in (document.inputs or {}).items():
        if name not in IGNORED_INPUTS:
            parts.extend(_texts(value))
    return " ".join(" ".join(parts).split())[:MAX_QUERY_CHARACTERS]


def _texts(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _texts(item)
