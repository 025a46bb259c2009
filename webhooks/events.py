"""What goes out to webhook receivers: the event names and the one payload of every event.

The payload is the seed's, exactly: `{event, documentId, organizationId, timestamp, data}`
with `data` carrying at least `documentType` and `status`; asset, register import and
review events name their subject `assetId`, `importId` and `reviewId` instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Final, NotRequired, TypedDict
from uuid import UUID

# The one definition of the names (legal_documents sends them, which sits above webhooks).
DOCUMENT_CREATED: Final = "document.created"
DOCUMENT_DRAFTED: Final = "document.drafted"
DOCUMENT_FINALIZED: Final = "document.finalized"
DOCUMENT_UPDATED: Final = "document.updated"
# The register entries a document was written from changed (legal_documents.staleness).
DOCUMENT_STALE: Final = "document.stale"

ASSET_COMPLETED: Final = "asset.completed"
ASSET_FAILED: Final = "asset.failed"

# A register import (or its dry run) has ended (register.import_events).
REGISTER_IMPORT_COMPLETED: Final = "register_import.completed"
REGISTER_IMPORT_FAILED: Final = "register_import.failed"

# A review of an uploaded document has ended (reviews.events).
REVIEW_COMPLETED: Final = "review.completed"
REVIEW_FAILED: Final = "review.failed"

# Order as in docs/API.md; endpoints subscribe to any subset of WEBHOOK_EVENTS.
DOCUMENT_EVENTS: Final[tuple[str, ...]] = (
    DOCUMENT_CREATED,
    DOCUMENT_DRAFTED,
    DOCUMENT_FINALIZED,
    DOCUMENT_UPDATED,
    DOCUMENT_STALE,
)
ASSET_EVENTS: Final[tuple[str, ...]] = (ASSET_COMPLETED, ASSET_FAILED)
REGISTER_IMPORT_EVENTS: Final[tuple[str, ...]] = (
    REGISTER_IMPORT_COMPLETED,
    REGISTER_IMPORT_FAILED,
)
REVIEW_EVENTS: Final[tuple[str, ...]] = (REVIEW_COMPLETED, REVIEW_FAILED)
WEBHOOK_EVENTS: Final[tuple[str, ...]] = (
    *DOCUMENT_EVENTS,
    *ASSET_EVENTS,
    *REGISTER_IMPORT_EVENTS,
    *REVIEW_EVENTS,
)


# The key of the payload naming what the event is about, by the event's family (docs/API.md).
SUBJECT_KEYS: Final[dict[str, str]] = {
    "document": "documentId",
    "asset": "assetId",
    "register_import": "importId",
    "review": "reviewId",
}


class DocumentEventData(TypedDict):
    documentType: str
    status: str
    # Anything else the document code adds (stage, version, title...) travels along.
    stage: NotRequired[str]
    version: NotRequired[int]


def subject_key(event: str) -> str:
    """`documentId` for `document.created`, `assetId` for `asset.failed`, and so on."""
    return SUBJECT_KEYS[event.split(".", 1)[0]]


def event_payload(
    *,
    event: str,
    subject_id: UUID | str,
    organization_id: UUID | str,
    data: Mapping[str, Any],
    timestamp: datetime,
) -> dict[str, Any]:
    """The body sent to every receiver of one event (JSON-serializable), for every event:
    `{event, <subject>Id, organizationId, timestamp, data}`, in that order.

    `data` of a document event carries at least documentType and status; of an asset event
    status, originalFileName, chunkCount and, for `asset.failed`, the error; of a register
    import event status, dryRun, fileName, totals (completed) or the error (failed); of a
    review event status, documentType, assetId, vendorId, language, and verdict and counts
    (completed) or the error (failed).
    """
    return {
        "event": event,
        subject_key(event): str(subject_id),
        "organizationId": str(organization_id),
        "timestamp": timestamp.isoformat().replace("+00:00", "Z"),
        "data": dict(data),
    }
