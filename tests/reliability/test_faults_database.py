"""The database connection dropped, refused or hanging: 503 quickly, then recovery.

The web server reaches the test database through a loopback TCP proxy that the test
controls, so that connections can be cut, refused or left unanswered (a database that
hangs) without touching the database the rest of the suite uses.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing

import pytest
from django.conf import settings
from django.db import connection

from tests.factories import LegalDocumentFactory
from tests.reliability.conftest import api_client
from tests.support.live_stack import (
    TcpProxy,
    database_url_for,
    postgres_address,
    running,
    tail,
)

# Generous bounds: a refused connection fails at once, a hanging one after the 3 s
# connect_timeout of the settings; "quickly" means seconds, not a request that hangs.
QUICKLY_SECONDS = 10


@pytest.fixture
def proxy():  # type: ignore[no-untyped-def]
    """A loopback TCP proxy in front of the test database."""
    family, address = postgres_address(settings.DATABASES["default"])
    server = TcpProxy(family, address).start()
    yield server
    server.stop()


def proxied_url(proxy: TcpProxy, application_name: str = "reliability-web") -> str:
    url = database_url_for(settings.DATABASES["default"], host="127.0.0.1", port=proxy.port)
    return f"{url}?application_name={application_name}"


def requests_of(member, document_id):  # type: ignore[no-untyped-def]
    return {
        "get": ("GET", f"/api/v1/legal-documents/{document_id}", None),
        "list": ("GET", "/api/v1/legal-documents", None),
        "create": ("POST", "/api/v1/client-companies", {"name": "Beta", "details": "Paris"}),
    }


def assert_unavailable_quickly(client, requests, log_path):  # type: ignore[no-untyped-def]
    for name, (method, path, body) in requests.items():
        started = time.monotonic()
        response = client.request(method, path, json=body)
        seconds = time.monotonic() - started
        assert response.status_code == 503, (name, response.text, tail(log_path))
        assert response.json()["error"]["code"] == "SERVICE_UNAVAILABLE", name
        assert seconds < QUICKLY_SECONDS, (name, seconds)


def assert_available(client, requests):  # type: ignore[no-untyped-def]
    for name, (method, path, body) in requests.items():
        response = client.request(method, path, json=body)
        assert response.status_code in {200, 201}, (name, response.text)


@pytest.mark.parametrize("failure", ["refuse", "blackhole"])
def test_requests_answer_503_quickly_while_the_database_is_unreachable_then_recover(
    stack, member, proxy, failure
):
    document = LegalDocumentFactory(organization=member.organization)
    web = stack.web(database_url=proxied_url(proxy)).start()
    with running(web), closing(api_client(web, member)) as client:
        requests = requests_of(member, document.pk)
        assert_available(client, requests)

        proxy.mode = failure
        proxy.cut()
        assert_unavailable_quickly(client, requests, web.log_path)
        health = client.get("/healthz")
        assert health.status_code == 503
        assert health.json()["checks"]["database"].startswith("error")

        proxy.mode = "forward"
        proxy.cut()  # a blackholed connection attempt must not linger
        assert_available(client, requests)


def test_persistent_connections_killed_by_the_database_are_replaced_without_an_error(
    stack, member, proxy
):
    document = LegalDocumentFactory(organization=member.organization)
    web = stack.web(database_url=proxied_url(proxy), DB_CONN_MAX_AGE="600").start()
    with running(web), closing(api_client(web, member)) as client:
        requests = requests_of(member, document.pk)
        assert_available(client, requests)

        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE application_name = 'reliability-web'"
            )
            assert cursor.fetchone()[0] >= 1

        statuses = [
            client.get(f"/api/v1/legal-documents/{document.pk}").status_code for _ in range(5)
        ]
        # Health checks on reused connections notice the dead one and reconnect.
        assert statuses == [200] * 5, tail(web.log_path)
        assert_available(client, requests)


def test_connections_cut_while_requests_run_never_answer_an_internal_error(stack, member, proxy):
    document = LegalDocumentFactory(organization=member.organization)
    web = stack.web(database_url=proxied_url(proxy)).start()
    path = f"/api/v1/legal-documents/{document.pk}"

    def poll(_: int) -> list[int]:
        with closing(api_client(web, member)) as client:
            return [client.get(path).status_code for _ in range(25)]

    with running(web):
        with ThreadPoolExecutor(max_workers=4) as pool:
            results = pool.map(poll, range(4))
            for _ in range(40):
                proxy.cut()  # whatever request is talking to the database loses it
                time.sleep(0.05)
            statuses = [status for result in results for status in result]
        assert set(statuses) <= {200, 503}, (sorted(set(statuses)), tail(web.log_path))
        with closing(api_client(web, member)) as client:
            assert client.get(path).status_code == 200
