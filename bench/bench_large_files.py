"""A 100 MB CSV and a 100 MB text file through the real service: time per stage, peak memory.

Each file is uploaded through the API (uvicorn, the streaming upload handler) and processed
by a real Celery worker (which reads it in the bounded extraction child), with the
``hashing`` embedding provider: the run measures everything but the model (upload, storage,
extraction, chunking, chunk rows, HNSW, full-text and trigram indexes). Stages are timed by
polling the asset's find response (``status`` and ``progress.stage``); peak RSS is sampled
per process (web, worker main process, pool process, extraction child) with psutil and
each process's VmHWM (tests/support/large_files.py). Afterwards a phrase written near the
end of the file must be found by ``GET /api/v1/assets/search``.

The local model's rate is measured on a slice of the same text (chunks/s, this process);
the local model's time for the whole file is PROJECTED from it: the measured hashing run
plus the chunk count times the difference of the per-chunk embedding times. ``--real-model``
runs the TXT once with ``EMBEDDING_PROVIDER=local`` (about an hour on 2 cores).

Runs on the bench's embedded stack (DATA_DIR, default .data/bench).
The two files are processed one after the other, each by its own web server and worker.
Usage: ``python bench/bench_large_files.py [--mb 100] [--only csv|txt] [--real-model]
[--real-model-only]`` (the latter: the local-model run of the TXT alone).
"""

from __future__ import annotations

import argparse
import json
import os
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

import logging  # noqa: E402

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402

from assets.models import Asset  # noqa: E402
from assets.processing import FileKind, chunk_segments, extract_segments  # noqa: E402
from assets.processing.embeddings import get_embedding_provider  # noqa: E402
from assets.services import asset_delete  # noqa: E402
from organizations.services import api_key_create, member_create, organization_create  # noqa: E402
from tests.conftest import database_url  # noqa: E402
from tests.support.large_files import (  # noqa: E402
    MemorySampler,
    ingest,
    write_csv_file,
    write_text_file,
)
from tests.support.live_stack import WebServer, Worker, running  # noqa: E402

logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per progress poll otherwise

MEMORY_TARGET_MB = 500
PHRASES = {
    "csv": "Quillfeather Brambleworth escrow ledger",
    "txt": "Zephyrine Oakenshaw retention covenant",
}
CONTENT_TYPES = {"csv": "text/csv", "txt": "text/plain"}
SLICE_CHUNKS = 512


def _unique(prefix: str) -> str:
    return f"{prefix}-{time.time_ns()}"


def prepare() -> tuple[Any, str]:
    call_command("migrate", verbosity=0)
    organization = organization_create(name="Bench large files", slug=_unique("bench-large"))
    membership = member_create(organization=organization, email=f"{_unique('large')}@bench.example")
    return organization, api_key_create(membership=membership, name="bench").raw_key


def environment(**extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": database_url(settings.DATABASES["default"]),
        "REDIS_URL": settings.REDIS_URL,
        "PYTHONUNBUFFERED": "1",
        "LOG_LEVEL": "WARNING",
        **extra,
    }


def run_service(
    files: dict[str, Path], key: str, workdir: Path, provider: str, timeout_seconds: int
) -> dict:
    """Each file through its own uvicorn + worker (so that each file's peaks are its own)."""
    env = environment(
        EMBEDDING_PROVIDER=provider, ASSET_PROCESSING_TIMEOUT_SECONDS=str(timeout_seconds)
    )

    def one(name: str, path: Path) -> dict[str, Any]:
        web = WebServer(env=env, log_path=workdir / f"web-{name}.log")
        worker = Worker(env=env, log_path=workdir / f"worker-{name}.log", name=f"large-{name}")
        with running(web.start(), worker.start()):
            assert web.process is not None and worker.process is not None
            with MemorySampler(web_pid=web.process.pid, worker_pid=worker.process.pid) as memory:
                ingestion = ingest(
                    base_url=web.base_url, key=key, path=path,
                    content_type=CONTENT_TYPES[name], phrase=PHRASES[name],
                    timeout=timeout_seconds + 600,
                )  # fmt: skip
        result = {
            "sizeMB": round(path.stat().st_size / 2**20, 1),
            **ingestion.summary(),
            "error": ingestion.asset.get("error"),
            "peakRssMB": memory.peaks,
            "processes": len(memory.processes),
        }
        print(f"bench: {name} {json.dumps(result)}", file=sys.stderr, flush=True)
        return result

    # One after the other: the stacks share the broker's ingestion queue, so a file could be
    # taken by the other file's worker, and stopping that worker hands the task back (seen
    # when they ran at once: the text file started again from the beginning).
    return {name: one(name, path) for name, path in files.items()}


def model_rates(text_path: Path) -> dict[str, Any]:
    """Chunks/s of the hashing and the local provider on the same slice of the text."""
    chunks = []
    for chunk in chunk_segments(
        extract_segments(text_path, FileKind.TXT),
        size=settings.CHUNK_SIZE,
        overlap=settings.CHUNK_OVERLAP,
    ):
        chunks.append(chunk.text)
        if len(chunks) >= SLICE_CHUNKS:
            break
    rates: dict[str, Any] = {"sliceChunks": len(chunks)}
    for name in ("hashing", "local"):
        try:
            provider = get_embedding_provider(name, dimensions=settings.EMBEDDING_DIMENSIONS)
        except Exception as error:  # the local extra is optional; say why it was skipped
            rates[name] = {"skipped": str(error)}
            continue
        provider.embed_documents(chunks[:8])  # warm-up (model load, first-call allocations)
        started = time.perf_counter()
        for start in range(0, len(chunks), 64):  # the worker's batch size
            provider.embed_documents(chunks[start : start + 64])
        seconds = time.perf_counter() - started
        rates[name] = {"chunksPerSecond": round(len(chunks) / seconds, 1)}
    return rates


