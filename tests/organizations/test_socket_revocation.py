"""Open WebSockets close when the member's access ends: key revoked, user deactivated, role
changed. Real Redis channel layer, through config.asgi.application."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import Client

from config.asgi import application
from organizations.models import ApiKey, Role
from organizations.services import api_key_revoke
from tests.factories import LegalDocumentFactory, issue_key
from tests.support.websocket import WebsocketClient

pytestmark = pytest.mark.django_db(transaction=True)

CLOSE_ACCESS_ENDED = 4401


def close_code_after(path: str, headers: list, change: Callable[[], Any]) -> int | None:
    """Open the socket, check it stays open, run `change`; the close code that follows."""

    async def run() -> int | None:
        socket = WebsocketClient(application, path, headers=headers)
        assert await socket.connect()
        assert await socket.close_code() is None  # open
        await sync_to_async(change)()
        try:
            return await socket.close_code(timeout=5)
        finally:
            await socket.disconnect()

    return async_to_sync(run)()


def bearer(key: str) -> list[tuple[bytes, bytes]]:
    return [(b"authorization", f"Bearer {key}".encode())]


@pytest.fixture
def path(dpo) -> str:  # type: ignore[no-untyped-def]
    return f"/ws/legal-documents/{LegalDocumentFactory(organization=dpo.organization).pk}/"


def test_revoking_the_key_closes_its_open_socket(dpo, path):
    api_key = ApiKey.objects.get(membership=dpo.membership)
    code = close_code_after(path, bearer(dpo.key), lambda: api_key_revoke(api_key=api_key))
    assert code == CLOSE_ACCESS_ENDED


def test_revoking_another_key_of_the_member_leaves_the_socket_open(dpo, path):
    issue_key(dpo.membership)
    other = ApiKey.objects.filter(membership=dpo.membership).order_by("created_at").last()
    assert other.prefix not in dpo.key
    assert close_code_after(path, bearer(dpo.key), lambda: api_key_revoke(api_key=other)) is None


def test_deactivating_the_user_closes_a_session_socket(dpo, path):
    browser = Client()
    browser.force_login(dpo.membership.user)
    cookie = [(b"cookie", f"sessionid={browser.cookies['sessionid'].value}".encode())]

    def deactivate() -> None:
        user = dpo.membership.user
        user.is_active = False
        user.save()

    assert close_code_after(path, cookie, deactivate) == CLOSE_ACCESS_ENDED


def test_a_role_change_closes_the_members_sockets(dpo, path):
    def demote() -> None:
        membership = dpo.membership
        membership.role = Role.AUDITOR
        membership.save()

    assert close_code_after(path, bearer(dpo.key), demote) == CLOSE_ACCESS_ENDED


def test_saving_the_member_without_a_role_change_leaves_the_socket_open(dpo, path):
    assert close_code_after(path, bearer(dpo.key), lambda: dpo.membership.save()) is None
