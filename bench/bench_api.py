"""API throughput against a bare Django view of the same data, then the load scenario.

1. Throughput: uvicorn (one process, loopback) serves the real API and, in the same process,
   bare views returning the same JSON (`bench/urls_bare.py`: no DRF, authentication,
   throttling or audit). locust (headless, one process, no pause between requests) measures
   requests/s and latency of authenticated `GET /api/v1/legal-documents/{id}` and of the
   list, against the bare views, each for BENCH_API_SECONDS (default 15), with audit logging
   on (every read of a document is an audit event). Target: API >= 60% of the bare view's
   requests/s. DB_CONN_MAX_AGE 0 (the default; BENCH_API_CONN_MAX_AGES=0,60 adds runs).
2. Load: 50 clients creating, polling, listing documents and uploading assets for
   LOAD_SECONDS (default 120) against uvicorn and a Celery worker; then no 5xx, every
   document and asset finished, every audit chain valid (tests/support/load.py).

Runs on the bench's embedded stack (DATA_DIR, default .data/bench).
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATA_DIR", str(ROOT / ".data" / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

from config import local_stack  # noqa: E402

# The embedded servers of DATA_DIR, when run without `make bench` (which did it already).
local_stack.prepare(Path(os.environ["DATA_DIR"]))

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402

from audit.services import Actor, verify_chain  # noqa: E402
from legal_documents.services.documents import legal_document_create, run_generation  # noqa: E402
from organizations.models import Organization  # noqa: E402
from organizations.services import api_key_create, member_create, organization_create  # noqa: E402
from tests.conftest import database_url  # noqa: E402
from tests.legal_documents.samples import FULL_INPUTS  # noqa: E402
from tests.support.live_stack import WebServer, Worker, running, wait_until  # noqa: E402
from tests.support.load import outcomes, run_load, unfinished_work  # noqa: E402

SECONDS = int(os.environ.get("BENCH_API_SECONDS", "15"))
USERS = int(os.environ.get("BENCH_API_USERS", "16"))
LOAD_SECONDS = float(os.environ.get("LOAD_SECONDS", "120"))
TARGET_RATIO = 0.6
DOCUMENTS = 25


def _unique(prefix: str) -> str:
    return f"{prefix}-{time.time_ns()}"


def prepare() -> tuple[str, str, str]:
    """An organization with DOCUMENTS completed documents and a DPO key: (org, doc, key)."""
    call_command("migrate", verbosity=0)
    organization = organization_create(name="Bench API", slug=_unique("bench-api"))
    membership = member_create(organization=organization, email=f"{_unique('api')}@bench.example")
    key = api_key_create(membership=membership, name="bench").raw_key
    document = None
    for _ in range(DOCUMENTS):
        document = legal_document_create(
            membership=membership, document_type="DPIA", inputs=FULL_INPUTS["DPIA"],
            actor=Actor(label="bench"),
        )  # fmt: skip
        run_generation(document_id=str(document.pk), job_id=str(document.job_id))
    assert document is not None
    return str(organization.pk), str(document.pk), key


def environment(**extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": database_url(settings.DATABASES["default"]),
        "REDIS_URL": settings.REDIS_URL,
        "PYTHONUNBUFFERED": "1",
        "LOG_LEVEL": "WARNING",
        **extra,
    }


def peak_memory_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


def locust(base_url: str, path: str, key: str, workdir: Path) -> dict[str, Any]:
    """One headless locust run (its own process) against `path`; the aggregated stats."""
    prefix = workdir / f"locust-{time.time_ns()}"
    subprocess.run(
        [sys.executable, "-m", "locust", "-f", str(ROOT / "bench" / "locustfile.py"),
         "--headless", "--users", str(USERS), "--spawn-rate", str(USERS),
         "--run-time", f"{SECONDS}s", "--host", base_url, "--csv", str(prefix),
         "--only-summary", "--loglevel", "WARNING", "--exit-code-on-error", "0",
         "--stop-timeout", "5"],
        cwd=ROOT, env={**os.environ, "BENCH_PATH": path, "BENCH_API_KEY": key},
        check=True, stdout=subprocess.DEVNULL, timeout=SECONDS + 120,
    )  # fmt: skip
    with Path(f"{prefix}_stats.csv").open() as handle:
        row = next(r for r in csv.DictReader(handle) if r["Name"] == "Aggregated")

    def number(name: str) -> float | None:
        return None if row[name] in {"", "N/A"} else float(row[name])

    return {
        "requests": int(row["Request Count"]),
        "failures": int(row["Failure Count"]),
        "requestsPerSecond": round(float(row["Requests/s"]), 1),
        "medianMs": number("Median Response Time"),
        "p95Ms": number("95%"),
    }


def throughput(organization_id: str, document_id: str, key: str, conn_max_age: str) -> dict:
    workdir = Path(tempfile.mkdtemp(prefix="bench-api-"))
    server = WebServer(
        env=environment(
            DJANGO_SETTINGS_MODULE="bench.settings_bare",
            # The reads' budget must not cap the benchmark; the throttle still runs.
            RATE_LIMIT_READS="100000000/min",
            DB_CONN_MAX_AGE=conn_max_age,
        ),
        log_path=workdir / "web.log",
    )
    paths = {
        "detail": (f"/api/v1/legal-documents/{document_id}",
                   f"/bare/legal-documents/{document_id}"),
        "list": ("/api/v1/legal-documents?limit=20",
                 f"/bare/legal-documents?organization={organization_id}"),
    }  # fmt: skip
    results: dict[str, Any] = {}
    with running(server.start()):
        for name, (api_path, bare_path) in paths.items():
            api = locust(server.base_url, api_path, key, workdir)
            bare = locust(server.base_url, bare_path, key, workdir)
            ratio = api["requestsPerSecond"] / bare["requestsPerSecond"]
            results[name] = {"api": api, "bare": bare, "ratio": round(ratio, 2)}
        assert server.process is not None
        results["serverPeakMemoryMB"] = peak_memory_mb(server.process.pid)
    return results


def load() -> dict[str, Any]:
    workdir = Path(tempfile.mkdtemp(prefix="bench-load-"))
    organizations = [
        organization_create(name=f"Load {index}", slug=_unique(f"load-{index}"))
        for index in range(10)
    ]
    keys = [
        api_key_create(
            membership=member_create(
                organization=organizations[index % 10], email=f"{_unique('load')}@bench.example"
            ),
            name="load",
        ).raw_key
        for index in range(50)
    ]
    server = WebServer(env=environment(), log_path=workdir / "web.log")
    worker = Worker(env=environment(), log_path=workdir / "worker.log", name="bench-load")
    with running(server.start(), worker.start()):
        report = run_load(
            base_url=server.base_url, keys=keys, seconds=LOAD_SECONDS,
            create_body={"documentType": "DPIA", **FULL_INPUTS["DPIA"]},
        )  # fmt: skip
        try:
            wait_until(lambda: unfinished_work(report) == ([], []), timeout=300, interval=1)
            settled = True
        except TimeoutError:
            settled = False
        assert server.process is not None
        memory = peak_memory_mb(server.process.pid)
    broken = [
        str(organization.pk)
        for organization in Organization.objects.filter(pk__in=[o.pk for o in organizations])
        if verify_chain(organization_id=organization.pk) is not None
    ]
    return {
        **report.summary(),
        "serverErrorSamples": report.server_errors[:5],
        "allSettled": settled,
        "unfinished": [len(items) for items in unfinished_work(report)],
        "outcomes": outcomes(report),
        "brokenAuditChains": broken,
        "serverPeakMemoryMB": memory,
    }


def main() -> None:
    organization_id, document_id, key = prepare()
    runs = {
        f"connMaxAge={age}": throughput(organization_id, document_id, key, age)
        for age in os.environ.get("BENCH_API_CONN_MAX_AGES", "0").split(",")
    }
    load_result = load()
    summary = []
    for run_name, run in runs.items():
        for endpoint in ("detail", "list"):
            result = run[endpoint]
            for side in ("api", "bare"):
                summary.append({
                    "metric": f"GET {endpoint} {side} ({run_name}) requests/s; ms",
                    "median": result[side]["requestsPerSecond"],
                    "p95": f"{result[side]['medianMs']} / {result[side]['p95Ms']} ms",
                    "unit": "req/s; median / p95 latency",
                    "peakMemoryMB": run["serverPeakMemoryMB"],
                    "target": None,
                })  # fmt: skip
            summary.append({
                "metric": f"GET {endpoint} API / bare ({run_name})",
                "median": result["ratio"], "p95": None, "unit": "ratio",
                "peakMemoryMB": None, "target": f">= {TARGET_RATIO}",
            })  # fmt: skip
    latency = load_result["latencyMs"]
    summary.append({
        "metric": f"load: {len(load_result['byKind'])} kinds, 50 clients, "
                  f"{load_result['seconds']} s; 5xx={load_result['serverErrors']}, "
                  f"documents={load_result['outcomes']['documents']}, "
                  f"assets={load_result['outcomes']['assets']}, "
                  f"brokenChains={len(load_result['brokenAuditChains'])}",
        "median": load_result["requestsPerSecond"], "p95": None, "unit": "req/s",
        "peakMemoryMB": load_result["serverPeakMemoryMB"], "target": "0 5xx, 0 lost",
    })  # fmt: skip
    for kind, values in latency.items():
        summary.append({
            "metric": f"load: {kind} latency", "median": values["median"],
            "p95": values["p95"], "unit": "ms", "peakMemoryMB": None, "target": None,
        })  # fmt: skip
    print(json.dumps({"throughput": runs, "load": load_result, "summary": summary}))


if __name__ == "__main__":
    main()
