"""Rate limits per user, on the shared Redis, so every web process counts together.

Writes (POST, PATCH, PUT, DELETE) and reads have separate budgets: polling a document must
not use up the budget for starting work. Searches have a third, lower one on top of the
reads (the API's and the admin's search share it). Each budget is a fixed window counted in Redis in
one round trip (create the window if missing, increment, read its time to live), because
the limiter sits on the path of every request. Rates come from settings at request time
(e.g. "10/min"), so a test can change them with override_settings.
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from common.redis_client import cache_redis

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """ "10/min" -> (10, 60)."""
    count, _, period = rate.partition("/")
    return int(count), _PERIODS[period.strip()[0]]


def count_in_window(name: str, window: int, *, increment: int = 1) -> tuple[int, int]:
    """Add `increment` (0 only reads) to the fixed window counter `name`, creating it for
    `window` seconds if missing; return (count, seconds left). One Redis round trip.

    Raises redis errors: the caller decides whether an unavailable limiter refuses.
    """
    key = cache.make_and_validate_key(name)
    pipeline = cache_redis().pipeline(transaction=False)
    pipeline.set(key, 0, ex=window, nx=True)
    pipeline.incrby(key, increment)
    pipeline.ttl(key)
    _, count, time_to_live = pipeline.execute()
    return int(count), (int(time_to_live) if time_to_live and time_to_live > 0 else window)


def reset_window(name: str) -> None:
    cache.delete(name)


def hit(*, name: str, rate: str) -> tuple[bool, int | None]:
    """Count one hit on the budget `name` ("10/min"): (allowed, seconds to wait if not)."""
    limit, window = parse_rate(rate)
    count, time_to_live = count_in_window(f"throttle:{name}", window)
    if count <= limit:
        return True, None
    return False, max(1, time_to_live)


def websocket_handshake_allowed(*, address: str | None) -> bool:
    """One WebSocket handshake from `address`, within WEBSOCKET_HANDSHAKE_RATE?

    Checked before the handshake's credentials are looked at, so that a loop of handshakes
    (anonymous or not) costs one Redis round trip each and writes nothing else.
    """
    allowed, _ = hit(
        name=f"websocket-handshakes:{address or 'unknown'}",
        rate=settings.WEBSOCKET_HANDSHAKE_RATE,
    )
    return allowed


class _UserRateThrottle(BaseThrottle):
    scope = ""
    setting_name = ""
    wait_seconds: int | None = None

    def applies_to(self, request: Request) -> bool:
        raise NotImplementedError

    def allow_request(self, request: Request, view: object) -> bool:
        if not self.applies_to(request):
            return True
        user = request.user
        ident = user.pk if user is not None and user.is_authenticated else self.get_ident(request)
        allowed, self.wait_seconds = hit(
            name=f"{self.scope}:{ident}", rate=getattr(settings, self.setting_name)
        )
        return allowed

    def wait(self) -> float | None:
        return self.wait_seconds


class WriteRateThrottle(_UserRateThrottle):
    scope = "writes"
    setting_name = "RATE_LIMIT_WRITES"

    def applies_to(self, request: Request) -> bool:
        return request.method not in SAFE_METHODS


class ReadRateThrottle(_UserRateThrottle):
    scope = "reads"
    setting_name = "RATE_LIMIT_READS"

    def applies_to(self, request: Request) -> bool:
        return request.method in SAFE_METHODS


class SearchRateThrottle(_UserRateThrottle):
    """Asset searches (RATE_LIMIT_SEARCH), counted on top of the reads: one search embeds
    its query and runs a statement of up to SEARCH_STATEMENT_TIMEOUT_MS."""

    scope = "search"
    setting_name = "RATE_LIMIT_SEARCH"

    def applies_to(self, request: Request) -> bool:
        return True


def search_hit(*, user_id: object) -> tuple[bool, int | None]:
    """One search by `user_id` outside DRF (the admin's search page), counted in the same
    budget as SearchRateThrottle's: (allowed, seconds to wait if not). Raises redis errors."""
    return hit(name=f"{SearchRateThrottle.scope}:{user_id}", rate=settings.RATE_LIMIT_SEARCH)
