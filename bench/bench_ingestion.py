"""Ingestion throughput per format through the pipeline, and peak memory for a 100 MB CSV.

Prints JSON. Throughput is input MB/s for extract -> chunk (1000/150) -> embed (batches of
32), with the ``hashing`` provider (pipeline overhead) and ``local`` when installed. For the
100 MB CSV, the stages are timed separately and peak RSS is measured in a subprocess.
Last, a CSV goes through the service itself on the bench database (upload service, then
``asset_process``: storage, chunk rows and the HNSW insert). Prints one JSON object whose
``summary`` rows bench/run.py reports.
Usage: ``python bench/bench_ingestion.py [--csv-mb 100] [--no-local] [--db-csv-mb 5]``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CORPUS = Path(os.environ.get("CORPUS_DIR", ROOT / "tests" / "fixtures" / "corpus"))

from assets.processing import (  # noqa: E402 - after the sys.path tweak
    FileKind,
    chunk_segments,
    detect_file_type,
    extract_segments,
    process_file,
)
from assets.processing.embeddings import EmbeddingProvider, get_embedding_provider  # noqa: E402

MIN_SECONDS = 2.0


def write_csv(path: Path, megabytes: int) -> None:
    """Varied CSV rows (distinct ids and amounts) up to ``megabytes`` MiB."""
    target = megabytes * 1024 * 1024
    with path.open("w", encoding="utf-8") as handle:
        handle.write("id,customer,sector,amount,note\n")
        row = written = 0
        while written < target:
            block = "".join(
                f"{i},Customer {i * 7919 % 100003},Sector {i % 37},{i * 31 % 99991}.{i % 100},"
                f"contract clause {i % 613} reviewed by processor {i % 89}\n"
                for i in range(row, row + 10_000)
            )
            handle.write(block)
            written += len(block)
            row += 10_000


def write_text(path: Path, megabytes: int) -> None:
    """Prose built from the corpus' own text files, repeated to ``megabytes`` MiB."""
    prose = "\n\n".join(p.read_text(encoding="utf-8") for p in sorted((CORPUS / "txt").glob("*")))
    target = megabytes * 1024 * 1024
    with path.open("w", encoding="utf-8") as handle:
        written = 0
        while written < target:
            handle.write(prose)
            written += len(prose.encode("utf-8"))


def throughput(files: list[Path], embedder: EmbeddingProvider, max_seconds: float) -> dict:
    """Process ``files`` repeatedly for at least MIN_SECONDS (at most ``max_seconds``)."""
    kinds = [
        (p, detect_file_type(p, declared_name=p.name, declared_content_type=None)) for p in files
    ]
    processed_bytes = chunks = 0
    started = time.perf_counter()
    while True:
        for path, kind in kinds:
            for batch in process_file(
                path, kind, embedder=embedder, chunk_size=1000, chunk_overlap=150
            ):
                chunks += len(batch)
            processed_bytes += path.stat().st_size
            if time.perf_counter() - started > max_seconds:
                break
        elapsed = time.perf_counter() - started
        if elapsed >= MIN_SECONDS or elapsed > max_seconds:
            break
    return {
        "mb_per_second": round(processed_bytes / 2**20 / elapsed, 2),
        "chunks_per_second": round(chunks / elapsed, 1),
        "input_mb": round(processed_bytes / 2**20, 2),
    }


def csv_stages(path: Path) -> dict:
    """Seconds and MB/s for extract, extract+chunk, and the whole pipeline (hashing)."""
    size_mb = path.stat().st_size / 2**20
    result: dict[str, dict] = {}
    started = time.perf_counter()
    for _ in extract_segments(path, FileKind.CSV):
        pass
    result["extract"] = {"seconds": time.perf_counter() - started}
    started = time.perf_counter()
    for _ in chunk_segments(extract_segments(path, FileKind.CSV)):
        pass
    result["extract_chunk"] = {"seconds": time.perf_counter() - started}
    started = time.perf_counter()
    for _ in process_file(
        path,
        FileKind.CSV,
        embedder=get_embedding_provider("hashing"),
        chunk_size=1000,
        chunk_overlap=150,
    ):
        pass
    result["extract_chunk_embed_hashing"] = {"seconds": time.perf_counter() - started}
    for stage in result.values():
        stage["mb_per_second"] = round(size_mb / stage["seconds"], 1)
        stage["seconds"] = round(stage["seconds"], 2)
    return result


