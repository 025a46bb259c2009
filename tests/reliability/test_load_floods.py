"""Anonymous floods next to a real user: `/healthz` and WebSocket handshakes.

300 concurrent anonymous `/healthz` calls and 500 anonymous WebSocket handshakes against
uvicorn on loopback (with a worker, so the service is healthy), while an authenticated client
polls one document. Before the fixes, each probe opened a database connection and waited a
second in a Celery ping (the connection slots filled up and every API call answered 503),
and each refused handshake appended a row to the audit chain. Now: the polling client sees
no 5xx and the audit trail grows only by the polling client's own reads.

Every loop is bounded (a fixed number of calls, each with a timeout).
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import Counter

import httpx
import websockets

from audit.models import AuditEvent
from tests.factories import LegalDocumentFactory
from tests.support.live_stack import running, tail

HEALTH_CALLERS = 300
HEALTH_ROUNDS = 3  # each caller probes three times: 900 probes, 300 at a time
HANDSHAKES = 500
HANDSHAKE_CONCURRENCY = 50
POLL_INTERVAL_SECONDS = 0.25
TIMEOUT_SECONDS = 30


async def _health_flood(base_url: str, statuses: Counter) -> None:
    limits = httpx.Limits(max_connections=HEALTH_CALLERS, max_keepalive_connections=0)
    async with httpx.AsyncClient(
        base_url=base_url, timeout=TIMEOUT_SECONDS, limits=limits
    ) as client:

        async def caller() -> None:
            for _ in range(HEALTH_ROUNDS):
                try:
                    statuses[(await client.get("/healthz")).status_code] += 1
                except httpx.HTTPError as error:
                    statuses[type(error).__name__] += 1

        await asyncio.gather(*(caller() for _ in range(HEALTH_CALLERS)))


async def _handshake_flood(ws_url: str, codes: Counter) -> None:
    gate = asyncio.Semaphore(HANDSHAKE_CONCURRENCY)

    async def handshake() -> None:
        async with gate:
            try:
                async with websockets.connect(ws_url, open_timeout=TIMEOUT_SECONDS) as socket:
                    await asyncio.wait_for(socket.wait_closed(), TIMEOUT_SECONDS)
                    codes[socket.close_code] += 1
            except (OSError, TimeoutError, websockets.WebSocketException) as error:
                codes[type(error).__name__] += 1

    await asyncio.gather(*(handshake() for _ in range(HANDSHAKES)))


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return round(ordered[int(fraction * (len(ordered) - 1))] * 1000, 1) if ordered else 0.0


def test_floods_of_probes_and_handshakes_leave_a_polling_user_served(stack, member):
    document = LegalDocumentFactory(organization=member.organization)
    web = stack.web().start()
    worker = stack.worker(queues="generation").start()
    health_statuses: Counter = Counter()
    handshake_codes: Counter = Counter()
    poll_statuses: Counter = Counter()
    poll_latencies: list[float] = []
    floods_done = threading.Event()

    def poll() -> None:
        headers = {"Authorization": f"Bearer {member.key}"}
        with httpx.Client(
            base_url=web.base_url, headers=headers, timeout=TIMEOUT_SECONDS
        ) as client:
            while not floods_done.is_set():
                started = time.monotonic()
                try:
                    status = client.get(f"/api/v1/legal-documents/{document.pk}").status_code
                except httpx.HTTPError as error:
                    status = type(error).__name__
                poll_latencies.append(time.monotonic() - started)
                poll_statuses[status] += 1
                floods_done.wait(POLL_INTERVAL_SECONDS)

    async def floods() -> None:
        ws_url = f"ws://127.0.0.1:{web.port}/ws/legal-documents/{document.pk}/"
        await asyncio.gather(
            _health_flood(web.base_url, health_statuses),
            _handshake_flood(ws_url, handshake_codes),
        )

    with running(web, worker):
        audit_rows_before = AuditEvent.objects.count()
        poller = threading.Thread(target=poll, daemon=True)
        poller.start()
        started = time.monotonic()
        try:
            asyncio.run(asyncio.wait_for(floods(), timeout=240))
        finally:
            floods_done.set()
            poller.join(timeout=TIMEOUT_SECONDS + 5)
        seconds = time.monotonic() - started
        audit_rows_after = AuditEvent.objects.count()
        web_log = tail(web.log_path)

    polls = sum(poll_statuses.values())
    poller_reads = AuditEvent.objects.filter(actor_user=member.membership.user).count()
    print(json.dumps({
        "seconds": round(seconds, 1),
        "healthz": {str(key): value for key, value in health_statuses.items()},
        "handshakes": {str(key): value for key, value in handshake_codes.items()},
        "polls": {str(key): value for key, value in poll_statuses.items()},
        "pollLatencyMs": {"p50": _percentile(poll_latencies, 0.5),
                          "p95": _percentile(poll_latencies, 0.95)},
        "auditRows": {"before": audit_rows_before, "after": audit_rows_after,
                      "byThePoller": poller_reads},
    }))  # fmt: skip

    assert set(poll_statuses) == {200}, (poll_statuses, web_log)
    assert polls >= 1
    assert sum(health_statuses.values()) == HEALTH_CALLERS * HEALTH_ROUNDS
    assert set(health_statuses) == {200}, (health_statuses, web_log)
    assert sum(handshake_codes.values()) == HANDSHAKES
    assert set(handshake_codes) <= {4401, 4429}, handshake_codes
    # Only the polling client's own reads (one row each) are audited; the floods add nothing.
    assert audit_rows_after - audit_rows_before <= polls + 2, (
        audit_rows_before, audit_rows_after, polls,
    )  # fmt: skip
