"""Authentication and throttling of WebSocket handshakes, shared by the sockets of the apps
(`/ws/legal-documents/{id}/`, `/ws/assets/`; docs/API.md, WebSocket).

Credentials, in this order: `Authorization: Bearer <key>` or `X-API-Key` header, the
`?api_key=` query parameter, then the Django session. A session is accepted only without an
Origin header or from an allowed host (cross-site WebSocket hijacking); API keys are not
sent by browsers on their own and need no such check.
"""

from __future__ import annotations

import uuid
from typing import Any
from urllib.parse import parse_qs, urlsplit

from asgiref.sync import sync_to_async
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from rest_framework.exceptions import AuthenticationFailed, Throttled

from audit.models import Outcome
from audit.services import Actor, record_event, record_foreign_attempt
from common.consumers import CLOSE_UNAUTHENTICATED
from common.metrics import count_refused_handshake
from common.throttling import websocket_handshake_allowed
from organizations.authentication import authenticate_raw_key, raw_key_from_headers
from organizations.events import api_key_group, member_group
from organizations.models import Membership
from organizations.second_factor import session_passes

__all__ = ["CLOSE_UNAUTHENTICATED"]  # defined with the listening consumer (common.consumers)
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
    session = scope.get("session")
    if session is None or not session_passes(user=user, session=session):
        raise Unauthenticated  # the second factor is owed (organizations/second_factor.py)
    scope["access_groups"] = [member_group(membership.pk)]
    return membership, Actor(label=user.email or user.get_username(), user_id=user.pk, ip=ip)


@sync_to_async(thread_sensitive=False)  # one Redis round trip; no database
def throttle_handshake(scope: dict[str, Any]) -> int | None:
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


CLOSE_NOT_FOUND = 4404


def authorize_subscription(
    scope: dict[str, Any], *, model: type[Any], object_id: str, object_type: str
) -> int | None:
    """None when the caller may follow `object_id` (a `model` row), else the close code.

    The one organization check of the sockets that follow one row (a document, a review):
    4401 without valid credentials (only counted), 4404 for an unknown row or one of another
    organization. The attempt is audited as `<object_type>.subscribe`, a foreign one in the
    owner's trail too. Synchronous: a consumer wraps it in database_sync_to_async.
    """
    try:
        membership, actor = resolve_caller(scope)
    except Unauthenticated:
        count_refused_handshake(reason="unauthenticated")
        return CLOSE_UNAUTHENTICATED
    try:
        uuid.UUID(object_id)
        owner_id = (
            model.objects.filter(pk=object_id).values_list("organization_id", flat=True).first()
        )
    except ValueError:
        owner_id = None
    found = owner_id == membership.organization_id
    action = f"{object_type}.subscribe"
    record_event(
        organization=membership.organization,
        actor=actor,
        action=action,
        outcome=Outcome.ALLOWED if found else Outcome.DENIED,
        object_type=object_type,
        object_id=object_id,
        details=None if found else {"reason": f"unknown {object_type} or of another organization"},
    )
    if owner_id is not None and not found:  # the owner's auditors see the attempt too
        record_foreign_attempt(
            owner_organization_id=owner_id,
            actor=actor,
            action=action,
            object_type=object_type,
            object_id=object_id,
            details={"via": "websocket"},
        )
    return None if found else CLOSE_NOT_FOUND
