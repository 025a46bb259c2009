"""Redis stopped while the service runs: 503 SERVICE_UNAVAILABLE at once, then recovery.

Redis carries the rate-limit counters, the Celery broker and the WebSocket layer, so a
request cannot be served without it. What a user must see is a quick, retryable 503, and
the service back to normal as soon as Redis is, without restarting anything.
"""

from __future__ import annotations

import time

from tests.legal_documents.samples import FULL_INPUTS
from tests.reliability.conftest import api_client, wait_for_document
from tests.support.live_stack import running, tail

# Generous: the point is "seconds, not a hung request" (socket timeouts are 2-3 s).
QUICKLY_SECONDS = 8
CREATE_BODY = {"documentType": "DPIA", **FULL_INPUTS["DPIA"]}


def timed(call):  # type: ignore[no-untyped-def]
    started = time.monotonic()
    response = call()
    return response, time.monotonic() - started


def test_requests_answer_503_quickly_while_redis_is_down_and_work_again_once_it_is_back(
    stack, member
):
    web = stack.web().start()
    worker = stack.worker().start()
    with running(web, worker), api_client(web, member) as client:
        before = client.post("/api/v1/legal-documents", json=CREATE_BODY)
        assert before.status_code == 201, before.text
        assert wait_for_document(client, before.json()["id"], timeout=60)["status"] == "completed"

        stack.redis.stop()

        requests = {
            "get": lambda: client.get(f"/api/v1/legal-documents/{before.json()['id']}"),
            "list": lambda: client.get("/api/v1/legal-documents"),
            "create": lambda: client.post("/api/v1/legal-documents", json=CREATE_BODY),
        }
        for name, call in requests.items():
            response, seconds = timed(call)
            assert response.status_code == 503, (
                name,
                response.text,
                tail(stack.directory / "web.log"),
            )
            assert response.json()["error"]["code"] == "SERVICE_UNAVAILABLE", name
            assert response.headers["Retry-After"], name
            assert seconds < QUICKLY_SECONDS, (name, seconds)
        health, seconds = timed(lambda: client.get("/healthz"))
        assert health.status_code == 503
        assert health.json()["checks"]["redis"].startswith("error")
        assert seconds < QUICKLY_SECONDS

        stack.redis.start()

        again = client.get(f"/api/v1/legal-documents/{before.json()['id']}")
        assert again.status_code == 200, again.text
        after = client.post("/api/v1/legal-documents", json=CREATE_BODY)
        assert after.status_code == 201, after.text
        # The worker reconnects to the broker by itself and picks the new job up.
        finished = wait_for_document(client, after.json()["id"], timeout=90)
        assert finished["status"] == "completed", (finished, tail(worker.log_path))
