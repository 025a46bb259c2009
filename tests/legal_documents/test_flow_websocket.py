"""The document WebSocket: who may connect, and what a connected client receives.

The consumer runs through config.asgi.application with the real Redis channel layer.
Tests need `transaction=True`: the consumer reads the database from another thread.
"""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.test import Client

from audit.models import AuditEvent
from config.asgi import application
from legal_documents import events
from tests.support.flow import completed_document
from tests.support.second_factor import enrolled_device, verified_login
from tests.support.websocket import WebsocketClient

pytestmark = pytest.mark.django_db(transaction=True)


def connect(path: str, headers: list[tuple[bytes, bytes]] | None = None) -> dict[str, Any]:
    """Open the socket; {"accepted", "close_code", "frame"} after one status event is sent."""

    async def run() -> dict[str, Any]:
        communicator = WebsocketClient(application, path, headers=headers)
        accepted = await communicator.connect()
        outcome: dict[str, Any] = {"accepted": accepted, "close_code": None, "frame": None}
        outcome["close_code"] = await communicator.close_code()
        if outcome["close_code"] is not None:
            return outcome
        await communicator.send_json_to({"hello": "ignored"})
        document_id = path.split("/")[-2]
        await events_send_status(document_id)
        outcome["frame"] = await communicator.receive_json_from(timeout=5)
        await communicator.disconnect()
        return outcome

    async def events_send_status(document_id: str) -> None:
        from asgiref.sync import sync_to_async

        await sync_to_async(events.send_document_status)(
            document_id=document_id, status="completed", stage="draft", version=1
        )

    return async_to_sync(run)()


def bearer(key: str) -> list[tuple[bytes, bytes]]:
    return [(b"authorization", f"Bearer {key}".encode())]


def test_a_client_with_an_api_key_header_receives_the_documents_events(dpo):
    document = completed_document(dpo)
    outcome = connect(f"/ws/legal-documents/{document.pk}/", bearer(dpo.key))
    assert outcome["close_code"] is None
    assert outcome["frame"] == {
        "event": "legaldocs.event.document-status",
        "data": {"threadId": str(document.pk), "status": "completed", "stage": "draft",
                 "version": 1},
    }  # fmt: skip
    event = AuditEvent.objects.get(action="document.subscribe", outcome="allowed")
    assert event.object_id == str(document.pk)


def test_the_x_api_key_header_and_the_api_key_query_parameter_are_accepted(dpo):
    document = completed_document(dpo)
    path = f"/ws/legal-documents/{document.pk}/"
    assert connect(path, [(b"x-api-key", dpo.key.encode())])["frame"] is not None
    assert connect(f"{path}?api_key={dpo.key}")["frame"] is not None


def test_a_session_cookie_is_accepted(dpo):
    document = completed_document(dpo)
    browser = Client()
    browser.force_login(dpo.membership.user)
    cookie = f"sessionid={browser.cookies['sessionid'].value}".encode()
    outcome = connect(f"/ws/legal-documents/{document.pk}/", [(b"cookie", cookie)])
    assert outcome["frame"] is not None


def test_a_session_that_owes_the_second_factor_is_refused_until_it_is_given(dpo):
    document = completed_document(dpo)
    enrolled_device(dpo.membership.user)  # a DPO who enrolled is asked like everyone else
    path = f"/ws/legal-documents/{document.pk}/"
    password_only = Client()
    password_only.force_login(dpo.membership.user)
    cookie = f"sessionid={password_only.cookies['sessionid'].value}".encode()
    assert connect(path, [(b"cookie", cookie)])["close_code"] == 4401
    verified = verified_login(Client(), dpo.membership.user)
    cookie = f"sessionid={verified.cookies['sessionid'].value}".encode()
    assert connect(path, [(b"cookie", cookie)])["frame"] is not None


def test_a_session_from_a_foreign_origin_is_refused(dpo):
    document = completed_document(dpo)
    browser = Client()
    browser.force_login(dpo.membership.user)
    cookie = f"sessionid={browser.cookies['sessionid'].value}".encode()
    headers = [(b"cookie", cookie), (b"origin", b"https://evil.example")]
    assert connect(f"/ws/legal-documents/{document.pk}/", headers)["close_code"] == 4401


def test_no_credentials_close_the_socket_with_4401_without_an_audit_row(dpo):
    # An anonymous loop must not grow the audit chain: it is counted in a metric instead.
    document = completed_document(dpo)
    before = AuditEvent.objects.count()
    outcome = connect(f"/ws/legal-documents/{document.pk}/")
    assert outcome["close_code"] == 4401
    assert AuditEvent.objects.count() == before


def test_an_invalid_api_key_closes_the_socket_with_4401(dpo):
    document = completed_document(dpo)
    outcome = connect(f"/ws/legal-documents/{document.pk}/", bearer("ldk_not-a-real-key"))
    assert outcome["close_code"] == 4401


def test_a_document_of_another_organization_closes_the_socket_with_4404(dpo, outsider):
    document = completed_document(dpo)
    outcome = connect(f"/ws/legal-documents/{document.pk}/", bearer(outsider.key))
    assert outcome["close_code"] == 4404
    denied = AuditEvent.objects.filter(action="document.subscribe", outcome="denied")
    own = denied.get(organization=outsider.organization)
    assert own.actor.startswith(outsider.membership.user.email)
    # The owner's trail has it too, without the outsider's e-mail (tests/audit).
    owners = denied.get(organization=dpo.organization)
    assert owners.actor.startswith("member of another organization (key ")


@pytest.mark.parametrize("document_id", ["9b2f9a56-4a53-4c43-9d6e-3f1d2b1a0c11", "not-a-uuid"])
def test_an_unknown_document_closes_the_socket_with_4404(dpo, document_id):
    outcome = connect(f"/ws/legal-documents/{document_id}/", bearer(dpo.key))
    assert outcome["close_code"] == 4404


def test_every_event_of_an_iteration_carries_the_document_id_as_thread_id(dpo, monkeypatch):
    from gdpr.composition import SourceRef
    from legal_documents.services import documents
    from tests.support.flow import URL, run_job

    document = completed_document(dpo)
    # A source found by the asset search makes the iteration send a tool event too.
    monkeypatch.setattr(
        documents, "relevant_sources", lambda _: [SourceRef("retention-policy.pdf", "Keep...")]
    )

    async def follow() -> tuple[dict[str, Any], list[dict[str, Any]]]:
        from asgiref.sync import sync_to_async

        socket = WebsocketClient(
            application, f"/ws/legal-documents/{document.pk}/", headers=bearer(dpo.key)
        )
        assert await socket.connect()
        assert await socket.close_code() is None
        response = await sync_to_async(dpo.client.post)(
            f"{URL}/{document.pk}/iterate",
            {"message": 'add to section "Retention": Invoices are kept for ten years.'},
            format="json",
        )
        assert response.status_code == 202, response.content
        await sync_to_async(run_job)(str(document.pk))
        frames = []
        while not frames or not frames[-1]["event"].endswith("message-response-finished"):
            frames.append(await socket.receive_json_from(timeout=10))
        await socket.disconnect()
        return response.json(), frames

    started, frames = async_to_sync(follow)()
    assert started["threadId"] == str(document.pk)
    names = {frame["event"].removeprefix("legaldocs.event.") for frame in frames}
    assert {"message-response", "message-response-finished"} <= names
    assert any(frame["data"].get("type") == "tool" for frame in frames)
    assert [frame["data"]["threadId"] for frame in frames] == [str(document.pk)] * len(frames)
    assert frames[-1]["data"]["iterationId"] == started["iterationId"]
