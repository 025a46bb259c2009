"""How a request proves who it is: an API key (Bearer or X-API-Key) or a Django session."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from audit.models import Outcome
from audit.services import Actor, record_event
from organizations.keys import key_matches, parse_key
from organizations.models import ApiKey

# Writing lastUsedAt on every request would turn each read into a write.
LAST_USED_RESOLUTION = timedelta(minutes=1)


def client_ip(request: Request) -> str | None:
    return request.META.get("REMOTE_ADDR") or None


def raw_key_from_headers(headers: dict[str, str] | object) -> str | None:
    """The key of `Authorization: Bearer <key>` or `X-API-Key: <key>`, if either is sent."""
    authorization = headers.get("Authorization", "")  # type: ignore[attr-defined]
    if authorization:
        scheme, _, value = authorization.partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            return value.strip()
        return None
    return headers.get("X-API-Key", "").strip() or None  # type: ignore[attr-defined]


def authenticate_raw_key(raw_key: str, *, ip: str | None) -> ApiKey:
    """Return the active key, or raise AuthenticationFailed after auditing the attempt."""
    parsed = parse_key(raw_key)
    api_key = None
    if parsed is not None:
        api_key = (
            ApiKey.objects.select_related("membership__user", "membership__organization")
            .filter(prefix=parsed.prefix)
            .first()
        )
    if api_key is None or not key_matches(raw_key, api_key.key_hash):
        record_event(
            organization=None,
            actor=Actor(label=f"key:{parsed.prefix if parsed else 'malformed'}", ip=ip),
            action="auth.api_key",
            outcome=Outcome.DENIED,
            details={"reason": "unknown key"},
        )
        raise exceptions.AuthenticationFailed("Invalid API key.")
    if api_key.revoked_at is not None:
        record_event(
            organization=api_key.membership.organization,
            actor=Actor(label=f"key:{api_key.prefix}", user_id=api_key.membership.user_id, ip=ip),
            action="auth.api_key",
            outcome=Outcome.DENIED,
            object_type="api_key",
            object_id=api_key.pk,
            details={"reason": "revoked key"},
        )
        raise exceptions.AuthenticationFailed("This API key has been revoked.")
    now = timezone.now()
    if api_key.last_used_at is None or now - api_key.last_used_at > LAST_USED_RESOLUTION:
        ApiKey.objects.filter(pk=api_key.pk).update(last_used_at=now)
        api_key.last_used_at = now
    return api_key


class ApiKeyAuthentication(authentication.BaseAuthentication):
    def authenticate(self, request: Request):  # type: ignore[no-untyped-def]
        raw_key = raw_key_from_headers(request.headers)
        if raw_key is None:
            return None
        api_key = authenticate_raw_key(raw_key, ip=client_ip(request))
        return api_key.membership.user, api_key

    def authenticate_header(self, request: Request) -> str:
        return "Bearer"


class SessionAuthentication(authentication.SessionAuthentication):
    """Django's session (admin users, browsable API), CSRF-checked for writes."""

    def authenticate_header(self, request: Request) -> str:
        # Makes DRF answer 401 (not 403) without credentials, with the Bearer challenge.
        return "Bearer"
