"""Issue 30, goal 3: the service behind an embedding server that is never the limit.

An OpenAI-compatible ``/v1/embeddings`` stub (bench/openai_embedding_stub.py, its own
process on a loopback port: it answers at once with precomputed unit vectors) stands for a
GPU server. Two measurements:

- **Service**: ``EMBEDDING_PROVIDER=openai`` with the stub's base URL; a large generated
  text file (tests/support/large_files.py, prose) is uploaded through the API (uvicorn, the
  streaming upload) and ingested by a real Celery worker through the real provider into the
  database, as bench/bench_large_files.py does; the clock runs from the upload to
  COMPLETED. Chunks/s of the service with a free model: its ratio to goal 1 (the storing
  rate with ``hashing``, bench/bench_storing.py) is what a GPU deployment gets of it.
- **Provider alone** against the stub: texts/s of ``embed_documents`` in calls of one
  ingestion batch (request batch x requests in flight), base64 against JSON floats, and
  LangChain's own ``embed_documents`` (one request at a time, the SDK's default format) as
  the provider was before. Rounds interleave the variants; medians are reported.

Sizes from the environment: FAST_EMBEDDER_MB (the text file, default 100, capped by
ASSET_MAX_UPLOAD_BYTES), FAST_EMBEDDER_FILES (files uploaded at once, default 1),
FAST_EMBEDDER_PROVIDER_TEXTS (texts per provider round, default 20480),
FAST_EMBEDDER_ROUNDS (provider rounds, default 5), EMBEDDING_REQUEST_BATCH_SIZE and
EMBEDDING_REQUESTS_IN_FLIGHT (256 and 4). Its own DATA_DIR (.data/bench-fast-embedder).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATA_DIR", str(ROOT / ".data" / "bench-fast-embedder"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
# A log line per request would be part of what the provider-alone rounds measure.
os.environ.setdefault("LOG_LEVEL", "WARNING")
# This process's settings as the web server's and the worker's (the base URL is the stub's,
# set for them once it listens): the active model is checked here before the run.
os.environ["EMBEDDING_PROVIDER"] = "openai"
os.environ["EMBEDDING_MODEL"] = "stub-embedder"

from config import local_stack  # noqa: E402

# The embedded servers of DATA_DIR, when run without `make bench` (which did it already).
local_stack.prepare(Path(os.environ["DATA_DIR"]))

import django  # noqa: E402

django.setup()

import logging  # noqa: E402

import httpx  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402

from assets.embedding import active_model  # noqa: E402
from assets.models import Asset  # noqa: E402
from assets.processing import FileKind, chunk_segments, extract_segments  # noqa: E402
from assets.processing.embeddings.openai_provider import OpenAIEmbeddingProvider  # noqa: E402
from assets.services import asset_delete  # noqa: E402
from organizations.services import api_key_create, member_create, organization_create  # noqa: E402
from tests.conftest import database_url  # noqa: E402
from tests.support.large_files import MemorySampler, ingest, write_text_file  # noqa: E402
from tests.support.live_stack import WebServer, Worker, running  # noqa: E402

logging.getLogger("httpx").setLevel(logging.WARNING)

MB = int(os.environ.get("FAST_EMBEDDER_MB", "100"))
FILES = int(os.environ.get("FAST_EMBEDDER_FILES", "1"))
PROVIDER_TEXTS = int(os.environ.get("FAST_EMBEDDER_PROVIDER_TEXTS", "20480"))
ROUNDS = int(os.environ.get("FAST_EMBEDDER_ROUNDS", "5"))
REQUEST_BATCH = settings.EMBEDDING_REQUEST_BATCH_SIZE
IN_FLIGHT = settings.EMBEDDING_REQUESTS_IN_FLIGHT
DIMENSIONS = settings.EMBEDDING_DIMENSIONS
PHRASE = "Isolde Quarrington embedding covenant"
MODEL = settings.EMBEDDING_MODEL


class StubProcess:
    """bench/openai_embedding_stub.py in its own process (not this one's GIL)."""

    def __enter__(self) -> StubProcess:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bench.openai_embedding_stub"],
            cwd=ROOT, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert self.process.stdout is not None
        port = int(self.process.stdout.readline().split()[1])
        self.root = f"http://127.0.0.1:{port}"
        self.base_url = f"{self.root}/v1"
        return self

    def stats(self) -> dict[str, Any]:
        return httpx.get(f"{self.root}/stats").json()

    def reset(self) -> None:
        httpx.get(f"{self.root}/reset")

    def __exit__(self, *exc: object) -> None:
        self.process.terminate()
        self.process.wait(10)


def sample_chunks(path: Path, count: int) -> list[str]:
    """The first ``count`` chunks of the generated file, as the worker cuts them."""
    chunks: list[str] = []
    for chunk in chunk_segments(
        extract_segments(path, FileKind.TXT), size=settings.CHUNK_SIZE,
        overlap=settings.CHUNK_OVERLAP,
    ):  # fmt: skip
        chunks.append(chunk.text)
        if len(chunks) >= count:
            break
    return chunks


def provider_rates(stub: StubProcess, chunks: list[str]) -> dict[str, Any]:
    """Texts/s of the provider alone against the stub, per variant, interleaved rounds."""
    from langchain_openai import OpenAIEmbeddings

    common = {"dimensions": DIMENSIONS, "model": MODEL, "base_url": stub.base_url,
              "api_key": "bench", "max_retries": 0}  # fmt: skip
    base64_provider = OpenAIEmbeddingProvider(**common)
    float_provider = OpenAIEmbeddingProvider(**common, encoding_format="float")
    one_in_flight = OpenAIEmbeddingProvider(**common, requests_in_flight=1)
    langchain = OpenAIEmbeddings(
        model=MODEL, dimensions=DIMENSIONS, base_url=stub.base_url, api_key="bench",  # type: ignore[arg-type]
        max_retries=0, check_embedding_ctx_length=False, chunk_size=REQUEST_BATCH,
    )  # fmt: skip
    call = base64_provider.preferred_batch_size  # one ingestion batch per call
    variants = {
        "base64": base64_provider.embed_documents,
        "float": float_provider.embed_documents,
        "base64OneInFlight": one_in_flight.embed_documents,
        "langchainSequential": langchain.embed_documents,
    }
    texts = (chunks * (1 + PROVIDER_TEXTS // max(1, len(chunks))))[:PROVIDER_TEXTS]
    for embed in variants.values():  # warm-up: connections, the stub's encoded pool
        embed(texts[:call])
    rates: dict[str, list[float]] = {name: [] for name in variants}
    formats: dict[str, Any] = {}
    order = list(variants)
    for number in range(ROUNDS):
        for name in order if number % 2 == 0 else reversed(order):
            stub.reset()
            started = time.perf_counter()
            for start in range(0, len(texts), call):
                vectors = variants[name](texts[start : start + call])
                assert len(vectors) == len(texts[start : start + call])
            rates[name].append(len(texts) / (time.perf_counter() - started))
            formats[name] = stub.stats()
            print(f"bench: provider {name} round {number}: {rates[name][-1]:.0f} texts/s",
                  file=sys.stderr, flush=True)  # fmt: skip
    return {
        "textsPerRound": len(texts),
        "textsPerCall": call,
        "rounds": ROUNDS,
        "textsPerSecond": {name: [round(r, 1) for r in values] for name, values in rates.items()},
        "medianTextsPerSecond": {
            name: round(statistics.median(values), 1) for name, values in rates.items()
        },
        "stubSaw": formats,
    }


def service(stub: StubProcess, files: list[Path], key: str, workdir: Path) -> dict[str, Any]:
    """The files through uvicorn and one worker with the openai provider on the stub."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url(settings.DATABASES["default"]),
        "REDIS_URL": settings.REDIS_URL,
        "PYTHONUNBUFFERED": "1",
        "LOG_LEVEL": "WARNING",
        "EMBEDDING_PROVIDER": "openai",
        "EMBEDDING_BASE_URL": stub.base_url,
        "EMBEDDING_API_KEY": "bench",
        "EMBEDDING_MODEL": MODEL,
        "ASSET_PROCESSING_TIMEOUT_SECONDS": str(4 * 3600),
        "RATE_LIMIT_READS": "100000/min",
        "RATE_LIMIT_WRITES": "100000/min",
    }
    web = WebServer(env=env, log_path=workdir / "web.log")
    worker = Worker(
        env=env, log_path=workdir / "worker.log", name="fast-embedder",
        concurrency=max(1, len(files)),
    )  # fmt: skip
    if active_model() != "openai":  # the database holds chunks of another model
        raise RuntimeError(
            f"the chunks in this database are embedded with {active_model()}: ingestion "
            "would not use the openai provider; run on an empty DATA_DIR"
        )
    stub.reset()
    with running(web.start(), worker.start()):
        assert web.process is not None and worker.process is not None
        with MemorySampler(web_pid=web.process.pid, worker_pid=worker.process.pid) as memory:
            started = time.monotonic()
            with ThreadPoolExecutor(max_workers=len(files)) as pool:
                ingestions = list(
                    pool.map(
                        lambda path: ingest(
                            base_url=web.base_url, key=key, path=path,
                            content_type="text/plain", phrase=PHRASE, timeout=4 * 3600,
                        ),
                        files,
                    )
                )  # fmt: skip
            seconds = time.monotonic() - started
    summaries = [ingestion.summary() for ingestion in ingestions]
    failed = [s for s in summaries if s["status"] != "COMPLETED"]
    if failed:
        raise RuntimeError(f"ingestion failed: {[i.asset.get('error') for i in ingestions]}")
    chunks = sum(s["chunks"] for s in summaries)
    if stub.stats()["texts"] < chunks:
        raise RuntimeError(f"the stub embedded fewer texts than {chunks} chunks: {stub.stats()}")
    # Each file's own processing time (from being taken by the worker to COMPLETED).
    processing = [sum(v for k, v in s["stageSeconds"].items() if k != "queued") for s in summaries]
    return {
        "files": len(files),
        "sizeMB": round(sum(path.stat().st_size for path in files) / 2**20, 1),
        "chunks": chunks,
        "seconds": round(seconds, 2),
        "chunksPerSecond": round(chunks / seconds, 1),
        "processingChunksPerSecond": round(chunks / max(processing), 1),
        "ingestions": summaries,
        "peakRssMB": memory.peaks,
        "stubSaw": stub.stats(),
    }


def summary_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    def row(metric: str, value: float | None, unit: str, *, memory: float | None = None,
            target: str | None = None) -> dict[str, Any]:  # fmt: skip
        return {"metric": metric, "median": value, "p95": None, "unit": unit,
                "peakMemoryMB": memory, "target": target}  # fmt: skip

    rows = []
    shape = f"requests of {REQUEST_BATCH} texts, {IN_FLIGHT} in flight"
    measured = report.get("service")
    if measured:
        saw = measured["stubSaw"]
        tenths_per_file = [i["chunksPerSecond"] for i in measured["ingestions"]]
        rows.append(row(
            f"goal 3: service chunks/s with a free model ({measured['sizeMB']} MB text in "
            f"{measured['files']} file(s), {measured['chunks']} chunks, upload to COMPLETED "
            f"through uvicorn, 1 Celery worker, openai provider on a stub server in its "
            f"own process; {shape}; the stub saw {saw['requests']} requests, largest "
            f"{saw['largestRequest']}, at most {saw['mostInFlight']} in flight)",
            measured["chunksPerSecond"], "chunks/s", memory=max(measured["peakRssMB"].values()),
            target="ratio to goal 1 (bench_storing chunks/s): computed by the lead",
        ))  # fmt: skip
        rows.append(row(
            "goal 3: the same, worker's processing only (taken by the worker to COMPLETED)",
            measured["processingChunksPerSecond"], "chunks/s",
        ))  # fmt: skip
        for number, tenths in enumerate(tenths_per_file):
            rows.append(row(f"goal 3: file {number + 1} stored chunks/s, first tenth",
                            tenths["firstTenth"], "chunks/s"))  # fmt: skip
            rows.append(row(f"goal 3: file {number + 1} stored chunks/s, last tenth",
                            tenths["lastTenth"], "chunks/s"))  # fmt: skip
    alone = report["provider"]
    medians = alone["medianTextsPerSecond"]
    labels = {
        "base64": f"openai provider alone against the stub, base64 vectors, {shape}",
        "float": f"openai provider alone against the stub, JSON floats, {shape}",
        "base64OneInFlight": (
            f"openai provider alone against the stub, base64 vectors, requests of "
            f"{REQUEST_BATCH} texts, 1 in flight"
        ),
        "langchainSequential": (
            f"LangChain embed_documents alone (the provider before issue 30: one request of "
            f"{REQUEST_BATCH} at a time, the SDK's implicit base64)"
        ),
    }
    for name, label in labels.items():
        rows.append(row(f"{label}; calls of {alone['textsPerCall']} texts, median of "
                        f"{alone['rounds']} rounds", medians[name], "texts/s"))  # fmt: skip
    rows.append(row("openai provider alone: base64 / JSON floats",
                    round(medians["base64"] / medians["float"], 2), "ratio"))  # fmt: skip
    rows.append(row("openai provider alone, base64: requests/s",
                    round(medians["base64"] / REQUEST_BATCH, 1), "requests/s"))  # fmt: skip
    rows.append(row("openai provider alone, JSON floats: requests/s",
                    round(medians["float"] / REQUEST_BATCH, 1), "requests/s"))  # fmt: skip
    return rows


def main() -> None:
    call_command("migrate", verbosity=0)
    # FAST_EMBEDDER_MB=0: the provider alone (on the chunks of a 1 MB file), no service run.
    size = min(max(MB, 1) * 2**20, settings.ASSET_MAX_UPLOAD_BYTES) - 4096
    report: dict[str, Any] = {
        "cpuCount": os.cpu_count(), "sizeBytesPerFile": size, "requestBatchSize": REQUEST_BATCH,
        "requestsInFlight": IN_FLIGHT, "dimensions": DIMENSIONS,
    }  # fmt: skip
    work_root = Path(settings.FILE_UPLOAD_TEMP_DIR)
    work_root.mkdir(parents=True, exist_ok=True)
    stamp = time.time_ns()
    organization = organization_create(name="Bench fast embedder", slug=f"bench-fast-{stamp}")
    membership = member_create(organization=organization, email=f"fast-{stamp}@bench.example")
    key = api_key_create(membership=membership, name="bench").raw_key
    try:
        with tempfile.TemporaryDirectory(dir=work_root) as tmp, StubProcess() as stub:
            workdir = Path(tmp)
            files = []
            for number in range(FILES):
                path = workdir / f"fast-embedder-{number}.txt"
                write_text_file(path, size_bytes=size, phrase=PHRASE, seed=30 + number)
                files.append(path)
            report["provider"] = provider_rates(stub, sample_chunks(files[0], 4096))
            if MB > 0:
                report["service"] = service(stub, files, key, workdir)
    finally:
        for asset in Asset.objects.filter(organization=organization):
            asset_delete(asset=asset)
    report["summary"] = summary_rows(report)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
