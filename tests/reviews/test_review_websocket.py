"""`/ws/reviews/{id}/`: who may follow a review, and the frames a run sends to it."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import DEFAULT_CHANNEL_LAYER, channel_layers

from audit.models import AuditEvent
from config.asgi import application
from reviews import events
from reviews.events import review_group
from reviews.models import Review
from tests.assets.factories import AssetFactory
from tests.reviews.conftest import review_of, start
from tests.support.websocket import WebsocketClient

DPA = "DATA_PROCESSING_AGREEMENT"


def bearer(key: str) -> list[tuple[bytes, bytes]]:
    return [(b"authorization", f"Bearer {key}".encode())]


def connect(path: str, headers: list[tuple[bytes, bytes]]) -> dict[str, Any]:
    """Open the socket; {"close_code", "frame"} after one progress event is sent."""

    async def run() -> dict[str, Any]:
        communicator = WebsocketClient(application, path, headers=headers)
        await communicator.connect()
        outcome: dict[str, Any] = {"close_code": await communicator.close_code(), "frame": None}
        if outcome["close_code"] is not None:
            return outcome
        review_id = path.split("/")[-2]
        await sync_to_async(events.send_progress)(
            review_id=review_id, stage="retrieving", items_done=3, items_total=12
        )
        outcome["frame"] = await communicator.receive_json_from(timeout=5)
        await communicator.disconnect()
        return outcome

    return async_to_sync(run)()


def a_review(organization) -> Review:  # type: ignore[no-untyped-def]
    return Review.objects.create(
        organization=organization, asset=AssetFactory(organization=organization),
        document_type=DPA, language="en",
    )  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_a_member_follows_the_reviews_progress_on_its_socket(dpo):
    review = a_review(dpo.organization)

    outcome = connect(f"/ws/reviews/{review.pk}/", bearer(dpo.key))

    assert outcome["frame"] == {
        "event": "legaldocs.event.review-progress",
        "data": {"reviewId": str(review.pk), "status": "processing", "stage": "retrieving",
                 "itemsDone": 3, "itemsTotal": 12},
    }  # fmt: skip
    subscribed = AuditEvent.objects.get(action="review.subscribe")
    assert (subscribed.object_id, subscribed.outcome) == (str(review.pk), "allowed")


@pytest.mark.django_db(transaction=True)
def test_another_organizations_review_closes_the_socket_with_4404_in_both_trails(dpo, outsider):
    review = a_review(dpo.organization)

    outcome = connect(f"/ws/reviews/{review.pk}/", bearer(outsider.key))

    assert outcome["close_code"] == 4404
    denied = AuditEvent.objects.filter(action="review.subscribe", outcome="denied")
    assert denied.filter(organization=outsider.organization).exists()
    assert denied.get(organization=dpo.organization).actor.startswith(
        "member of another organization"
    )


@pytest.mark.django_db(transaction=True)
def test_no_credentials_close_the_socket_with_4401(dpo):
    review = a_review(dpo.organization)
    assert connect(f"/ws/reviews/{review.pk}/", [])["close_code"] == 4401


class GroupListener:
    """A channel of the real channel layer in the review's group, read by a thread while the
    review runs (as a connected socket would)."""

    def __init__(self, group: str, until: str) -> None:
        self.group, self.until = group, until
        self.received: list[dict[str, Any]] = []
        self._ready = threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._listen()), daemon=True)
        self._thread.start()
        assert self._ready.wait(10), "the listener could not join the group"

    async def _listen(self) -> None:
        layer = channel_layers.make_backend(DEFAULT_CHANNEL_LAYER)
        channel = await layer.new_channel()
        await layer.group_add(self.group, channel)
        self._ready.set()
        try:
            while True:
                message = await asyncio.wait_for(layer.receive(channel), 30)
                self.received.append({"event": message["event"], "data": message["data"]})
                if message["event"].endswith(self.until):
                    return
        finally:
            await layer.group_discard(self.group, channel)

    def collect(self, timeout: float = 30) -> list[dict[str, Any]]:
        self._thread.join(timeout)
        assert not self._thread.is_alive(), f"no {self.until}; got {self.received}"
        return self.received


@pytest.mark.django_db
def test_a_run_sends_its_stages_items_and_end_to_the_reviews_group(
    dpo, committed, review_queue, dpa_asset
):
    review = review_of(start(dpo, committed, assetId=dpa_asset, documentType=DPA))
    listener = GroupListener(review_group(review.pk), until="review-completed")
    review_queue.running = True

    committed(review_queue.run_sent)

    frames = listener.collect()
    names = [frame["event"].rsplit(".", 1)[-1] for frame in frames]
    assert names[0] == "review-progress" and names[-1] == "review-completed"
    stages = [frame["data"]["stage"] for frame in frames[:-1]]
    assert stages[0] == "reading" and "retrieving" in stages and stages[-1] == "checking"
    retrieving = [f["data"] for f in frames[:-1] if f["data"]["stage"] == "retrieving"]
    assert retrieving[-1]["itemsDone"] == retrieving[-1]["itemsTotal"] > 0
    final = frames[-1]["data"]
    assert (final["reviewId"], final["status"]) == (str(review.pk), "completed")
    assert final["verdict"] and final["counts"]


@pytest.mark.django_db
def test_a_failed_run_sends_review_failed_with_its_error(dpo, committed, review_queue):
    asset = AssetFactory(organization=dpo.organization, status="FAILED")
    review = review_of(start(dpo, committed, assetId=str(asset.pk), documentType=DPA))
    listener = GroupListener(review_group(review.pk), until="review-failed")
    review_queue.running = True

    committed(review_queue.run_sent)

    final = listener.collect()[-1]
    assert final["event"] == "legaldocs.event.review-failed"
    assert final["data"]["error"]["code"] == "ASSET_FAILED"
