"""A member of organization B reaching for an object of organization A.

B gets the same 404 as for an id that exists nowhere; B's trail records the attempt with
B's own actor, and A's trail records it too, so that A's auditor sees attempts against A's
documents and assets, with an anonymised actor: never B's e-mail, never B's full key.
"""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync

from audit.services import verify_chain
from config.asgi import application
from organizations.models import Role
from tests.assets.factories import AssetFactory
from tests.conftest import make_caller
from tests.support.flow import URL, completed_document
from tests.support.websocket import WebsocketClient

pytestmark = pytest.mark.django_db(transaction=True)

UNKNOWN_ID = "9b2f9a56-4a53-4c43-9d6e-3f1d2b1a0c11"
ANONYMISED = "member of another organization"


def key_prefix(key: str) -> str:
    return key.split("_")[1]


def websocket_close_code(path: str, key: str) -> int | None:
    async def run() -> int | None:
        socket = WebsocketClient(
            application, path, headers=[(b"authorization", f"Bearer {key}".encode())]
        )
        await socket.connect()
        code = await socket.close_code()
        await socket.disconnect()
        return code

    return async_to_sync(run)()


def denied_events(caller) -> list[dict]:  # type: ignore[no-untyped-def]
    response = caller.client.get("/api/v1/audit-events", {"outcome": "denied", "limit": 100})
    assert response.status_code == 200, response.content
    return response.json()["events"]


def test_an_attempt_on_another_organizations_objects_is_in_the_owners_trail(dpo, auditor, outsider):
    document = completed_document(dpo)
    asset = AssetFactory(organization=dpo.organization)

    for path in (f"{URL}/{document.pk}", f"/api/v1/assets/{asset.pk}"):
        foreign = outsider.client.get(path)
        unknown = outsider.client.get(path.rsplit("/", 1)[0] + f"/{UNKNOWN_ID}")
        assert foreign.status_code == unknown.status_code == 404
        assert foreign.json() == unknown.json()
    ws_path = f"/ws/legal-documents/{document.pk}/"
    assert websocket_close_code(ws_path, outsider.key) == 4404
    assert websocket_close_code(f"/ws/legal-documents/{UNKNOWN_ID}/", outsider.key) == 4404

    owner_side = denied_events(auditor)
    by_object = {(event["objectType"], event["objectId"]): event for event in owner_side}
    assert set(by_object) == {("document", str(document.pk)), ("asset", str(asset.pk))}
    assert len(owner_side) == 3  # the document read, the asset read, the WebSocket
    actions = sorted(event["action"] for event in owner_side)
    assert actions == ["asset.read", "document.read", "document.subscribe"]
    prefix = key_prefix(outsider.key)
    email = outsider.membership.user.email
    for event in owner_side:
        assert event["organizationId"] == str(dpo.organization.pk)
        assert event["actor"] == f"{ANONYMISED} (key {prefix})"
        assert email not in str(event)
        assert outsider.key not in str(event)
        assert event["ip"] is None
    # An id that exists nowhere concerns no organization but the caller's.
    assert UNKNOWN_ID not in str(owner_side)

    # B keeps its own record, with its own actor (B's auditor reads it: a DPO cannot).
    b_auditor = make_caller(Role.AUDITOR, organization=outsider.organization)
    own_side = denied_events(b_auditor)
    own_attempts = [e for e in own_side if e["objectId"] in {str(document.pk), str(asset.pk)}]
    assert len(own_attempts) == 3
    assert all(e["actor"].startswith(email) for e in own_attempts)
    assert all(e["organizationId"] == str(outsider.organization.pk) for e in own_attempts)

    assert verify_chain(organization_id=dpo.organization.pk) is None
    assert verify_chain(organization_id=outsider.organization.pk) is None
