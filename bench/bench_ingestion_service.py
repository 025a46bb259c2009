"""Ingestion through the real service and real Celery workers, against the bare model.

On the bench's embedded stack (DATA_DIR, default .data/bench), with the local MiniLM model
(all-MiniLM-L6-v2 on onnxruntime; the default was MiniLM when this was measured). Each
round measures, in an order that alternates from round to round (the machine is shared:
drift and other people's load fall on every configuration alike; medians over the rounds
are reported):

- ``bare``: the model alone (the provider's ``embed_documents``, batches of 64, as many
  threads as cores) on the chunks of the same texts, in this process;
- each worker configuration of ``CONFIGURATIONS``: the workers are started (and ready, their
  model loaded), then several text assets are uploaded through the API (the DRF view, the
  upload service, the storage, the enqueue after commit) and the clock stops when the last
  one is COMPLETED in the database. Service chunks/s = chunks written / that time.

Rows: service/bare ratio (target >= 0.85) for one worker process; two worker processes
against one (target > 1); the threads pool, whose tasks share one model's batches, for
comparison; tokenization's share of the model's time (what moving it off the model's path
could gain at most). About 40 minutes on a busy 2-core machine. Usage:
``python bench/bench_ingestion_service.py [--rounds 3] [--assets 6] [--configurations ...]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATA_DIR", str(ROOT / ".data" / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
CORPUS = Path(os.environ.get("CORPUS_DIR", ROOT / "tests" / "fixtures" / "corpus"))

from config import local_stack  # noqa: E402

# The embedded servers of DATA_DIR, when run without `make bench` (which did it already).
local_stack.prepare(Path(os.environ["DATA_DIR"]))
os.environ["RATE_LIMIT_WRITES"] = "100000/min"
os.environ["EMBEDDING_PROVIDER"] = "local"
os.environ.setdefault("EMBEDDING_LOCAL_MODEL", "minilm")
os.environ.pop("EMBEDDING_THREADS", None)

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.files.uploadedfile import SimpleUploadedFile  # noqa: E402
from django.core.management import call_command  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from assets.models import Asset, AssetStatus  # noqa: E402
from assets.processing import Segment, chunk_segments  # noqa: E402
from assets.processing.embeddings.local import LocalEmbeddingProvider  # noqa: E402
from assets.services import asset_delete  # noqa: E402
from config.celery import app  # noqa: E402
from organizations.models import Membership, Plan  # noqa: E402
from organizations.services import api_key_create, member_create, organization_create  # noqa: E402

CORES = os.cpu_count() or 1
BENCH_EMAIL = "bench-ingestion-service@bench.example"


@dataclass(frozen=True)
class Worker:
    """One `celery worker` process on the ingestion queue."""

    pool: str
    concurrency: int
    model_threads: int | None  # EMBEDDING_THREADS; None: the worker's own choice


# What each configuration starts. `prefork1`: one worker, prefork pool, one process (one
# asset at a time, its model on all CORES threads). `prefork2`: one worker with two pool
# processes (a worker with concurrency 2: the worker gives each model CORES / 2 threads by
# itself). `one`: one worker process with the threads pool (two assets at once sharing one
# model's batches, CORES threads). `two`: two such processes, each model on CORES / 2
# threads (EMBEDDING_THREADS, as docs/DEPLOY.md says to set).
CONFIGURATIONS: dict[str, list[Worker]] = {
    "prefork1": [Worker("prefork", 1, None)],
    "prefork2": [Worker("prefork", 2, None)],
    "one": [Worker("threads", 2, None)],
    "two": [Worker("threads", 2, max(1, CORES // 2)), Worker("threads", 2, max(1, CORES // 2))],
}


def corpus_prose() -> str:
    return "\n\n".join(
        path.read_text(encoding="utf-8") for path in sorted((CORPUS / "txt").glob("*.txt"))
    )


def asset_texts(count: int, prose: str) -> list[str]:
    """``count`` distinct texts of 20 to 60 KB cut from the corpus prose (uneven sizes: the
    last batch of each asset is a short one)."""
    texts = []
    for index in range(count):
        size = (20 + 40 * index // max(1, count - 1)) * 1024
        start = (index * 7919) % max(1, len(prose) - size)
        body = (prose * (1 + size // max(1, len(prose)) + 1))[start : start + size]
        texts.append(body)
    return texts


def chunk_texts(texts: list[str]) -> list[str]:
    return [
        chunk.text
        for text in texts
        for chunk in chunk_segments(
            [Segment(text, None)], size=settings.CHUNK_SIZE, overlap=settings.CHUNK_OVERLAP
        )
    ]


def bare_model(chunks: list[str], model: LocalEmbeddingProvider) -> dict[str, Any]:
    started = time.perf_counter()
    size = model.preferred_batch_size  # the ingestion's batches (assets.ingestion)
    for start in range(0, len(chunks), size):
        model.embed_documents(chunks[start : start + size])
    seconds = time.perf_counter() - started
    tokenizing = time.perf_counter()
    model._tokenizer.encode_batch(chunks)  # the provider's own tokenizer, same settings
    tokenization_seconds = time.perf_counter() - tokenizing
    return {
        "chunks": len(chunks),
        "seconds": round(seconds, 2),
        "chunksPerSecond": round(len(chunks) / seconds, 2),
        "tokenizationShare": round(tokenization_seconds / seconds, 4),
    }


def start_workers(name: str, workers: list[Worker], log_dir: Path) -> list[subprocess.Popen]:
    processes = []
    hostnames = []
    for number, worker in enumerate(workers):
        environment = dict(os.environ)
        if worker.model_threads is not None:
            environment["EMBEDDING_THREADS"] = str(worker.model_threads)
        hostname = f"bench-{name}-{number}-{os.getpid()}@%h"
        hostnames.append(hostname.replace("%h", os.uname().nodename))
        log = (log_dir / f"worker-{name}-{number}.log").open("wb")
        command = [
            sys.executable, "-m", "celery", "-A", "config", "worker",
            "--queues", "ingestion", "--pool", worker.pool,
            "--concurrency", str(worker.concurrency), "--hostname", hostname,
            "--loglevel", "INFO", "--without-mingle", "--without-gossip",
        ]  # fmt: skip
        processes.append(
            subprocess.Popen(
                command, cwd=ROOT, env=environment, stdout=log, stderr=subprocess.STDOUT
            )
        )
    deadline = time.monotonic() + 180
    # A worker answers pings once its consumer runs: after the model is loaded (threads
    # pool) or while the pool processes load theirs (prefork: wait for the log lines).
    expected_loads = sum(w.concurrency if w.pool == "prefork" else 1 for w in workers)
    while True:
        answered = {name for reply in app.control.ping(timeout=0.5) for name in reply}
        loads = sum(
            (log_dir / f"worker-{name}-{n}.log")
            .read_text(errors="replace")
            .count("embedding model")
            for n in range(len(workers))
        )
        if set(hostnames) <= answered and loads >= expected_loads:
            return processes
        if time.monotonic() > deadline or any(p.poll() is not None for p in processes):
            stop_workers(processes)
            raise RuntimeError(f"workers of {name} did not start; see {log_dir}")
        time.sleep(0.2)


def peak_rss_mb(process: subprocess.Popen) -> float:
    """Peak resident memory of a worker and its pool processes (the largest one)."""
    peaks = []
    pids = [process.pid]
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children")
    if children.exists():
        pids += [int(pid) for pid in children.read_text().split()]
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peaks.append(int(line.split()[1]) / 1024)
        except FileNotFoundError:
            continue
    return round(max(peaks, default=0.0), 1)


def stop_workers(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            process.kill()


def through_service(
    name: str, workers: list[Worker], texts: list[str], client: APIClient, log_dir: Path
) -> dict[str, Any]:
    processes = start_workers(name, workers, log_dir)
    try:
        tag = uuid.uuid4().hex[:8]
        started = time.perf_counter()
        ids = []
        for index, text in enumerate(texts):
            content = f"Register {tag}-{index}\n\n{text}".encode()
            upload = SimpleUploadedFile(f"register-{index}.txt", content, "text/plain")
            response = client.post("/api/v1/assets/upload", {"file": upload}, format="multipart")
            if response.status_code != 201:
                raise RuntimeError(f"upload answered {response.status_code}: {response.content}")
            ids.append(response.json()["id"])
        deadline = time.monotonic() + 1800
        while Asset.objects.filter(
            pk__in=ids, status__in=[AssetStatus.UPLOADED, AssetStatus.PROCESSING]
        ).exists():
            if time.monotonic() > deadline:
                raise RuntimeError(f"{name}: assets still processing after 30 minutes")
            time.sleep(0.2)
        seconds = time.perf_counter() - started
        memory = max(peak_rss_mb(process) for process in processes)
    finally:
        stop_workers(processes)
    assets = list(Asset.objects.filter(pk__in=ids))
    failed = [asset.error_message for asset in assets if asset.status != AssetStatus.COMPLETED]
    if failed:
        raise RuntimeError(f"{name}: {len(failed)} assets failed: {failed[:3]}")
    chunks = sum(asset.chunk_count for asset in assets)
    for asset in assets:
        asset_delete(asset=asset)
    return {
        "chunks": chunks,
        "seconds": round(seconds, 2),
        "chunksPerSecond": round(chunks / seconds, 2),
        "peakWorkerMemoryMB": memory,
    }


def bench_client() -> APIClient:
    membership = Membership.objects.filter(user__email=BENCH_EMAIL).first()
    if membership is None:
        organization = organization_create(
            name="Bench ingestion service", slug=f"bench-ingest-{int(time.time())}",
            plan=Plan.BUSINESS,
        )  # fmt: skip
        membership = member_create(organization=organization, email=BENCH_EMAIL)
    for leftover in membership.organization.assets.all():  # of an interrupted run
        asset_delete(asset=leftover)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {api_key_create(membership=membership).raw_key}")
    return client


def median(values: list[float]) -> float:
    return round(statistics.median(values), 3)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--assets", type=int, default=6)
    parser.add_argument("--configurations", default=",".join(CONFIGURATIONS))
    args = parser.parse_args()
    selected = [name for name in args.configurations.split(",") if name]

    call_command("migrate", verbosity=0)
    app.control.purge()
    client = bench_client()
    log_dir = Path(settings.DATA_DIR) / "bench-ingestion-service"
    log_dir.mkdir(parents=True, exist_ok=True)
    texts = asset_texts(args.assets, corpus_prose())
    # What the service will embed: the same texts under their one-line header.
    chunks = chunk_texts([f"Register xxxxxxxx-{i}\n\n{text}" for i, text in enumerate(texts)])
    model = LocalEmbeddingProvider(threads=CORES)
    model.embed_documents(chunks[:8])  # warm up

    runs: list[dict[str, Any]] = []
    order = ["bare", *selected]
    for round_number in range(args.rounds):
        for name in order if round_number % 2 == 0 else list(reversed(order)):
            if name == "bare":
                result = bare_model(chunks, model)
            else:
                result = through_service(name, CONFIGURATIONS[name], texts, client, log_dir)
            runs.append({"round": round_number, "configuration": name, **result})
            print(json.dumps(runs[-1]), file=sys.stderr, flush=True)

    def rates(name: str) -> dict[int, float]:
        return {r["round"]: r["chunksPerSecond"] for r in runs if r["configuration"] == name}

    bare = rates("bare")
    report: dict[str, Any] = {
        "cores": CORES,
        "assets": args.assets,
        "chunks": len(chunks),
        "rounds": args.rounds,
        "configurations": {
            name: [worker.__dict__ for worker in CONFIGURATIONS[name]] for name in selected
        },
        "runs": runs,
        "medians": {name: median(list(rates(name).values())) for name in order},
    }
    ratios: dict[str, float] = {}
    for name in selected:
        per_round = [rate / bare[number] for number, rate in rates(name).items()]
        ratios[f"{name}/bare"] = median(per_round)
    if {"one", "two"} <= set(selected):
        one = rates("one")
        ratios["two/one"] = median([rate / one[n] for n, rate in rates("two").items()])
    if {"prefork1", "prefork2"} <= set(selected):
        single = rates("prefork1")
        ratios["prefork2/prefork1"] = median(
            [rate / single[n] for n, rate in rates("prefork2").items()]
        )
    if {"one", "prefork1"} <= set(selected):
        single = rates("prefork1")
        ratios["one/prefork1"] = median([rate / single[n] for n, rate in rates("one").items()])
    report["ratios"] = ratios
    report["tokenizationShare"] = median(
        [r["tokenizationShare"] for r in runs if r["configuration"] == "bare"]
    )
    report["summary"] = summary_rows(report)
    print(json.dumps(report))


def _row(metric: str, value: float, unit: str, *, memory: float | None = None,
         target: str | None = None) -> dict[str, Any]:  # fmt: skip
    return {"metric": metric, "median": value, "p95": None, "unit": unit,
            "peakMemoryMB": memory, "target": target}  # fmt: skip


def summary_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    medians, ratios = report["medians"], report["ratios"]

    def memory(name: str) -> float | None:
        values = [r["peakWorkerMemoryMB"] for r in report["runs"] if r["configuration"] == name]
        return max(values) if values else None

    rows = [
        _row(f"bare model chunks/s ({report['cores']} threads, batches of 64)",
             medians["bare"], "chunks/s"),
    ]  # fmt: skip
    labels = {
        "prefork1": "service end to end, 1 worker process (prefork x1, model 2 threads)",
        "prefork2": "service end to end, 2 worker processes (prefork x2, 1 thread each)",
        "one": "service end to end, 1 process, threads pool x2 sharing 1 model (2 threads)",
        "two": "service end to end, 2 processes, threads pool x2 each (1 thread each)",
    }
    for name, label in labels.items():
        if name in medians:
            rows.append(_row(label, medians[name], "chunks/s", memory=memory(name)))
    targets = {"prefork1/bare": ">= 0.85", "prefork2/prefork1": "> 1"}
    names = {
        "prefork1/bare": "service / bare model (1 worker process)",
        "prefork2/prefork1": "2 worker processes / 1 worker process (prefork x2 / x1)",
        "one/bare": "service / bare model (threads pool x2 sharing 1 model)",
        "one/prefork1": "threads pool x2 sharing 1 model / prefork x1",
        "two/one": "2 threads-pool processes / 1 threads-pool process",
    }
    for key, label in names.items():
        if key in ratios:
            rows.append(_row(label, ratios[key], "ratio", target=targets.get(key)))
    rows.append(
        _row("tokenization share of the model's time", report["tokenizationShare"], "ratio")
    )
    return rows


if __name__ == "__main__":
    main()