def projected_local_seconds(measured: dict, rates: dict) -> float | None:
    """The hashing run's total plus the extra model time per chunk (a projection)."""
    local = rates.get("local", {}).get("chunksPerSecond")
    hashing = rates.get("hashing", {}).get("chunksPerSecond")
    if not local or not hashing or not measured.get("chunks"):
        return None
    extra_per_chunk = 1 / local - 1 / hashing
    return round(measured["totalSeconds"] + measured["chunks"] * extra_per_chunk, 0)


def summary_rows(results: dict, rates: dict, mb: int) -> list[dict]:
    rows = []
    for name, result in results.items():
        label = f"{mb} MB {name.upper()} through the service (API, worker; hashing)"
        peaks = result["peakRssMB"]
        rows.append({
            "metric": f"{label}: upload to COMPLETED, {result['chunks']} chunks, "
                      f"found by search: {result['found']}",
            "median": result["totalSeconds"], "p95": None, "unit": "s",
            "peakMemoryMB": max(peaks.values()), "target": f"every process < {MEMORY_TARGET_MB} MB",
        })  # fmt: skip
        stages = {"upload": result["uploadSeconds"], **result["stageSeconds"]}
        for stage, seconds in stages.items():
            rows.append({
                "metric": f"{label}: stage {stage}", "median": seconds, "p95": None,
                "unit": "s", "peakMemoryMB": None, "target": None,
            })  # fmt: skip
        for role, peak in sorted(peaks.items()):
            rows.append({
                "metric": f"{label}: peak RSS, {role} process", "median": peak, "p95": None,
                "unit": "MB", "peakMemoryMB": peak, "target": f"< {MEMORY_TARGET_MB} MB",
            })  # fmt: skip
        projected = projected_local_seconds(result, rates)
        if projected is not None:
            rows.append({
                "metric": f"{mb} MB {name.upper()} with the local model: PROJECTED from "
                          f"its rate on {rates['sliceChunks']} chunks "
                          f"({rates['local']['chunksPerSecond']} chunks/s), not measured",
                "median": projected, "p95": None, "unit": "s (projected)",
                "peakMemoryMB": None, "target": None,
            })  # fmt: skip
    for name, rate in rates.items():
        if isinstance(rate, dict) and "chunksPerSecond" in rate:
            rows.append({
                "metric": f"embedding rate, {name} provider, one process, batches of 64",
                "median": rate["chunksPerSecond"], "p95": None, "unit": "chunks/s",
                "peakMemoryMB": None, "target": None,
            })  # fmt: skip
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=int, default=100)
    parser.add_argument("--only", choices=sorted(PHRASES), action="append")
    parser.add_argument("--real-model", action="store_true", help="the TXT with the local model")
    parser.add_argument("--real-model-only", action="store_true", help="only the TXT, local model")
    # A bench measures how long a file takes, so it raises the base budget out of the way: the
    # default budget (assets/time_budget.py, 10,800 s at 100 MiB) is sized for an idle
    # machine, and a busy one needs more (~130 s/MiB with the local model).
    parser.add_argument("--processing-timeout", type=int, default=4 * 3600)
    args = parser.parse_args()
    # Just under the upload bound (ASSET_MAX_UPLOAD_BYTES, 100 MiB by default).
    size = min(args.mb * 2**20, settings.ASSET_MAX_UPLOAD_BYTES) - 4096
    organization, key = prepare()
    report: dict[str, Any] = {"cpuCount": os.cpu_count(), "sizeBytes": size}
    work_root = Path(settings.FILE_UPLOAD_TEMP_DIR)
    work_root.mkdir(parents=True, exist_ok=True)
    try:
        with tempfile.TemporaryDirectory(dir=work_root) as tmp:
            workdir = Path(tmp)
            files = {}
            for name in args.only or sorted(PHRASES):
                path = workdir / f"large-{name}.{name}"
                writer = write_csv_file if name == "csv" else write_text_file
                started = time.monotonic()
                writer(path, size_bytes=size, phrase=PHRASES[name])
                report[f"generate{name.upper()}Seconds"] = round(time.monotonic() - started, 1)
                files[name] = path
            report["modelRates"] = rates = model_rates(files.get("txt") or files["csv"])
            results = {}
            if not args.real_model_only:
                report["service"] = results = run_service(
                    files, key, workdir, "hashing", args.processing_timeout
                )
            for result in results.values():
                result["projectedLocalModelSeconds"] = projected_local_seconds(result, rates)
            if (args.real_model or args.real_model_only) and "txt" in files:
                for leftover in Asset.objects.filter(organization=organization):
                    asset_delete(asset=leftover)
                report["realModelTxt"] = run_service(
                    {"txt": files["txt"]}, key, workdir, "local", args.processing_timeout
                )["txt"]
    finally:
        for asset in Asset.objects.filter(organization=organization):
            asset_delete(asset=asset)
    report["summary"] = summary_rows(results, rates, args.mb)
    if "realModelTxt" in report:
        real = report["realModelTxt"]
        report["summary"].append({
            "metric": f"{args.mb} MB TXT through the service with the local model (measured)",
            "median": real["totalSeconds"], "p95": None, "unit": "s",
            "peakMemoryMB": max(real["peakRssMB"].values()), "target": None,
        })  # fmt: skip
    print(json.dumps(report))


if __name__ == "__main__":
    main()
