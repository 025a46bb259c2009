"""WebSocket handshakes are throttled per client address before anything is written.

An anonymous loop of handshakes used to append one audit row each (under the chain's
advisory lock), even once refused. Now: refused and unauthenticated handshakes are counted
in `legaldocs_websocket_handshakes_refused_total{reason}`, the audit trail is untouched, and
past WEBSOCKET_HANDSHAKE_RATE one address is refused (close 4429) before authentication.
"""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from prometheus_client import REGISTRY

from audit.models import AuditEvent
from config.asgi import application
from tests.support.flow import completed_document
from tests.support.websocket import WebsocketClient

pytestmark = pytest.mark.django_db(transaction=True)

REFUSED = "legaldocs_websocket_handshakes_refused_total"


def refused(reason: str) -> float:
    return REGISTRY.get_sample_value(REFUSED, {"reason": reason}) or 0.0


def close_code(path: str, *, headers: list | None = None, address: str = "198.51.100.7") -> int:
    """The close code the server sent right after the handshake (None: left open)."""

    async def run() -> int:
        communicator = WebsocketClient(application, path, headers=headers, client=(address, 4000))
        assert await communicator.connect()
        code = await communicator.close_code(timeout=2)
        if code is None:
            await communicator.disconnect()
        return code

    return async_to_sync(run)()


def test_anonymous_handshakes_are_counted_in_a_metric_not_audited(dpo):
    path = f"/ws/legal-documents/{completed_document(dpo).pk}/"
    audit_rows = AuditEvent.objects.count()
    counted = refused("unauthenticated")

    codes = [close_code(path) for _ in range(5)]

    assert codes == [4401] * 5
    assert AuditEvent.objects.count() == audit_rows
    assert refused("unauthenticated") == counted + 5


def test_one_address_past_the_handshake_rate_is_refused_before_authentication(dpo, settings):
    settings.WEBSOCKET_HANDSHAKE_RATE = "3/min"
    path = f"/ws/legal-documents/{completed_document(dpo).pk}/"
    bearer = [(b"authorization", f"Bearer {dpo.key}".encode())]
    throttled = refused("throttled")

    first = [close_code(path, address="203.0.113.9") for _ in range(3)]
    audit_rows = AuditEvent.objects.count()
    # Even valid credentials wait: nothing is looked up or written for this address.
    later = [close_code(path, headers=bearer, address="203.0.113.9") for _ in range(4)]

    assert first == [4401] * 3
    assert later == [4429] * 4
    assert AuditEvent.objects.count() == audit_rows
    assert refused("throttled") == throttled + 4
    # Another address keeps its own budget.
    assert close_code(path, headers=bearer, address="203.0.113.10") is None
