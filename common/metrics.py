"""Prometheus metrics of the service, and the `/metrics` endpoint that exposes them.

What the code reports (call these from services and tasks; they never raise):
- `observe_generation(document_type=, provider=, seconds=, failed=)` after each generation,
- `observe_ingestion(file_format=, seconds=, failed=)` after each asset ingestion,
- `count_refused_handshake(reason=)` for each WebSocket handshake refused unauthenticated.

Queue depth (`legaldocs_celery_queue_depth{queue}`) is read from Redis at scrape time.
HTTP metrics come from django-prometheus' middleware.

Several processes (uvicorn `--workers`, Celery prefork children): when
`PROMETHEUS_MULTIPROC_DIR` is set before the process starts, each process writes its
samples to files there and a scrape adds them up (prometheus_client's multiprocess mode).
The web container serves them at `/metrics`; a worker container serves its own on
`METRICS_WORKER_PORT` (see `start_worker_metrics_server`).

`/metrics` is not public: it answers callers on loopback or private networks
(`METRICS_ALLOWED_NETWORKS`) and callers sending `Authorization: Bearer <METRICS_TOKEN>`.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import os
from collections.abc import Iterable, Iterator

import redis
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
    start_http_server,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

logger = logging.getLogger(__name__)

# Generation takes seconds (template) to minutes (LLM); ingestion up to many minutes.
_DURATION_BUCKETS = (0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800)

GENERATION_DURATION = Histogram(
    "legaldocs_generation_duration_seconds",
    "Time to generate a legal document, failed attempts included.",
    ["document_type", "provider"],
    buckets=_DURATION_BUCKETS,
)
GENERATION_FAILURES = Counter(
    "legaldocs_generation_failures",  # exposed as legaldocs_generation_failures_total
    "Generations that ended with the document failed.",
    ["document_type", "provider"],
)
INGESTION_DURATION = Histogram(
    "legaldocs_ingestion_duration_seconds",
    "Time to convert, extract, split and embed one uploaded asset.",
    ["format"],
    buckets=_DURATION_BUCKETS,
)
INGESTION_FAILURES = Counter(
    "legaldocs_ingestion_failures",  # exposed as legaldocs_ingestion_failures_total
    "Ingestions that ended with the asset failed.",
    ["format"],
)
WEBSOCKET_HANDSHAKES_REFUSED = Counter(
    "legaldocs_websocket_handshakes_refused",  # exposed as ..._refused_total
    "WebSocket handshakes refused before authentication succeeded (not audited).",
    ["reason"],  # throttled, unauthenticated, unavailable
)


def observe_generation(
    *, document_type: str, provider: str, seconds: float, failed: bool = False
) -> None:
    """Record one generation attempt. Never raises: metrics must not fail the work."""
    try:
        GENERATION_DURATION.labels(document_type=document_type, provider=provider).observe(seconds)
        if failed:
            GENERATION_FAILURES.labels(document_type=document_type, provider=provider).inc()
    except Exception:  # a metrics problem is logged, never propagated
        logger.exception("could not record a generation metric")


def observe_ingestion(*, file_format: str, seconds: float, failed: bool = False) -> None:
    """Record one ingestion attempt. Never raises: metrics must not fail the work."""
    try:
        INGESTION_DURATION.labels(format=file_format).observe(seconds)
        if failed:
            INGESTION_FAILURES.labels(format=file_format).inc()
    except Exception:  # a metrics problem is logged, never propagated
        logger.exception("could not record an ingestion metric")


def count_refused_handshake(*, reason: str) -> None:
    """Count one refused WebSocket handshake. Never raises."""
    try:
        WEBSOCKET_HANDSHAKES_REFUSED.labels(reason=reason).inc()
    except Exception:  # a metrics problem is logged, never propagated
        logger.exception("could not record a refused handshake")


# kombu's Redis transport keeps one list per queue and priority step; messages without a
# priority go to the bare queue name.
_KOMBU_PRIORITY_SEPARATOR = "\x06\x16"
_KOMBU_PRIORITY_STEPS = (3, 6, 9)


def queue_keys(queue: str) -> list[str]:
    return [queue] + [f"{queue}{_KOMBU_PRIORITY_SEPARATOR}{step}" for step in _KOMBU_PRIORITY_STEPS]


class QueueDepthCollector(Collector):
    """`legaldocs_celery_queue_depth{queue}`: messages waiting in each Celery queue, now."""

    def collect(self) -> Iterable[GaugeMetricFamily]:
        family = GaugeMetricFamily(
            "legaldocs_celery_queue_depth",
            "Tasks waiting in the Celery queue (not yet taken by a worker).",
            labels=["queue"],
        )
        client = redis.Redis.from_url(
            settings.REDIS_URL,
            socket_timeout=2,
            socket_connect_timeout=2,
        )
        try:
            for queue in settings.CELERY_WORKER_QUEUES:
                pipeline = client.pipeline(transaction=False)
                for key in queue_keys(queue):
                    pipeline.llen(key)
                family.add_metric([queue], float(sum(pipeline.execute())))
        except redis.RedisError as error:
            # An absent gauge (and the failing /healthz) tells the story; the scrape still works.
            logger.warning("queue depth unavailable: %s", error)
            return []
        finally:
            client.close()
        return [family]


class _Collectors:
    """Several collectors seen as one, for `generate_latest`."""

    def __init__(self, *collectors: Collector | CollectorRegistry) -> None:
        self.collectors = collectors

    def collect(self) -> Iterator:
        for collector in self.collectors:
            yield from collector.collect()


def _process_metrics() -> Collector | CollectorRegistry:
    """This process's metrics, or every process's in multiprocess mode."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return registry
    return REGISTRY


def _ip_allowed(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in ipaddress.ip_network(network) for network in settings.METRICS_ALLOWED_NETWORKS)


def _token_valid(request: HttpRequest) -> bool:
    expected = settings.METRICS_TOKEN
    if not expected:
        return False
    scheme, _, offered = request.headers.get("Authorization", "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(
        offered.strip().encode(), expected.encode()
    )


def metrics_allowed(request: HttpRequest) -> bool:
    return _token_valid(request) or _ip_allowed(request.META.get("REMOTE_ADDR", ""))


@require_GET
def metrics_view(request: HttpRequest) -> HttpResponse:
    if not metrics_allowed(request):
        return HttpResponse(
            "Metrics are served to the internal network or with the metrics token.\n",
            status=403,
            content_type="text/plain",
        )
    body = generate_latest(_Collectors(_process_metrics(), QueueDepthCollector()))  # type: ignore[arg-type]
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)


def start_worker_metrics_server(port: int, address: str = "0.0.0.0") -> None:  # noqa: S104
    """Serve this Celery worker's metrics (all its pool processes) on `port`, in a thread.

    Only for the internal network: the port is not published by docker-compose.
    """
    start_http_server(port, addr=address, registry=_process_metrics())  # type: ignore[arg-type]
    logger.info("worker metrics served", extra={"port": port})


def connect_celery_signals() -> None:
    """Start the worker's metrics server once the worker is ready, when a port is set."""
    from celery import signals

    @signals.worker_ready.connect(weak=False)
    def _serve_metrics(**_: object) -> None:
        port = settings.METRICS_WORKER_PORT
        if port:
            start_worker_metrics_server(port)
