"""Large files through the real service: bounded memory in every process, progress, search.

A 20 MB CSV and a 20 MB text file are uploaded at once through the API (uvicorn, the
streaming upload handler) and processed by a real Celery worker (two pool processes, each
reading its file in the bounded extraction child). While they run, the peak RSS of every
process is sampled (tests/support/large_files.py); the find response must show the
progress moving, and a phrase written near the end of each file must then be found by
``GET /api/v1/assets/search``. bench/bench_large_files.py runs the same at 100 MB.

Chunks of 8,000 characters (CHUNK_SIZE) keep the test within minutes: the chunk count, not
the file size, sets the time spent in the vector index; the bytes streamed through every
stage are the same.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.conftest import Caller
from tests.support.large_files import (
    Ingestion,
    MemorySampler,
    ingest,
    write_csv_file,
    write_text_file,
)
from tests.support.live_stack import running, tail

pytestmark = [pytest.mark.load, pytest.mark.timeout(420)]

SIZE_BYTES = 20 * 1024 * 1024
# Large chunks keep the test within minutes on a busy machine (see the module docstring).
CHUNK_SIZE = 8000
MEMORY_LIMIT_MB = 500
FILES = {
    "csv": ("text/csv", write_csv_file, "Quillfeather Brambleworth escrow ledger"),
    "txt": ("text/plain", write_text_file, "Zephyrine Oakenshaw retention covenant"),
}


def test_large_csv_and_text_files_stay_in_bounded_memory_show_progress_and_are_searchable(
    stack, member: Caller, tmp_path: Path
):
    paths = {}
    for name, (_, writer, phrase) in FILES.items():
        paths[name] = tmp_path / f"register.{name}"
        writer(paths[name], size_bytes=SIZE_BYTES, phrase=phrase)
    settings = {"CHUNK_SIZE": str(CHUNK_SIZE), "CHUNK_OVERLAP": "200"}
    web = stack.web(**settings).start()
    worker = stack.worker(queues="ingestion", **settings).start()

    with running(web, worker):
        assert web.process is not None and worker.process is not None
        with (
            MemorySampler(web_pid=web.process.pid, worker_pid=worker.process.pid) as memory,
            ThreadPoolExecutor(max_workers=len(FILES)) as pool,
        ):
            futures = {
                name: pool.submit(
                    ingest,
                    base_url=web.base_url,
                    key=member.key,
                    path=paths[name],
                    content_type=content_type,
                    phrase=phrase,
                    timeout=360,
                )
                for name, (content_type, _, phrase) in FILES.items()
            }
            results: dict[str, Ingestion] = {name: f.result() for name, f in futures.items()}
        logs = tail(worker.log_path)

    summaries = {name: result.summary() for name, result in results.items()}
    print({"peakRssMB": memory.peaks, **summaries})
    for name, result in results.items():
        assert result.status == "COMPLETED", (name, result.asset, logs)
        assert result.chunk_count > SIZE_BYTES // CHUNK_SIZE, summaries[name]
        # The progress moved: several chunk counts and percentages while PROCESSING.
        assert len(result.distinct_chunks_done) >= 3, summaries[name]
        assert len(result.distinct_percents) >= 3, summaries[name]
        assert {"extracting", "embedding"} & set(result.stage_seconds), summaries[name]
        assert result.found, (name, summaries[name])
    # Every process was seen (the extraction child lives only while it reads a file), and
    # none went past the bound.
    assert {"web", "worker", "pool", "extraction"} <= set(memory.peaks), memory.peaks
    assert max(memory.peaks.values()) < MEMORY_LIMIT_MB, memory.peaks
