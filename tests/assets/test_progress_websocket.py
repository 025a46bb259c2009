"""Ingestion progress over `/ws/assets/`: the real ASGI application, consumer and Redis
channel layer; the upload's processing task runs eagerly in this process."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.core.files.uploadedfile import SimpleUploadedFile

from assets.processing.embeddings import HashingEmbeddingProvider
from config.asgi import application
from config.celery import app as celery_app
from tests.assets.test_progress import REGISTER
from tests.support.websocket import WebsocketClient


@pytest.fixture
def eager_tasks():  # type: ignore[no-untyped-def]
    conf = celery_app.conf
    previous = {"task_always_eager": conf.task_always_eager,
                "task_eager_propagates": conf.task_eager_propagates}  # fmt: skip
    conf.update(task_always_eager=True, task_eager_propagates=True)
    yield
    conf.update(previous)


@pytest.mark.django_db(transaction=True)
def test_a_websocket_client_follows_the_progress_of_an_ingestion(dpo, eager_tasks, monkeypatch):
    monkeypatch.setattr(HashingEmbeddingProvider, "preferred_batch_size", 16)

    async def follow() -> tuple[str, list[dict[str, Any]]]:
        socket = WebsocketClient(
            application, "/ws/assets/", headers=[(b"authorization", f"Bearer {dpo.key}".encode())]
        )
        assert await socket.connect()
        assert await socket.close_code() is None
        file = SimpleUploadedFile("register.txt", REGISTER.encode(), content_type="text/plain")
        response = await sync_to_async(dpo.client.post)(
            "/api/v1/assets/upload", {"file": file}, format="multipart"
        )
        assert response.status_code == 201, response.content
        frames = []
        while not frames or frames[-1]["data"]["status"] != "COMPLETED":
            frames.append(await socket.receive_json_from(timeout=60))
        await socket.disconnect()
        return response.json()["id"], frames

    asset_id, frames = async_to_sync(follow)()

    assert {frame["event"] for frame in frames} == {"legaldocs.event.asset-status"}
    assert all(frame["data"]["assetId"] == asset_id for frame in frames)
    assert all(frame["data"]["originalFileName"] == "register.txt" for frame in frames)
    processing = [frame["data"]["progress"] for frame in frames[:-1]]
    assert [frame["data"]["status"] for frame in frames[:-1]] == ["PROCESSING"] * len(processing)
    stages = [progress["stage"] for progress in processing]
    assert stages[0] == "extracting" and stages[1] == "chunking" and stages[-1] == "indexing"
    embedded = [
        progress["chunksDone"] for progress in processing if progress["stage"] == "embedding"
    ]
    assert len(set(embedded)) >= 5 and embedded == sorted(embedded)
    final = frames[-1]["data"]["progress"]
    assert final["percent"] == 100 and final["chunksDone"] == embedded[-1]


@pytest.mark.django_db(transaction=True)
def test_the_assets_socket_refuses_a_handshake_without_credentials():
    async def attempt() -> int | None:
        socket = WebsocketClient(application, "/ws/assets/")
        assert await socket.connect()
        return await socket.close_code()

    assert async_to_sync(attempt)() == 4401


@pytest.mark.django_db(transaction=True)
def test_assets_socket_handshakes_are_throttled_per_address(dpo, settings):
    settings.WEBSOCKET_HANDSHAKE_RATE = "2/min"

    async def attempt() -> int | None:
        socket = WebsocketClient(
            application, "/ws/assets/", headers=[(b"authorization", f"Bearer {dpo.key}".encode())]
        )
        assert await socket.connect()
        code = await socket.close_code()
        await socket.disconnect()
        return code

    codes = [async_to_sync(attempt)() for _ in range(3)]
    assert codes == [None, None, 4429]


@pytest.mark.django_db(transaction=True)
def test_another_organizations_socket_receives_nothing(dpo, outsider, eager_tasks):
    async def listen() -> bool:
        socket = WebsocketClient(
            application,
            "/ws/assets/",
            headers=[(b"authorization", f"Bearer {outsider.key}".encode())],
        )
        assert await socket.connect()
        assert await socket.close_code() is None
        file = SimpleUploadedFile(
            "notes.txt", b"Notes of the DPO.\n" * 50, content_type="text/plain"
        )
        response = await sync_to_async(dpo.client.post)(
            "/api/v1/assets/upload", {"file": file}, format="multipart"
        )
        assert response.status_code == 201
        quiet = await socket.receive_nothing(timeout=1)
        await socket.disconnect()
        return quiet

    assert async_to_sync(listen)()
