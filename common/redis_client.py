"""One Redis client per process, on the cache's server, for commands the cache API lacks.

Django's cache API has no pipeline (the rate limiter needs SET NX + INCR + TTL in one round
trip). This client talks to the same server, with the same options (the fail-fast socket
timeouts), as the `default` cache, so `cache.clear()` clears what it writes. redis-py's
client is thread-safe and its connection pool reopens its connections after a fork (uvicorn
workers, Celery prefork children), so one per process is enough.
"""

from __future__ import annotations

import threading

import redis
from django.conf import settings

_clients: dict[tuple[str, tuple[tuple[str, object], ...]], redis.Redis] = {}
_lock = threading.Lock()


def cache_redis() -> redis.Redis:
    """The client of the `default` cache's Redis (one per location and options)."""
    cache_settings = settings.CACHES["default"]
    location = cache_settings["LOCATION"]
    options = tuple(sorted(cache_settings.get("OPTIONS", {}).items()))
    key = (location, options)
    client = _clients.get(key)
    if client is None:
        with _lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = redis.Redis.from_url(location, **dict(options))
    return client
