"""Health probes: `GET /livez` (is this process alive?) and `GET /readyz` (can it serve?).

- `/livez`: the process answers and its database answers `SELECT 1`. What an orchestrator's
  liveness probe uses: failing it restarts the process, which helps only when the process
  itself is stuck; Redis or the workers being down is no reason to restart a web process.
- `/readyz`: the database, Redis and at least one Celery worker (a heartbeat). What a load
  balancer's or orchestrator's readiness probe, and the compose web healthcheck, use: a
  process failing it should get no traffic, but must not be restarted for it.
- `/healthz`: the same as `/readyz`, for the probes of earlier versions.

The probes are public and anonymous, so they must cost next to nothing however often they
are called. Each process runs each probe's checks at most once per
HEALTHCHECK_CACHE_SECONDS and answers every other call from that result: one caller
refreshes it while the others, if a result exists, answer the previous one (or, on the very
first probe, wait for the refresher). A flood of probes thus opens one database connection
per period instead of one per probe.

No Celery ping on the request path (it waits a full second for replies): workers write a
heartbeat into a Redis sorted set (`HEALTHCHECK_HEARTBEAT_KEY`, member = worker hostname,
score = Redis time) every HEALTHCHECK_HEARTBEAT_SECONDS, and remove it when they stop. A
worker is alive while its heartbeat is younger than HEALTHCHECK_WORKER_STALE_SECONDS.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

logger = logging.getLogger(__name__)


def _redis() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)


def check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


def check_redis() -> None:
    client = _redis()
    try:
        client.ping()
    finally:
        client.close()


def _redis_now(client: redis.Redis) -> float:
    """Redis' clock, so that workers and web processes on other hosts agree on ages."""
    seconds, microseconds = client.time()
    return seconds + microseconds / 1_000_000


def check_worker() -> None:
    client = _redis()
    try:
        oldest_alive = _redis_now(client) - settings.HEALTHCHECK_WORKER_STALE_SECONDS
        alive = client.zcount(settings.HEALTHCHECK_HEARTBEAT_KEY, oldest_alive, "+inf")
    finally:
        client.close()
    if not alive:
        raise RuntimeError("no Celery worker heartbeat")


# Readiness: what serving a request may need.
CHECKS: dict[str, Callable[[], None]] = {
    "database": check_database,
    "redis": check_redis,
    "worker": check_worker,
}
# Liveness: the process and its database only (no Redis, no worker).
LIVE_CHECKS: dict[str, Callable[[], None]] = {"database": check_database}
PROBES: dict[str, dict[str, Callable[[], None]]] = {"ready": CHECKS, "live": LIVE_CHECKS}


def run_checks(checks: dict[str, Callable[[], None]] | None = None) -> dict[str, str]:
    """Run ``checks`` (default: the readiness checks); "ok" or the error's type for each."""
    results: dict[str, str] = {}
    for name, check in (CHECKS if checks is None else checks).items():
        if name == "worker" and results.get("redis") != "ok":
            results[name] = "unknown: redis is down"  # the heartbeats are in Redis
            continue
        try:
            check()
            results[name] = "ok"
        except Exception as error:  # any failure of a dependency means "not healthy"
            logger.warning("health check %s failed: %s", name, error)
            results[name] = f"error: {type(error).__name__}"
    return results


# --- The cached results (per process and probe) ------------------------------------------
_refreshing = {probe: threading.Lock() for probe in PROBES}
_cached: dict[str, tuple[float, dict[str, str]]] = {}


def forget_cached_result() -> None:
    """The next probe runs the checks again (tests; a process that knows better)."""
    _cached.clear()


def cached_checks(probe: str = "ready") -> dict[str, str]:
    """The checks' result of ``probe`` ("ready" or "live"), at most HEALTHCHECK_CACHE_SECONDS
    old; one refresher at a time."""
    cached = _cached.get(probe)
    if cached is not None and time.monotonic() - cached[0] < settings.HEALTHCHECK_CACHE_SECONDS:
        return cached[1]
    # A stale result is answered while another caller refreshes it; without any result the
    # caller waits for the refresher (bounded by the checks' own timeouts).
    refreshing = _refreshing[probe]
    if not refreshing.acquire(blocking=cached is None):
        return cached[1]  # type: ignore[index]
    try:
        cached = _cached.get(probe)
        if cached is not None and time.monotonic() - cached[0] < settings.HEALTHCHECK_CACHE_SECONDS:
            return cached[1]  # refreshed while this caller waited for the lock
        results = run_checks(PROBES[probe])
        _cached[probe] = (time.monotonic(), results)
        return results
    finally:
        refreshing.release()


def _answer(probe: str) -> JsonResponse:
    checks = cached_checks(probe)
    healthy = all(result == "ok" for result in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", "checks": checks},
        status=200 if healthy else 503,
    )


@require_GET
def livez(request: HttpRequest) -> JsonResponse:
    """200 while the process and its database answer; 503 otherwise (restart me)."""
    return _answer("live")


@require_GET
def readyz(request: HttpRequest) -> JsonResponse:
    """200 while the database, Redis and a worker answer; 503 otherwise (no traffic)."""
    return _answer("ready")


# Earlier versions' probe: readiness.
healthz = readyz


# --- Worker heartbeats -------------------------------------------------------------------------
def record_worker_heartbeat(*, hostname: str) -> None:
    """Mark the worker `hostname` alive now; drop heartbeats long dead. Raises RedisError."""
    client = _redis()
    try:
        now = _redis_now(client)
        key = settings.HEALTHCHECK_HEARTBEAT_KEY
        pipeline = client.pipeline(transaction=False)
        pipeline.zadd(key, {hostname: now})
        pipeline.zremrangebyscore(key, "-inf", now - 10 * settings.HEALTHCHECK_WORKER_STALE_SECONDS)
        pipeline.execute()
    finally:
        client.close()


def forget_worker_heartbeat(*, hostname: str) -> None:
    """A worker that stops says so at once, rather than looking alive until it goes stale."""
    client = _redis()
    try:
        client.zrem(settings.HEALTHCHECK_HEARTBEAT_KEY, hostname)
    finally:
        client.close()


def _beat_until(stopped: threading.Event, hostname: str) -> None:
    while not stopped.wait(settings.HEALTHCHECK_HEARTBEAT_SECONDS):
        try:
            record_worker_heartbeat(hostname=hostname)
        except Exception:  # Redis down: /readyz says so; keep trying
            logger.warning("could not write the worker heartbeat", exc_info=True)


def connect_celery_signals() -> None:
    """A worker writes its heartbeat from the moment it is ready until it shuts down."""
    from celery import signals

    stopped = threading.Event()

    @signals.worker_ready.connect(weak=False)
    def _start_heartbeat(sender: object = None, **_: object) -> None:
        hostname = getattr(sender, "hostname", None) or "worker"
        try:
            record_worker_heartbeat(hostname=hostname)
        except Exception:
            logger.warning("could not write the worker heartbeat", exc_info=True)
        threading.Thread(
            target=_beat_until, args=(stopped, hostname), name="health-heartbeat", daemon=True
        ).start()

    @signals.worker_shutdown.connect(weak=False)
    def _stop_heartbeat(sender: object = None, **_: object) -> None:
        stopped.set()
        hostname = getattr(sender, "hostname", None)
        if hostname:
            try:
                forget_worker_heartbeat(hostname=hostname)
            except Exception:
                logger.warning("could not remove the worker heartbeat", exc_info=True)
