"""What goes out while an asset is ingested: WebSocket frames and webhook events.

Frames (docs/API.md): `{"event": "<service>.event.asset-status", "data": {...}}` to the group
of the asset's organization (`/ws/assets/`). Webhooks: `asset.completed` and `asset.failed`
once the final status is committed. Both best effort: a lost frame or webhook never fails
an ingestion. Apps above assets that wait for an asset (a review) connect to the
`asset_finished` signal (exposed by assets.selectors), sent at the same moment.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import transaction
from django.dispatch import Signal

from assets.models import Asset, AssetStatus
from assets.progress import status_payload
from common.channel_groups import organization_events_group, send_to_group

logger = logging.getLogger(__name__)

ASSET_STATUS = "asset-status"
# Sent once an asset's final status (COMPLETED or FAILED) is committed, with `asset_id` and
# `status`; receivers' errors are logged, never raised into the ingestion (send_robust).
asset_finished = Signal()


def organization_assets_group(organization_id: Any) -> str:
    return organization_events_group(organization_id)


def event_name(name: str) -> str:
    return f"{settings.EVENTS_SERVICE_NAME}.event.{name}"


def send_asset_status(asset: Asset) -> None:
    """Send the asset's status and progress to its organization's `/ws/assets/` sockets."""
    message = {
        "type": "asset.event",
        "event": event_name(ASSET_STATUS),
        "data": status_payload(asset),
    }
    try:
        send_to_group(organization_assets_group(asset.organization_id), message)
    except Exception:
        logger.warning("could not send %s for asset %s", ASSET_STATUS, asset.pk, exc_info=True)


def announce_final_status(asset_id: Any) -> None:
    """After the final status commits: the WebSocket frame and the webhook event."""
    from webhooks.events import ASSET_COMPLETED, ASSET_FAILED

    def announce() -> None:
        asset = Asset.objects.filter(pk=asset_id).first()
        if asset is None or asset.status not in (AssetStatus.COMPLETED, AssetStatus.FAILED):
            return
        send_asset_status(asset)
        event = ASSET_COMPLETED if asset.status == AssetStatus.COMPLETED else ASSET_FAILED
        data: dict[str, Any] = {
            "status": asset.status,
            "originalFileName": asset.original_file_name,
            "chunkCount": asset.chunk_count,
        }
        if asset.status == AssetStatus.FAILED:
            data["error"] = {
                "code": asset.error_code or "EXTRACTION_FAILED",
                "message": asset.error_message,
                "details": asset.error_details,
            }
        from webhooks.services import queue_event

        queue_event(
            event=event, subject_id=asset.pk, organization_id=asset.organization_id, data=data
        )
        for receiver, outcome in asset_finished.send_robust(
            sender=Asset, asset_id=asset.pk, status=asset.status
        ):
            if isinstance(outcome, Exception):
                logger.warning(
                    "%r of asset_finished failed for asset %s: %r", receiver, asset.pk, outcome
                )

    transaction.on_commit(announce)
