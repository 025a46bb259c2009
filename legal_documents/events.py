"""What goes out while a document is worked on: WebSocket group messages.

Frames (docs/API.md): `{"event": "<service>.event.<name>", "data": {...}}` to the group of the
document. Celery workers send from synchronous code; one event loop per process avoids
channels-redis' "Event loop is closed" (docs/PITFALLS.md).
"""

from __future__ import annotations

import logging
from typing import Any, Literal, TypedDict

from django.conf import settings

from common.channel_groups import send_to_group

logger = logging.getLogger(__name__)

MESSAGE_RESPONSE = "message-response"
MESSAGE_RESPONSE_FINISHED = "message-response-finished"
DOCUMENT_STATUS = "document-status"


class MessageResponsePayload(TypedDict, total=False):
    threadId: str  # the document id (SEED.md, WebSocket events)
    content: str
    messageId: str
    name: str
    type: Literal["ai", "tool"]
    toolName: str
    iterationId: str  # extra: the iteration that produced the message, when one did


class MessageFinishedPayload(TypedDict, total=False):
    threadId: str  # the document id
    iterationId: str


class DocumentStatusPayload(TypedDict):
    threadId: str
    status: str
    stage: str
    version: int


def document_group(document_id: Any) -> str:
    return f"legal-document.{document_id}"


def event_name(name: str) -> str:
    return f"{settings.EVENTS_SERVICE_NAME}.event.{name}"


def _group_send(document_id: Any, name: str, payload: dict[str, Any]) -> None:
    """Best effort: a lost progress frame must never fail the work that produced it."""
    message = {"type": "document.event", "event": event_name(name), "data": payload}
    try:
        send_to_group(document_group(document_id), message)
    except Exception:
        logger.warning("could not send %s for document %s", name, document_id, exc_info=True)


def send_document_status(*, document_id: Any, status: str, stage: str, version: int) -> None:
    payload: DocumentStatusPayload = {
        "threadId": str(document_id), "status": status, "stage": stage, "version": version,
    }  # fmt: skip
    _group_send(document_id, DOCUMENT_STATUS, dict(payload))


def send_message_response(
    *,
    document_id: Any,
    message_id: str,
    content: str,
    kind: Literal["ai", "tool"] = "ai",
    tool_name: str | None = None,
    iteration_id: str | None = None,
) -> None:
    payload: MessageResponsePayload = {
        "threadId": str(document_id),
        "content": content,
        "messageId": message_id,
        "name": "assistant" if kind == "ai" else (tool_name or "tool"),
        "type": kind,
    }
    if tool_name:
        payload["toolName"] = tool_name
    if iteration_id:
        payload["iterationId"] = iteration_id
    _group_send(document_id, MESSAGE_RESPONSE, dict(payload))


def send_message_finished(*, document_id: Any, iteration_id: str | None = None) -> None:
    payload: MessageFinishedPayload = {"threadId": str(document_id)}
    if iteration_id:
        payload["iterationId"] = iteration_id
    _group_send(document_id, MESSAGE_RESPONSE_FINISHED, dict(payload))


# --- webhooks -------------------------------------------------------------------------------
def notify_webhooks(*, document: Any, event: str) -> None:
    """Queue `event` for the organization's webhook endpoints once the transaction commits.

    `event` is one of the names of `webhooks.events` (`DOCUMENT_CREATED`...), defined there
    once: webhooks sits below the documents and validates the name it is given. Best effort
    like the WebSocket frames (webhooks.services.queue_event): a webhook problem never fails
    the document's work.
    """
    from webhooks.services import queue_event

    data = {
        "documentType": document.document_type,
        "status": document.status,
        "stage": document.stage,
        "version": document.version,
    }
    queue_event(
        event=event, subject_id=document.pk, organization_id=document.organization_id, data=data
    )
