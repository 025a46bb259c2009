"""What goes out while a register import runs: WebSocket frames and webhook events.

Frames `{"event": "<service>.event.register-import-status", "data": {importId, status,
dryRun, fileName, progress, error}}` go to the organization's event socket (`/ws/assets/`,
common.channel_groups) when an attempt starts and when the import ends; the webhook events
`register_import.completed` / `register_import.failed` (names in webhooks.events) once the
final status is committed. Best effort: a lost frame or webhook never fails an import.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings

from common.channel_groups import organization_events_group, send_to_group
from register.models import ImportStatus, RegisterImport

logger = logging.getLogger(__name__)

REGISTER_IMPORT_STATUS = "register-import-status"


def progress_of(register_import: RegisterImport) -> dict[str, Any]:
    return {"stage": register_import.stage or None, "attempts": register_import.attempts}


def error_of(register_import: RegisterImport) -> dict[str, Any] | None:
    if register_import.status != ImportStatus.FAILED:
        return None
    return {
        "code": register_import.error_code,
        "message": register_import.error_message,
        "details": register_import.error_details,
    }


def announce(*, import_id: Any, final: bool) -> None:
    """The import's status on its organization's socket; at the end, its webhook event."""
    register_import = RegisterImport.objects.filter(pk=import_id).first()
    if register_import is None:
        return
    data: dict[str, Any] = {
        "importId": str(register_import.pk),
        "status": register_import.status,
        "dryRun": register_import.dry_run,
        "fileName": register_import.file_name,
        "progress": progress_of(register_import),
        "error": error_of(register_import),
    }
    message = {
        "type": "asset.event",  # the socket's consumer forwards every event of this type
        "event": f"{settings.EVENTS_SERVICE_NAME}.event.{REGISTER_IMPORT_STATUS}",
        "data": data,
    }
    try:
        send_to_group(organization_events_group(register_import.organization_id), message)
    except Exception:
        logger.warning("could not send the status of register import %s", import_id, exc_info=True)
    if final and register_import.finished:
        _notify_webhooks(register_import, data)


def _notify_webhooks(register_import: RegisterImport, data: dict[str, Any]) -> None:
    from webhooks.events import REGISTER_IMPORT_COMPLETED, REGISTER_IMPORT_FAILED
    from webhooks.services import queue_event

    completed = register_import.status == ImportStatus.COMPLETED
    payload = {key: value for key, value in data.items() if key != "progress"}
    if completed and register_import.result:
        payload["totals"] = register_import.result.get("totals")
    queue_event(
        event=REGISTER_IMPORT_COMPLETED if completed else REGISTER_IMPORT_FAILED,
        subject_id=register_import.pk,
        organization_id=register_import.organization_id,
        data=payload,
    )
