"""End to end: a WebSocket client follows an iteration run by a real Celery worker.

Everything is real: the ASGI application (consumer and its authentication), the Redis
channel layer, the Redis broker, the worker process and PostgreSQL.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async

from config.asgi import application
from tests.legal_documents.samples import FULL_INPUTS
from tests.support.websocket import WebsocketClient

URL = "/api/v1/legal-documents"


def wait_until_settled(caller: Any, document_id: str, timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        document = caller.client.get(f"{URL}/{document_id}").json()
        if document["status"] != "processing" or time.monotonic() > deadline:
            return document
        time.sleep(0.1)


@pytest.mark.django_db(transaction=True)
def test_a_websocket_client_receives_the_events_of_an_iteration_run_by_the_worker(
    dpo, celery_worker_process
):
    body = {"documentType": "PRIVACY_POLICY", **FULL_INPUTS["PRIVACY_POLICY"]}
    created = dpo.client.post(URL, body, format="json").json()
    assert wait_until_settled(dpo, created["id"])["status"] == "completed"

    async def follow_an_iteration() -> tuple[dict[str, Any], list[dict[str, Any]]]:
        socket = WebsocketClient(
            application,
            f"/ws/legal-documents/{created['id']}/",
            headers=[(b"authorization", f"Bearer {dpo.key}".encode())],
        )
        assert await socket.connect()
        assert await socket.close_code() is None
        response = await sync_to_async(dpo.client.post)(
            f"{URL}/{created['id']}/iterate",
            {"message": 'add to section "Retention": Invoices are kept for ten years.'},
            format="json",
        )
        assert response.status_code == 202, response.content
        frames = []
        while not frames or not frames[-1]["event"].endswith("message-response-finished"):
            frames.append(await socket.receive_json_from(timeout=60))
        await socket.disconnect()
        return response.json(), frames

    started, frames = async_to_sync(follow_an_iteration)()

    names = [frame["event"].removeprefix("legaldocs.event.") for frame in frames]
    assert names[-1] == "message-response-finished"
    assert started["threadId"] == created["id"]
    assert frames[-1]["data"] == {"threadId": created["id"], "iterationId": started["iterationId"]}
    assert all(frame["data"]["threadId"] == created["id"] for frame in frames)
    replies = [frame["data"] for frame in frames if frame["event"].endswith(".message-response")]
    assert replies, names
    assert all(reply["type"] == "ai" for reply in replies)
    assert all(reply["messageId"] == started["messageId"] for reply in replies)
    assert 'Added the paragraph to "Retention' in replies[-1]["content"]
    statuses = [frame["data"] for frame in frames if frame["event"].endswith(".document-status")]
    assert [status["status"] for status in statuses] == ["processing", "completed"]
    assert statuses[-1]["version"] == 2

    document = dpo.client.get(f"{URL}/{created['id']}").json()
    assert "Invoices are kept for ten years." in document["content"]["markdown"]
