"""A webhook receiver that never answers: deliveries time out and are retried, and the
documents' own work goes on at its usual pace.

Webhook deliveries run on their own Celery queue. Both topologies are checked: one worker
per queue (docker-compose) and one worker for every queue (`make run`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import closing
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from organizations.models import Role
from tests.conftest import make_caller
from tests.legal_documents.samples import FULL_INPUTS
from tests.reliability.conftest import api_client, wait_for_document
from tests.support.live_stack import running, tail, wait_until
from webhooks.models import WebhookDelivery

CREATE_BODY = {"documentType": "DPIA", **FULL_INPUTS["DPIA"]}
WEBHOOK_ENVIRONMENT = {
    "WEBHOOKS_ALLOW_HTTP": "true",
    "WEBHOOKS_ALLOW_PRIVATE": "true",  # the receiver is on loopback
    "WEBHOOK_TIMEOUT_SECONDS": "1",
    "WEBHOOK_RETRY_DELAYS_SECONDS": "1,1",  # three attempts in all
}
HANG_SECONDS = 20


class HangingReceiver(ThreadingHTTPServer):
    """Accepts every POST and answers only after HANG_SECONDS (long after the timeout)."""

    daemon_threads = True
    hits = 0
    open_requests = 0


@pytest.fixture
def hanging_receiver() -> Iterator[HangingReceiver]:
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            return

        def do_POST(self) -> None:
            with lock:
                server.hits += 1
                server.open_requests += 1
            try:
                time.sleep(HANG_SECONDS)
                self.send_response(200)
                self.end_headers()
            except OSError:
                pass  # the sender gave up long ago
            finally:
                with lock:
                    server.open_requests -= 1

    server = HangingReceiver(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("topology", ["worker-per-queue", "one-worker"])
def test_a_hanging_receiver_is_retried_and_does_not_hold_up_generation(
    stack, hanging_receiver, topology
):
    member = make_caller(Role.ADMIN)  # registering webhook endpoints is for admins
    web = stack.web(**WEBHOOK_ENVIRONMENT).start()
    if topology == "worker-per-queue":
        workers = [
            stack.worker(queues="generation", **WEBHOOK_ENVIRONMENT).start(),
            stack.worker(queues="webhooks", **WEBHOOK_ENVIRONMENT).start(),
        ]
    else:
        workers = [stack.worker(**WEBHOOK_ENVIRONMENT).start()]
    with running(web, *workers), closing(api_client(web, member)) as client:
        url = f"http://127.0.0.1:{hanging_receiver.server_address[1]}/hooks"
        registered = client.post(
            "/api/v1/webhooks",
            json={"url": url, "events": ["document.created", "document.drafted"]},
        )
        assert registered.status_code == 201, registered.text

        first = client.post("/api/v1/legal-documents", json=CREATE_BODY).json()
        wait_until(lambda: hanging_receiver.open_requests > 0, timeout=30)
        second = client.post("/api/v1/legal-documents", json=CREATE_BODY).json()
        # Generous: a generation takes well under a second; a blocked queue would take
        # the webhook retries' timeouts, or never finish.
        for created in (first, second):
            document = wait_for_document(client, created["id"], timeout=30)
            assert document["status"] == "completed", document

        def every_event_gave_up() -> bool:
            deliveries = WebhookDelivery.objects.all()
            finished = {delivery.event_id for delivery in deliveries if delivery.status == "failed"}
            events = {delivery.event_id for delivery in deliveries}
            return len(events) >= 4 and finished == events

        try:
            wait_until(every_event_gave_up, timeout=90, interval=0.5)
        except TimeoutError:
            raise AssertionError(tail(workers[-1].log_path)) from None
        attempts = WebhookDelivery.objects.order_by("event_id", "attempt")
        per_event: dict[str, list[WebhookDelivery]] = {}
        for attempt in attempts:
            per_event.setdefault(attempt.event_id, []).append(attempt)
        for event_attempts in per_event.values():
            assert [attempt.attempt for attempt in event_attempts] == [1, 2, 3]
            assert all("Timed out" in attempt.error for attempt in event_attempts)
        assert hanging_receiver.hits >= 3 * len(per_event)
