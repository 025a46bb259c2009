"""Which client address the service believes: X-Forwarded-For only from the trusted proxy.

uvicorn rewrites the client address from X-Forwarded-For when the connection comes from
FORWARDED_ALLOW_IPS. With the old default (`*`) any client reaching the web port could name
any address: read /metrics as if on loopback, or dodge the invalid-key limit by sending a
new address with every guess. The server here runs with the entry point's default; a client
on 127.0.0.2 plays a caller that reaches the web port directly, 127.0.0.1 the proxy.
"""

from __future__ import annotations

import re

import httpx

from tests.deploy.conftest import ROOT
from tests.support.live_stack import running

ENTRYPOINT = (ROOT / "deploy" / "docker-entrypoint.sh").read_text()
DEFAULT_TRUSTED = re.search(r'FORWARDED_ALLOW_IPS:-([^}"]*)', ENTRYPOINT).group(1)


def direct_client(base_url: str) -> httpx.Client:
    """A client connecting from 127.0.0.2: not the proxy."""
    return httpx.Client(
        base_url=base_url, timeout=15, transport=httpx.HTTPTransport(local_address="127.0.0.2")
    )


def test_a_direct_caller_cannot_claim_a_loopback_address_for_metrics(stack):
    web = stack.web(
        FORWARDED_ALLOW_IPS=DEFAULT_TRUSTED, METRICS_ALLOWED_NETWORKS="127.0.0.1/32"
    ).start()
    with running(web), direct_client(web.base_url) as client:
        spoofed = client.get("/metrics", headers={"X-Forwarded-For": "127.0.0.1"})
        # Through the proxy (loopback), the address it forwards is believed: a public one.
        proxied = httpx.get(
            f"{web.base_url}/metrics", headers={"X-Forwarded-For": "198.51.100.4"}, timeout=15
        )
        local = httpx.get(f"{web.base_url}/metrics", timeout=15)

    assert spoofed.status_code == 403
    assert proxied.status_code == 403
    assert local.status_code == 200


def test_a_key_guesser_cannot_reset_its_limit_with_a_new_forwarded_address(stack):
    web = stack.web(FORWARDED_ALLOW_IPS=DEFAULT_TRUSTED, AUTH_FAILURES_PER_MINUTE="3").start()
    with running(web), direct_client(web.base_url) as client:
        statuses = [
            client.get(
                "/api/v1/legal-documents",
                headers={
                    "Authorization": f"Bearer ldk_guess{attempt:04d}.not-a-real-secret",
                    "X-Forwarded-For": f"198.51.100.{attempt + 1}",
                },
            ).status_code
            for attempt in range(6)
        ]

    assert statuses == [401, 401, 401, 429, 429, 429]