_PEAK_PROBE = """
import json, sys
from pathlib import Path

def rss_mb():
    # VmHWM, not ru_maxrss: Linux carries the parent's ru_maxrss across fork+exec.
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM")

from assets.processing import FileKind, process_file
from assets.processing.embeddings import get_embedding_provider
embedder = get_embedding_provider("hashing")
embedder.embed_documents(["warm up"])
base = rss_mb()
count = sum(len(b) for b in process_file(Path(sys.argv[1]), FileKind.CSV, embedder=embedder,
                                         chunk_size=1000, chunk_overlap=150))
peak = rss_mb()
print(json.dumps({"chunks": count, "rss_before_mb": round(base, 1), "peak_rss_mb": round(peak, 1)}))
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--csv-mb", type=int, default=100)
    parser.add_argument("--no-local", action="store_true")
    parser.add_argument("--db-csv-mb", type=int, default=5)
    parser.add_argument("--no-database", action="store_true")
    args = parser.parse_args()

    report: dict[str, object] = {"cpu_count": os.cpu_count()}
    providers = {"hashing": get_embedding_provider("hashing")}
    if not args.no_local:
        try:
            providers["local"] = get_embedding_provider("local")
        except Exception as error:  # the extra is optional; say why it was skipped
            report["local_skipped"] = str(error)

    with tempfile.TemporaryDirectory() as tmp:
        big_csv, big_txt = Path(tmp) / "big.csv", Path(tmp) / "big.txt"
        write_csv(big_csv, 20)
        write_text(big_txt, 20)
        formats: dict[str, list[Path]] = {
            folder: sorted(p for p in (CORPUS / folder).iterdir())
            for folder in ("pdf", "docx", "xlsx", "pptx", "html", "md")
        }
        formats["csv (20 MB generated)"] = [big_csv]
        formats["txt (20 MB of corpus prose)"] = [big_txt]
        for name, provider in providers.items():
            max_seconds = 30.0 if name == "hashing" else 60.0
            report[f"throughput_{name}"] = {
                fmt: throughput(files if name == "hashing" else files[:2], provider, max_seconds)
                for fmt, files in formats.items()
                if name == "hashing" or not fmt.startswith(("csv", "txt"))
            }

        csv_path = Path(tmp) / "large.csv"
        write_csv(csv_path, args.csv_mb)
        report[f"csv_{args.csv_mb}mb_stages"] = csv_stages(csv_path)
        probe = subprocess.run(
            [sys.executable, "-c", _PEAK_PROBE, str(csv_path)],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        )
        report[f"csv_{args.csv_mb}mb_memory"] = json.loads(probe.stdout)
        if not args.no_database:
            db_csv = Path(tmp) / "db.csv"
            write_csv(db_csv, args.db_csv_mb)
            report[f"service_csv_{args.db_csv_mb}mb"] = service_path(db_csv)
    report["bench_peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    report["summary"] = summary_rows(report, args.csv_mb, args.db_csv_mb)
    print(json.dumps(report))


def service_path(path: Path) -> dict:
    """The worker's own path on the bench database: upload service, then asset_process.

    Includes storing the file, writing chunks and vectors into the HNSW-indexed table.
    """
    os.environ.setdefault("DATA_DIR", str(ROOT / ".data" / "bench"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    os.environ["EMBEDDING_PROVIDER"] = "hashing"
    from config import local_stack

    # The embedded servers of DATA_DIR, when run without `make bench` (which did it already).
    local_stack.prepare(Path(os.environ["DATA_DIR"]))
    import django

    django.setup()
    from django.core.files.uploadedfile import TemporaryUploadedFile
    from django.core.management import call_command

    from assets.ingestion import asset_process
    from assets.services import asset_delete, asset_upload
    from organizations.models import Organization

    call_command("migrate", verbosity=0)
    organization, _ = Organization.objects.get_or_create(
        slug="bench-ingestion", defaults={"name": "Bench ingestion"}
    )
    for leftover in organization.assets.all():
        asset_delete(asset=leftover)
    upload = TemporaryUploadedFile(path.name, "text/csv", path.stat().st_size, None)
    with path.open("rb") as source:
        while block := source.read(1 << 20):
            upload.write(block)
    upload.flush()
    started = time.perf_counter()
    asset = asset_upload(organization=organization, uploader=None, uploaded=upload).asset
    uploaded = time.perf_counter()
    asset = asset_process(asset_id=asset.pk)
    finished = time.perf_counter()
    size_mb = path.stat().st_size / 2**20
    result = {
        "status": asset.status, "chunks": asset.chunk_count,
        "upload_seconds": round(uploaded - started, 2),
        "process_seconds": round(finished - uploaded, 2),
        "mb_per_second": round(size_mb / (finished - started), 2),
    }  # fmt: skip
    asset_delete(asset=asset)
    upload.close()  # its temporary file was moved into the storage; nothing left to delete
    return result


def summary_rows(report: dict, csv_mb: int, db_csv_mb: int) -> list[dict]:
    """The rows bench/run.py shows: throughput per format and provider, memory, service."""
    rows = []
    for provider in ("hashing", "local"):
        for fmt, numbers in (report.get(f"throughput_{provider}") or {}).items():
            rows.append({
                "metric": f"ingestion throughput {fmt}, {provider} provider",
                "median": numbers["mb_per_second"], "p95": None, "unit": "MB/s",
                "peakMemoryMB": None, "target": None,
            })  # fmt: skip
    memory = report.get(f"csv_{csv_mb}mb_memory") or {}
    stages = report.get(f"csv_{csv_mb}mb_stages") or {}
    whole = stages.get("extract_chunk_embed_hashing", {})
    # The pipeline's overhead is everything but the model: extraction and chunking.
    rows.append({
        "metric": f"{csv_mb} MB CSV, pipeline overhead (extract+chunk, no model)",
        "median": stages.get("extract_chunk", {}).get("mb_per_second"), "p95": None,
        "unit": "MB/s", "peakMemoryMB": None, "target": ">= 20 MB/s",
    })  # fmt: skip
    rows.append({
        "metric": f"{csv_mb} MB CSV, extract+chunk+embed (hashing), peak RSS",
        "median": whole.get("mb_per_second"), "p95": None, "unit": "MB/s",
        "peakMemoryMB": memory.get("peak_rss_mb"), "target": "peak < 500 MB",
    })  # fmt: skip
    service = report.get(f"service_csv_{db_csv_mb}mb")
    if service:
        rows.append({
            "metric": f"{db_csv_mb} MB CSV through the service (store, chunks + HNSW insert)",
            "median": service["mb_per_second"], "p95": None, "unit": "MB/s",
            "peakMemoryMB": None, "target": None,
        })  # fmt: skip
    return rows


if __name__ == "__main__":
    main()
