"""Files built to exhaust a worker's memory, through the real upload path and a real worker.

A 5 KB spreadsheet declared from A1 to XFD1048576 (pandas padded every row to 16,384
columns: gigabytes), a Word table cell spanning 2^31 columns (python-docx built a 2^31-entry
tuple), and a document whose XML tree outgrows the extraction's memory bound. Each ends in
a settled state with its text or a clear error code; the worker keeps its pid, logs no lost
pool process, and processes an ordinary file afterwards. A worker lost while reading a file
(killed, as the kernel's out-of-memory killer would) does not hand the file to the next
one: the asset is FAILED.

The workers run under an address-space limit of their own, so that a regression shows as a
failed test, never as a machine out of memory.
"""

from __future__ import annotations

import contextlib
import os
import signal
from contextlib import closing
from pathlib import Path

from assets.models import Asset, AssetChunk
from tests.assets.bombs import (
    corner_cells_xlsx,
    grid_span_bomb_docx,
    paragraph_flood_docx,
    wide_first_row_xlsx,
)
from tests.reliability.conftest import api_client
from tests.reliability.test_hostile_uploads import upload
from tests.support.live_stack import tail, wait_until

WORKER_ADDRESS_SPACE = 4 * 1024**3
SETTLE_SECONDS = 180


def start_stack(stack, member, **worker_environment: str):  # type: ignore[no-untyped-def]
    web = stack.web(RATE_LIMIT_WRITES="1000/min").start()
    worker = stack.worker(queues="ingestion", **worker_environment)
    worker.address_space_limit = WORKER_ADDRESS_SPACE
    worker.start()
    return web, worker, api_client(web, member, timeout=120)


def settled(asset_id: str, worker, *, timeout: float = SETTLE_SECONDS) -> Asset:  # type: ignore[no-untyped-def]
    def done() -> Asset | None:
        asset = Asset.objects.get(pk=asset_id)
        return asset if asset.status in {"COMPLETED", "FAILED"} else None

    try:
        return wait_until(done, timeout=timeout, interval=0.5)  # type: ignore[return-value]
    except TimeoutError:
        status = Asset.objects.get(pk=asset_id).status
        raise AssertionError((status, tail(worker.log_path))) from None


def uploaded(client, name: str, content: bytes) -> str:  # type: ignore[no-untyped-def]
    response = upload(client, name, content)
    assert response.status_code == 201, (name, response.text)
    return response.json()["id"]


def text_of(asset_id: str) -> str:
    return "\n".join(AssetChunk.objects.filter(asset_id=asset_id).values_list("text", flat=True))


def assert_worker_lived_and_still_works(client, worker, main_pid: int) -> None:  # type: ignore[no-untyped-def]
    assert worker.process.poll() is None and worker.process.pid == main_pid
    log = worker.log_path.read_text(errors="replace")
    assert "WorkerLostError" not in log and "exited with 'signal" not in log, tail(worker.log_path)
    ordinary = uploaded(client, "ordinary.txt", b"Data is kept for six years.\n" * 50)
    assert settled(ordinary, worker, timeout=60).status == "COMPLETED", tail(worker.log_path)


def test_spreadsheet_and_word_table_bombs_are_read_as_their_few_cells(stack, member):
    _web, worker, client = start_stack(stack, member, ASSET_XLSX_MAX_CELLS_PER_SHEET="3000")
    main_pid = worker.process.pid
    with closing(client):
        corners = uploaded(client, "corners.xlsx", corner_cells_xlsx())
        wide = uploaded(client, "wide.xlsx", wide_first_row_xlsx(rows=2000))
        span = uploaded(client, "span.docx", grid_span_bomb_docx())
        too_many = uploaded(client, "too-many.xlsx", wide_first_row_xlsx(rows=5000))

        for asset_id in (corners, wide, span):
            asset = settled(asset_id, worker)
            assert asset.status == "COMPLETED", (asset.error_code, asset.error_message)
        assert "first corner,\n,last corner" in text_of(corners)
        assert "far right heading" in text_of(wide) and "bottom row" in text_of(wide)
        assert "Spanning sub-processor | Oslo" in text_of(span)

        refused = settled(too_many, worker)
        assert refused.status == "FAILED"
        assert refused.error_code == "CONVERSION_FAILED"
        assert refused.error_details == {"originalFormat": "xlsx", "targetFormat": "csv"}
        assert "more than 3,000 non-empty cells" in refused.error_message

        assert_worker_lived_and_still_works(client, worker, main_pid)


def test_a_file_beyond_the_extraction_memory_bound_fails_and_the_worker_lives(stack, member):
    _web, worker, client = start_stack(stack, member, ASSET_EXTRACTION_MEMORY_LIMIT_MB="192")
    main_pid = worker.process.pid
    with closing(client):
        hog = uploaded(client, "flood.docx", paragraph_flood_docx(300_000))

        asset = settled(hog, worker)

        assert asset.status == "FAILED", tail(worker.log_path)
        assert asset.error_code == "EXTRACTION_FAILED"
        assert "more than 192 MiB of memory" in asset.error_message
        assert_worker_lived_and_still_works(client, worker, main_pid)


def extraction_children() -> set[int]:
    """Pids of the extraction child processes (assets/processing/isolation.py) running."""
    pids = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            command = (entry / "cmdline").read_bytes().split(b"\0")
            if b"assets.processing.isolation" in command:
                pids.add(int(entry.name))
    return pids


def test_a_worker_lost_while_reading_a_file_does_not_hand_it_to_the_next_one(stack, member):
    # The default processing timeout (30 minutes): the redelivered task fails the asset at
    # once, without waiting for the lost attempt's take-over.
    _web, worker, client = start_stack(stack, member)
    main_pid = worker.process.pid
    before = extraction_children()
    with closing(client):
        # Slow enough to read (seconds) for the kill to land while it is being read.
        asset_id = uploaded(client, "flood.docx", paragraph_flood_docx(300_000))
        wait_until(
            lambda: Asset.objects.get(pk=asset_id).processing_stage == "extracting",
            timeout=60,
            interval=0.05,
        )
        wait_until(lambda: extraction_children() - before, timeout=30, interval=0.05)
        for pid in worker.pool_pids():  # what the out-of-memory killer does to a pool process
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        # The extraction child dies with its parent: nothing keeps reading the file.
        wait_until(lambda: not extraction_children() - before, timeout=10)

        asset = settled(asset_id, worker)

        assert asset.status == "FAILED", tail(worker.log_path)
        assert asset.error_code == "EXTRACTION_FAILED"
        assert "stopped while reading it" in asset.error_message
        assert asset.attempts == 1
        assert worker.process.poll() is None and worker.process.pid == main_pid
        ordinary = uploaded(client, "ordinary.txt", b"Data is kept for six years.\n" * 50)
        assert settled(ordinary, worker, timeout=60).status == "COMPLETED"
