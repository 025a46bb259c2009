"""`GET /healthz`: can this process serve? Database, Redis and at least one Celery worker."""

from __future__ import annotations

import logging
from collections.abc import Callable

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

logger = logging.getLogger(__name__)


def check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


def check_redis() -> None:
    client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)
    try:
        client.ping()
    finally:
        client.close()


def check_worker() -> None:
    from config.celery import app

    replies = app.control.ping(timeout=settings.HEALTHCHECK_WORKER_TIMEOUT)
    if not replies:
        raise RuntimeError("no Celery worker answered")


CHECKS: dict[str, Callable[[], None]] = {
    "database": check_database,
    "redis": check_redis,
    "worker": check_worker,
}


def run_checks() -> dict[str, str]:
    results: dict[str, str] = {}
    for name, check in CHECKS.items():
        if name == "worker" and results.get("redis") != "ok":
            results[name] = "unknown: redis is down"  # the worker is reached through Redis
            continue
        try:
            check()
            results[name] = "ok"
        except Exception as error:  # any failure of a dependency means "not healthy"
            logger.warning("health check %s failed: %s", name, error)
            results[name] = f"error: {type(error).__name__}"
    return results


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    checks = run_checks()
    healthy = all(result == "ok" for result in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", "checks": checks},
        status=200 if healthy else 503,
    )
