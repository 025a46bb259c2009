"""The WebSocket of one document: `/ws/legal-documents/{id}/` (docs/API.md, WebSocket).

Credentials, in this order: `Authorization: Bearer <key>` or `X-API-Key` header, the
`?api_key=` query parameter, then the Django session (config/asgi.py wraps the routes in
AuthMiddlewareStack). A session is accepted only without an Origin header or from an
allowed host, so another site cannot ride a browser's cookie (cross-site WebSocket
hijacking); API keys are not sent by browsers on their own and need no such check.

Failure behaviour: the handshake is accepted and then closed, because browsers only see a
close code after the accept: 4429 past WEBSOCKET_HANDSHAKE_RATE for the client address
(checked first, before anything is read or written), 4401 without valid credentials, 4404
for an unknown document or one of another organization. Attempts of an authenticated member
are audited as `document.subscribe`; throttled and unauthenticated handshakes are only
counted (`legaldocs_websocket_handshakes_refused_total`), so that an anonymous loop cannot
grow the audit chain.

An open socket is closed with 4401 when the member's access ends (key revoked, user
deactivated, role changed: organizations/events.py): it also joins the groups of its member
and key, which receive `access.ended`.
"""

from __future__ import annotations

import uuid
from typing import Any
from urllib.parse import parse_qs, urlsplit

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from rest_framework.exceptions import AuthenticationFailed, Throttled

from audit.models import Outcome
from audit.services import Actor, record_event, record_foreign_attempt
from common.metrics import count_refused_handshake
from common.throttling import websocket_handshake_allowed
from legal_documents.events import document_group
from legal_documents.models import LegalDocument
from organizations.authentication import authenticate_raw_key, raw_key_from_headers
from organizations.events import api_key_group, member_group
from organizations.models import Membership

CLOSE_UNAUTHENTICATED = 4401
CLOSE_NOT_FOUND = 4404
CLOSE_TOO_MANY = 4429
CLOSE_TRY_AGAIN_LATER = 1013  # the limiter (Redis) is unavailable


class Unauthenticated(Exception):  # noqa: N818 - a close reason, not an error
    """No usable credentials."""


def _headers(scope: dict[str, Any]) -> dict[str, str]:
    """The handshake headers under the names raw_key_from_headers reads."""
    names = {b"authorization": "Authorization", b"x-api-key": "X-API-Key", b"origin": "Origin"}
    found: dict[str, str] = {}
    for name, value in scope.get("headers", []):
        if name.lower() in names:
            found[names[name.lower()]] = value.decode("latin-1")
    return found


def _query_key(scope: dict[str, Any]) -> str | None:
    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("api_key")
    return values[0].strip() or None if values else None


def _origin_allowed(origin: str | None) -> bool:
    if origin is None:
        return True
    host, _ = split_domain_port(urlsplit(origin).netloc)
    return bool(host) and validate_host(host, settings.ALLOWED_HOSTS)


def _client_ip(scope: dict[str, Any]) -> str | None:
    client = scope.get("client")
    return client[0] if client else None


def resolve_caller(scope: dict[str, Any]) -> tuple[Membership, Actor]:
    """The member behind the handshake's credentials, or Unauthenticated.

    Records the groups that close the socket when this access ends in `scope["access_groups"]`.
    """
    headers = _headers(scope)
    ip = _client_ip(scope)
    raw_key = raw_key_from_headers(headers) or _query_key(scope)
    if raw_key is not None:
        try:
            api_key = authenticate_raw_key(raw_key, ip=ip)  # audits a refused key itself
        except (AuthenticationFailed, Throttled):
            raise Unauthenticated from None
        membership = api_key.membership
        scope["access_groups"] = [member_group(membership.pk), api_key_group(api_key.pk)]
        label = f"{membership.user.email or membership.user.get_username()} (key {api_key.prefix})"
        return membership, Actor(
            label=label, user_id=membership.user_id, ip=ip, key_prefix=api_key.prefix
        )
    user = scope.get("user")
    if user is None or not user.is_authenticated or not _origin_allowed(headers.get("Origin")):
        raise Unauthenticated
    membership = Membership.objects.select_related("organization", "user").filter(user=user).first()
    if membership is None:
        raise Unauthenticated
    scope["access_groups"] = [member_group(membership.pk)]
    return membership, Actor(label=user.email or user.get_username(), user_id=user.pk, ip=ip)


@database_sync_to_async
def authorize(scope: dict[str, Any], document_id: str) -> int | None:
    """None when the caller may follow the document, else the close code (audited)."""
    try:
        membership, actor = resolve_caller(scope)
    except Unauthenticated:
        count_refused_handshake(reason="unauthenticated")
        return CLOSE_UNAUTHENTICATED
    try:
        uuid.UUID(document_id)
        owner_id = (
            LegalDocument.objects.filter(pk=document_id)
            .values_list("organization_id", flat=True)
            .first()
        )
    except ValueError:
        owner_id = None
    found = owner_id == membership.organization_id
    record_event(
        organization=membership.organization,
        actor=actor,
        action="document.subscribe",
        outcome=Outcome.ALLOWED if found else Outcome.DENIED,
        object_type="document",
        object_id=document_id,
        details=None if found else {"reason": "unknown document or of another organization"},
    )
    if owner_id is not None and not found:  # the owner's auditors see the attempt too
        record_foreign_attempt(
            owner_organization_id=owner_id,
            actor=actor,
            action="document.subscribe",
            object_type="document",
            object_id=document_id,
            details={"via": "websocket"},
        )
    return None if found else CLOSE_NOT_FOUND


@sync_to_async(thread_sensitive=False)  # one Redis round trip; no database
def _throttle(scope: dict[str, Any]) -> int | None:
    """None when this client address may try a handshake now, else the close code."""
    try:
        allowed = websocket_handshake_allowed(address=_client_ip(scope))
    except Exception:  # Redis down: the channel layer is too; refuse cheaply
        count_refused_handshake(reason="unavailable")
        return CLOSE_TRY_AGAIN_LATER
    if allowed:
        return None
    count_refused_handshake(reason="throttled")
    return CLOSE_TOO_MANY


class DocumentEventsConsumer(AsyncJsonWebsocketConsumer):
    """Forwards the document group's events as `{"event": NAME, "data": PAYLOAD}` frames."""

    group_name: str | None = None
    access_groups: tuple[str, ...] = ()

    async def connect(self) -> None:
        document_id = str(self.scope["url_route"]["kwargs"]["document_id"])
        refusal = await _throttle(self.scope)
        if refusal is None:
            refusal = await authorize(self.scope, document_id)
        await self.accept()
        if refusal is not None:
            await self.close(code=refusal)
            return
        self.group_name = document_group(document_id)
        await self.channel_layer.group_add(self.group_name, self.channel_name)
        self.access_groups = tuple(self.scope.get("access_groups", ()))
        for group in self.access_groups:
            await self.channel_layer.group_add(group, self.channel_name)

    async def disconnect(self, code: int) -> None:
        if self.group_name is not None:
            await self.channel_layer.group_discard(self.group_name, self.channel_name)
            self.group_name = None
        for group in self.access_groups:
            await self.channel_layer.group_discard(group, self.channel_name)
        self.access_groups = ()

    async def access_ended(self, message: dict[str, Any]) -> None:
        """The key was revoked, the user deactivated or the role changed: reconnect needed."""
        await self.close(code=CLOSE_UNAUTHENTICATED)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """Clients only listen; anything they send is ignored."""

    async def document_event(self, message: dict[str, Any]) -> None:
        await self.send_json({"event": message["event"], "data": message["data"]})
