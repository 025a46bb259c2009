"""How a request proves who it is: an API key (Bearer or X-API-Key) or a Django session."""

from __future__ import annotations

import ipaddress
import logging
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from audit.models import Outcome
from audit.services import Actor, record_event
from common import throttling
from organizations import key_cache
from organizations.keys import key_matches, parse_key
from organizations.models import ApiKey
from organizations.second_factor import session_passes

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
    return f"auth-failures:{address_group(ip)}"


def address_group(ip: str | None) -> str:
    """What one client controls: an IPv4 address, or the /64 network of an IPv6 address
    (a single host is commonly given a whole /64, so per-address counting would let it
    draw fresh addresses without end)."""
    try:
        address = ipaddress.ip_address(ip or "")
    except ValueError:
        return "unknown"
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def _refuse_guessing(ip: str | None) -> None:
    """Past AUTH_FAILURES_PER_MINUTE bad keys from one address, answer 429 without auditing
    each attempt: a key-guessing client must not grow the audit trail without bound."""
    try:
        failures = cache.get(_failures_key(ip), 0)
    except Exception:  # the throttles of the view report an unavailable cache
        return
    if failures >= settings.AUTH_FAILURES_PER_MINUTE:
        raise exceptions.Throttled(wait=60, detail="Too many invalid API keys from this address.")


def _count_failure(ip: str | None) -> int:
    """Count one failure of `ip` in the current minute; return the count (0: not counted)."""
    key = _failures_key(ip)
    try:
        if cache.add(key, 1, timeout=60):
            return 1
        return int(cache.incr(key))
    except Exception:
        logger.warning("could not count a failed authentication", exc_info=True)
        return 0


def _record_unknown_key(*, label: str, ip: str | None, failures: int) -> None:
    """Audit an unknown or malformed key on the chain of unattributed events, aggregated.

    Every such event is appended under that one chain's lock, whoever sends the key, so
    each address adds at most two a minute (its first failure, and the one that reaches
    AUTH_FAILURES_PER_MINUTE, with the count), and all addresses together at most
    AUDIT_UNATTRIBUTED_EVENTS_PER_MINUTE; every attempt is still logged.
    """
    logger.info("invalid API key %s from %s (%s this minute)", label, ip, failures)
    if failures not in (0, 1, settings.AUTH_FAILURES_PER_MINUTE):
        return
    try:
        allowed, _ = throttling.hit(
            name="audit-unattributed-events",
            rate=f"{settings.AUDIT_UNATTRIBUTED_EVENTS_PER_MINUTE}/min",
        )
    except Exception:  # no budget without the cache: record, as before it existed
        allowed = True
    if not allowed:
        return
    record_event(
        organization=None,
        actor=Actor(label=label, ip=ip),
        action="auth.api_key",
        outcome=Outcome.DENIED,
        details={"reason": "unknown key", "failuresThisMinute": failures},
    )


def authenticate_raw_key(raw_key: str, *, ip: str | None) -> ApiKey:
    """Return the active key of an active user, or raise AuthenticationFailed after auditing
    the attempt (Throttled when one address sends too many bad keys).

    A malformed key is refused without a lookup; a well-formed one that is not in the
    cache is looked up in the database only while its address is within its budget of
    failures, so a stream of bogus keys costs one Redis round trip each past the limit.
    """
    parsed = parse_key(raw_key)
    api_key = None
    if parsed is not None:
        api_key = key_cache.api_key_by_prefix(
            parsed.prefix, before_database=lambda: _refuse_guessing(ip)
        )
    if api_key is None or not key_matches(raw_key, api_key.key_hash):
        # Checked on the failure path only: a valid key never pays for the extra round trip.
        _refuse_guessing(ip)
        failures = _count_failure(ip)
        _record_unknown_key(
            label=f"key:{parsed.prefix if parsed else 'malformed'}", ip=ip, failures=failures
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
    """Django's session (admin users, browsable API), CSRF-checked for writes.

    A session that owes the second factor (organizations/second_factor.py) is no credential:
    a stolen password must not open through the API what the admin keeps closed.
    """

    def authenticate(self, request: Request):  # type: ignore[no-untyped-def]
        found = super().authenticate(request)
        if found is None:
            return None
        if not session_passes(user=found[0], session=request._request.session):
            return None
        return found

    def authenticate_header(self, request: Request) -> str:
        # Makes DRF answer 401 (not 403) without credentials, with the Bearer challenge.
        return "Bearer"
