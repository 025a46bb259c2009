"""What goes out to webhook receivers: the event names and the payload of a document event.

The payload is the seed's, exactly: `{event, documentId, organizationId, timestamp, data}`
with `data` carrying at least `documentType` and `status`.
"""

from __future__ import annotations

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
WEBHOOK_EVENTS: Final[tuple[str, ...]] = (
    *DOCUMENT_EVENTS,
    *ASSET_EVENTS,
    *REGISTER_IMPORT_EVENTS,
)


class DocumentEventData(TypedDict):
    documentType: str
    status: str
    # Anything else the document code adds (stage, version, title...) travels along.
    stage: NotRequired[str]
    version: NotRequired[int]


class DocumentEventPayload(TypedDict):
    event: str
    documentId: str
    organizationId: str
    timestamp: str
    data: dict[str, Any]


class AssetEventPayload(TypedDict):
    event: str
    assetId: str
    organizationId: str
    timestamp: str
    data: dict[str, Any]


def asset_event_payload(
    *,
    event: str,
    asset_id: UUID | str,
    organization_id: UUID | str,
    data: dict[str, Any],
    timestamp: datetime,
) -> AssetEventPayload:
    """The body of one asset event: `data` carries status, originalFileName, chunkCount and,
    for `asset.failed`, the error."""
    return {
        "event": event,
        "assetId": str(asset_id),
        "organizationId": str(organization_id),
        "timestamp": timestamp.isoformat().replace("+00:00", "Z"),
        "data": dict(data),
    }


def register_import_event_payload(
    *,
    event: str,
    import_id: UUID | str,
    organization_id: UUID | str,
    data: dict[str, Any],
    timestamp: datetime,
) -> dict[str, Any]:
    """The body of one register import event: `data` carries status, dryRun, fileName,
    totals (when completed) and the error (when failed)."""
    return {
        "event": event,
        "importId": str(import_id),
        "organizationId": str(organization_id),
        "timestamp": timestamp.isoformat().replace("+00:00", "Z"),
        "data": dict(data),
    }


def document_event_payload(
    *,
    event: str,
    document_id: UUID | str,
    organization_id: UUID | str,
    data: DocumentEventData | dict[str, Any],
    timestamp: datetime,
) -> DocumentEventPayload:
    """The body sent to every receiver of one document event (JSON-serializable)."""
    return {
        "event": event,
        "documentId": str(document_id),
        "organizationId": str(organization_id),
        "timestamp": timestamp.isoformat().replace("+00:00", "Z"),
        "data": dict(data),
    }
