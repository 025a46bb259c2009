"""The admin's login form: attempts reserved before the password is checked, per address and name.

Each attempt first takes a place in two budgets, in one atomic Redis script (so every web
process and every parallel request counts together), and only an attempt within both has its
password checked:

- per (address, user name): ADMIN_LOGIN_FAILURES_PER_ADDRESS_AND_NAME attempts a window;
- per address, across names: ADMIN_LOGIN_FAILURES_PER_ADDRESS (guessing many names).

Reserving first is what bounds a burst: 50 parallel wrong passwords get 5 checks, not 50 (a
counter read before the check and written after it lets them all through). A failed attempt
keeps its place; a successful one clears its (address, name) budget and gives its place in the
address budget back, so an office behind one address is not blocked by its own logins.

The first attempt past a budget locks it for ADMIN_LOGIN_LOCKOUT_SECONDS; each further
lock-out of the same budget (remembered for twice the longest lock-out) lasts twice as long,
up to ADMIN_LOGIN_MAX_LOCKOUT_SECONDS. There is deliberately no budget per name alone: it
would let anyone lock a member out from anywhere, which is the attack this form must not
allow; a member always logs in from an address that is not locked. IPv6 addresses count by
their /64 network, which one client usually holds whole.

Redis unavailable: the login still works (logged), like the API's throttles.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
from collections.abc import Sequence
from typing import Any

import redis
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy

from common.redis_client import cache_redis

logger = logging.getLogger(__name__)

# KEYS: for each budget, its attempts counter then its lock-out counter.
# ARGV: the window, the lock-out memory, each budget's limit, then the lock-outs' durations
# (the first, the second, ...; the last one repeats). Returns the milliseconds until the
# attempt may be made again: 0 when it was reserved.
_RESERVE = """
local budgets = #KEYS / 2
local durations = #ARGV - 2 - budgets
local wait = 0
for index = 1, budgets do
  local attempts, lockouts = KEYS[index * 2 - 1], KEYS[index * 2]
  local limit = tonumber(ARGV[2 + index])
  local count = redis.call('INCR', attempts)
  if count == 1 then redis.call('EXPIRE', attempts, ARGV[1]) end
  if count == limit + 1 then
    local times = redis.call('INCR', lockouts)
    redis.call('EXPIRE', lockouts, ARGV[2])
    redis.call('EXPIRE', attempts, ARGV[2 + budgets + math.min(times, durations)])
  end
  if count > limit then
    wait = math.max(wait, redis.call('PTTL', attempts), 1)
  end
end
return wait
"""
# KEYS: the (address, name) budget's counters, then the address's attempts counter.
# ARGV: the address budget's limit. Only a place within the budget is given back (past it,
# the count is what keeps the lock-out).
_SUCCEEDED = """
redis.call('DEL', KEYS[1], KEYS[2])
local count = tonumber(redis.call('GET', KEYS[3]))
if count and count > 0 and count <= tonumber(ARGV[1]) then redis.call('DECR', KEYS[3]) end
return 0
"""


def lockout_seconds(*, lockouts: int) -> int:
    """How long the `lockouts`-th lock-out of a budget lasts (1 for the first)."""
    first = settings.ADMIN_LOGIN_LOCKOUT_SECONDS
    return int(min(first * 2 ** max(0, lockouts - 1), settings.ADMIN_LOGIN_MAX_LOCKOUT_SECONDS))


def _lockout_durations() -> list[int]:
    """Every distinct lock-out duration, first to longest (at most ~20: they double)."""
    durations = [lockout_seconds(lockouts=1)]
    while durations[-1] < settings.ADMIN_LOGIN_MAX_LOCKOUT_SECONDS:
        durations.append(lockout_seconds(lockouts=len(durations) + 1))
    return durations


def _client(address: str) -> str:
    """The address as counted: IPv6 by its /64 network."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address[:64] or "unknown"
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def _keys(*, username: str, address: str) -> tuple[str, str, str, str]:
    """(pair attempts, pair lock-outs, address attempts, address lock-outs), as cache keys."""
    name = hashlib.sha256(username.strip().lower().encode()).hexdigest()[:32]
    client = _client(address)
    pair, pair_lockouts, by_address, address_lockouts = (
        cache.make_and_validate_key(key)
        for key in (
            f"admin-login:pair:{client}:{name}",
            f"admin-login:pair-lockouts:{client}:{name}",
            f"admin-login:address:{client}",
            f"admin-login:address-lockouts:{client}",
        )
    )
    return pair, pair_lockouts, by_address, address_lockouts


def _run(script: str, *, keys: Sequence[str], args: Sequence[int]) -> Any:
    result: Any = cache_redis().eval(script, len(keys), *keys, *(str(arg) for arg in args))
    return result


def reserve_attempt(*, username: str, address: str) -> float:
    """Take a place for one attempt; seconds to wait when refused, 0 when reserved."""
    wait_ms = _run(
        _RESERVE,
        keys=_keys(username=username, address=address),
        args=[
            settings.ADMIN_LOGIN_WINDOW_SECONDS,
            2 * settings.ADMIN_LOGIN_MAX_LOCKOUT_SECONDS,  # how long lock-outs are remembered
            settings.ADMIN_LOGIN_FAILURES_PER_ADDRESS_AND_NAME,
            settings.ADMIN_LOGIN_FAILURES_PER_ADDRESS,
            *_lockout_durations(),
        ],
    )
    return int(wait_ms) / 1000


def attempt_succeeded(*, username: str, address: str) -> None:
    pair, pair_lockouts, by_address, _ = _keys(username=username, address=address)
    _run(
        _SUCCEEDED,
        keys=[pair, pair_lockouts, by_address],
        args=[settings.ADMIN_LOGIN_FAILURES_PER_ADDRESS],
    )


def lockout_seconds_left(*, username: str, address: str) -> float:
    """Seconds until the (address, name) budget is open again; 0 when it is not locked."""
    pair = _keys(username=username, address=address)[0]
    count: Any
    milliseconds: Any
    pipeline = cache_redis().pipeline(transaction=False)
    pipeline.get(pair)
    pipeline.pttl(pair)
    count, milliseconds = pipeline.execute()
    if int(count or 0) <= settings.ADMIN_LOGIN_FAILURES_PER_ADDRESS_AND_NAME:
        return 0
    return max(0, int(milliseconds)) / 1000


class ThrottledAdminAuthenticationForm(AdminAuthenticationForm):
    error_messages = {
        **AdminAuthenticationForm.error_messages,
        "throttled": gettext_lazy(
            "Too many failed logins for this account or from this address. "
            "Try again in %(minutes)s minutes."
        ),
    }

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if not username or password is None:
            return super().clean()  # no password is checked: the form's own errors
        address = (self.request.META.get("REMOTE_ADDR") if self.request else None) or "unknown"
        try:
            wait = reserve_attempt(username=username, address=address)
        except redis.RedisError:  # Redis down: the login still works, like the API's throttles
            logger.warning("could not reserve an admin login attempt", exc_info=True)
            return super().clean()
        if wait:
            raise ValidationError(
                self.error_messages["throttled"],
                code="throttled",
                params={"minutes": max(1, math.ceil(wait / 60))},
            )
        cleaned = super().clean()  # a failure keeps its reserved place
        try:
            attempt_succeeded(username=username, address=address)
        except redis.RedisError:
            logger.warning("could not clear the admin login attempts", exc_info=True)
        return cleaned
