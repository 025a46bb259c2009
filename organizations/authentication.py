"""How a request proves who it is: an API key (Bearer or X-API-Key) or a Django session."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from audit.models import Outcome
from audit.services import Actor, record_event
from organizations import key_cache
from organizations.keys import key_matches, parse_key
from organizations.models import ApiKey

logger = logging.getLogger(__name__)

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


def _failures_key(ip: str | None) -> str:
    return f"auth-failures:{ip or 'unknown'}"


def _refuse_guessing(ip: str | None) -> None:
    """Past AUTH_FAILURES_PER_MINUTE bad keys from one address, answer 429 without auditing
    each attempt: a key-guessing client must not grow the audit trail without bound."""
    try:
        failures = cache.get(_failures_key(ip), 0)
    except Exception:  # the throttles of the view report an unavailable cache
        return
    if failures >= settings.AUTH_FAILURES_PER_MINUTE:
        raise exceptions.Throttled(wait=60, detail="Too many invalid API keys from this address.")


def _count_failure(ip: str | None) -> None:
    key = _failures_key(ip)
    try:
        if not cache.add(key, 1, timeout=60):
            cache.incr(key)
    except Exception:
        logger.warning("could not count a failed authentication", exc_info=True)


def authenticate_raw_key(raw_key: str, *, ip: str | None) -> ApiKey:
    """Return the active key of an active user, or raise AuthenticationFailed after auditing
    the attempt (Throttled when one address sends too many bad keys)."""
    parsed = parse_key(raw_key)
    api_key = None
    if parsed is not None:
        api_key = key_cache.api_key_by_prefix(parsed.prefix)
    if api_key is None or not key_matches(raw_key, api_key.key_hash):
        # Checked on the failure path only: a valid key never pays for the extra round trip.
        _refuse_guessing(ip)
        _count_failure(ip)
        record_event(
            organization=None,
            actor=Actor(label=f"key:{parsed.prefix if parsed else 'malformed'}", ip=ip),
            action="auth.api_key",
            outcome=Outcome.DENIED,
            details={"reason": "unknown key"},
        )
        raise exceptions.AuthenticationFailed("Invalid API key.")
    refusal = _refusal_reason(api_key)
    if refusal is not None:
        _refuse_guessing(ip)
        _count_failure(ip)
        record_event(
            organization=api_key.membership.organization,
            actor=Actor(label=f"key:{api_key.prefix}", user_id=api_key.membership.user_id, ip=ip),
            action="auth.api_key",
            outcome=Outcome.DENIED,
            object_type="api_key",
            object_id=api_key.pk,
            details={"reason": refusal},
        )
        raise exceptions.AuthenticationFailed(f"This API key is not valid: {refusal}.")
    now = timezone.now()
    if api_key.last_used_at is None or now - api_key.last_used_at > LAST_USED_RESOLUTION:
        ApiKey.objects.filter(pk=api_key.pk).update(last_used_at=now)
        api_key.last_used_at = now
        key_cache.remember(api_key)  # or every request of the next seconds would write again
    return api_key


def _refusal_reason(api_key: ApiKey) -> str | None:
    if api_key.revoked_at is not None:
        return "revoked key"
    if not api_key.membership.user.is_active:
        return "deactivated user"
    return None


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
