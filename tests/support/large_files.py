"""Large uploads through the live service: generated files, memory sampling, one ingestion.

Used by tests/reliability/test_large_files.py (20-30 MB) and bench/bench_large_files.py
(100 MB). The files are varied prose (or CSV rows carrying such prose), never one block
repeated, so full-text and trigram indexes see realistic text; a unique phrase is written
near the end, and finding it by ``GET /api/v1/assets/search`` proves the whole file was
ingested. Memory is sampled per process (the web server, the worker's main process, its
pool processes, the extraction child) with psutil, together with each process's own peak
(``VmHWM``), which sampling alone could miss between two samples.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psutil

# --- Generated text -----------------------------------------------------------------------

_SUBJECTS = (
    "The controller", "The processor", "Each sub-processor", "The data protection officer",
    "The supervisory authority", "The joint controller", "The hosting provider",
    "The customer", "The data subject", "The marketing team", "The payroll service",
    "The recipient", "Our legal department", "The auditor", "The security team",
)  # fmt: skip
_VERBS = (
    "shall notify", "reviews", "documents", "restricts", "encrypts", "retains", "deletes",
    "transfers", "pseudonymises", "logs", "assesses", "approves", "archives", "reports",
    "anonymises", "limits", "monitors", "verifies", "records", "erases",
)  # fmt: skip
_OBJECTS = (
    "personal data", "health records", "payroll files", "customer invoices",
    "access logs", "contact details", "backup copies", "consent records",
    "employee evaluations", "video recordings", "location data", "support tickets",
    "newsletter subscriptions", "biometric templates", "credit card numbers",
    "delivery addresses", "cookie identifiers", "complaint letters", "tax declarations",
)  # fmt: skip
_CONDITIONS = (
    "within 72 hours of becoming aware of a breach", "before any transfer outside the EEA",
    "after the retention period of {n} months", "at least once a year",
    "on written request of the data subject", "unless a legal obligation applies",
    "under Article {a} of the GDPR", "as agreed in annex {n}", "without undue delay",
    "in accordance with clause {n}.{m}", "for the purposes listed in section {n}",
    "following the instructions of {person}", "at the {city} data centre",
    "by {day} {month} {year}", "with a budget of EUR {amount}",
)  # fmt: skip
PEOPLE = (
    "Anna Kowalski", "Jean Dupont", "Maria Garcia", "Lukas Meier", "Sofia Rossi",
    "Pieter de Vries", "Ingrid Olsen", "Tomasz Nowak", "Claire Martin", "Hans Becker",
    "Elena Popescu", "Miguel Santos", "Eva Novak", "Oskar Lindqvist", "Nadia Haddad",
)  # fmt: skip
CITIES = (
    "Berlin", "Paris", "Madrid", "Warsaw", "Amsterdam", "Milan", "Vienna", "Lisbon",
    "Dublin", "Prague", "Copenhagen", "Brussels", "Zurich", "Helsinki", "Lyon",
)  # fmt: skip
_MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August",
    "September", "October", "November", "December",
)  # fmt: skip


def sentence(rng: Any) -> str:
    """One sentence of contract or register prose with varied names, numbers and dates."""
    condition = rng.choice(_CONDITIONS).format(
        n=rng.randint(1, 99), m=rng.randint(1, 20), a=rng.randint(5, 99),
        person=rng.choice(PEOPLE), city=rng.choice(CITIES), day=rng.randint(1, 28),
        month=rng.choice(_MONTHS), year=rng.randint(2018, 2030),
        amount=f"{rng.randint(1, 999)},{rng.randint(0, 999):03d}",
    )  # fmt: skip
    return f"{rng.choice(_SUBJECTS)} {rng.choice(_VERBS)} {rng.choice(_OBJECTS)} {condition}."


def sentence_pool(rng: Any, size: int = 20_000) -> list[str]:
    """Distinct-enough sentences to draw from (building each sentence anew is slower)."""
    return [sentence(rng) for _ in range(size)]


def paragraph(rng: Any, pool: list[str], sentences: int) -> str:
    return " ".join(pool[rng.randrange(len(pool))] for _ in range(sentences))


def write_text_file(path: Path, *, size_bytes: int, phrase: str, seed: int = 1) -> None:
    """Paragraphs of generated prose up to about ``size_bytes``; ``phrase`` in the last 1 %."""
    import random

    rng = random.Random(seed)
    pool = sentence_pool(rng)
    phrase_at = int(size_bytes * 0.99)
    written = 0
    placed = False
    with path.open("w", encoding="utf-8") as handle:
        while written < size_bytes:
            block = "\n\n".join(paragraph(rng, pool, rng.randint(3, 9)) for _ in range(200))
            block += "\n\n"
            if not placed and written + len(block) >= phrase_at:
                # First in the block: the end of the last block may be cut off.
                block = f"Special retention note: {phrase}.\n\n" + block
                placed = True
            block = block[: max(0, size_bytes - written)]
            handle.write(block)
            written += len(block.encode("utf-8"))
    if not placed:
        raise ValueError("size too small to place the phrase")


def write_csv_file(path: Path, *, size_bytes: int, phrase: str, seed: int = 2) -> None:
    """A register as CSV (id, name, city, date, amount, note) up to about ``size_bytes``."""
    import random

    rng = random.Random(seed)
    pool = sentence_pool(rng)
    phrase_at = int(size_bytes * 0.99)
    row = written = 0
    placed = False
    with path.open("w", encoding="utf-8") as handle:
        header = "id,name,city,date,amount,note\n"
        handle.write(header)
        written += len(header)
        while written < size_bytes:
            lines = []
            for _ in range(2000):
                row += 1
                note = paragraph(rng, pool, rng.randint(1, 3)).replace('"', "")
                lines.append(
                    f"{row},{rng.choice(PEOPLE)},{rng.choice(CITIES)},"
                    f"{rng.randint(2018, 2030)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d},"
                    f'{rng.randint(1, 99999)}.{rng.randint(0, 99):02d},"{note}"\n'
                )
            if not placed and written + sum(map(len, lines)) >= phrase_at:
                # First in the block: the end of the last block may be cut off.
                lines.insert(0, f'0,Special,Note,2030-01-01,0.00,"{phrase}"\n')
                placed = True
            block = "".join(lines)
            if written + len(block) > size_bytes and placed:
                # Cut at a line end, so that the last row stays whole.
                block = block[: block.rfind("\n", 0, max(1, size_bytes - written)) + 1]
            if not block:
                break
            handle.write(block)
            written += len(block.encode("utf-8"))
    if not placed:
        raise ValueError("size too small to place the phrase")


# --- Memory sampling ----------------------------------------------------------------------

EXTRACTION_MODULE = "assets.processing.isolation"


def _peak_rss_mb(process: psutil.Process) -> float:
    """The process's peak resident set so far (VmHWM), else its current RSS."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        status = Path(f"/proc/{process.pid}/status").read_text()
        return int(status.split("VmHWM:", 1)[1].split()[0]) / 1024
    return process.memory_info().rss / 2**20


@dataclass
class MemorySampler:
    """Samples the peak RSS of a web server and a worker with all their children.

    Roles: ``web`` (the uvicorn process and any child), ``worker`` (the Celery main
    process), ``pool`` (its pool processes), ``extraction`` (the bounded extraction child,
    started per file). ``peaks[role]`` is the highest peak of any process of that role.
    """

    web_pid: int
    worker_pid: int
    interval: float = 0.1
    peaks: dict[str, float] = field(default_factory=dict)
    processes: dict[int, str] = field(default_factory=dict)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def _role(self, process: psutil.Process, root_role: str) -> str:
        if root_role == "web":
            return "web"
        if process.pid == self.worker_pid:
            return "worker"
        with contextlib.suppress(psutil.Error):
            if EXTRACTION_MODULE in " ".join(process.cmdline()):
                return "extraction"
        return "pool"

    def sample(self) -> None:
        for root_pid, root_role in ((self.web_pid, "web"), (self.worker_pid, "worker")):
            try:
                root = psutil.Process(root_pid)
                family = [root, *root.children(recursive=True)]
            except psutil.Error:
                continue
            for process in family:
                try:
                    role = self._role(process, root_role)
                    peak = _peak_rss_mb(process)
                except psutil.Error:
                    continue
                self.processes[process.pid] = role
                self.peaks[role] = round(max(self.peaks.get(role, 0.0), peak), 1)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.sample()
            self._stop.wait(self.interval)

    def __enter__(self) -> MemorySampler:
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        self.sample()


# --- One ingestion through the API ----------------------------------------------------------


@dataclass
class Ingestion:
    """What one upload went through, as the API showed it."""

    asset_id: str = ""
    status: str = ""
    upload_seconds: float = 0.0
    # Seconds spent in each state/stage seen by polling the find response, in order:
    # "queued" (UPLOADED), then the progress stages, until COMPLETED or FAILED.
    stage_seconds: dict[str, float] = field(default_factory=dict)
    total_seconds: float = 0.0
    chunk_count: int = 0
    progress_seen: list[dict[str, Any]] = field(default_factory=list)
    progress_times: list[float] = field(default_factory=list)  # seconds since the upload
    search_seconds: float = 0.0
    found: bool = False
    asset: dict[str, Any] = field(default_factory=dict)

    @property
    def distinct_chunks_done(self) -> set[int]:
        return {p["chunksDone"] for p in self.progress_seen if p}

    @property
    def distinct_percents(self) -> set[int]:
        return {p["percent"] for p in self.progress_seen if p and p["percent"] is not None}

    def chunk_rates(self) -> dict[str, float | None]:
        """Chunks/s stored over the first and the last tenth of the chunks (a rate that
        falls as the asset grows would show a cost growing with the chunks already there)."""
        points = [
            (seconds, progress["chunksDone"])
            for seconds, progress in zip(self.progress_times, self.progress_seen, strict=True)
            if progress["chunksDone"]
        ]
        if len(points) < 4 or not self.chunk_count:
            return {"firstTenth": None, "lastTenth": None}

        def rate(low: float, high: float) -> float | None:
            inside = [p for p in points if low <= p[1] <= high]
            if len(inside) < 2 or inside[-1][0] == inside[0][0]:
                return None
            return round((inside[-1][1] - inside[0][1]) / (inside[-1][0] - inside[0][0]), 1)

        tenth = self.chunk_count / 10
        return {
            "firstTenth": rate(0, tenth),
            "lastTenth": rate(self.chunk_count - tenth, self.chunk_count),
        }

    def summary(self) -> dict[str, Any]:
        return {
            "assetId": self.asset_id, "status": self.status, "chunks": self.chunk_count,
            "uploadSeconds": round(self.upload_seconds, 2),
            "stageSeconds": {k: round(v, 2) for k, v in self.stage_seconds.items()},
            "totalSeconds": round(self.total_seconds, 2),
            "progressSamples": len(self.progress_seen),
            "distinctChunksDone": len(self.distinct_chunks_done),
            "distinctPercents": sorted(self.distinct_percents),
            "searchSeconds": round(self.search_seconds, 3), "found": self.found,
            "chunksPerSecond": self.chunk_rates(),
        }  # fmt: skip


BOUNDARY = "large-file-boundary-5b1f0c"


def _multipart_head(path: Path, content_type: str) -> bytes:
    return (
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="{path.name}"\r\n'
        f"Content-Type: {content_type}\r\n\r\n"
    ).encode()


_MULTIPART_TAIL = f"\r\n--{BOUNDARY}--\r\n".encode()


def _multipart(path: Path, content_type: str) -> Iterator[bytes]:
    """The multipart body, streamed from disk (the client never holds the whole file)."""
    yield _multipart_head(path, content_type)
    with path.open("rb") as source:
        while block := source.read(1 << 20):
            yield block
    yield _MULTIPART_TAIL


def ingest(
    *,
    base_url: str,
    key: str,
    path: Path,
    content_type: str,
    phrase: str,
    timeout: float,
    poll_interval: float = 0.5,
) -> Ingestion:
    """Upload ``path`` through the API, follow its progress to the end, search ``phrase``."""
    result = Ingestion()
    headers = {"Authorization": f"Bearer {key}"}
    body_size = len(_multipart_head(path, content_type)) + len(_MULTIPART_TAIL)
    with httpx.Client(base_url=base_url, headers=headers, timeout=timeout) as client:
        started = time.monotonic()
        response = client.post(
            "/api/v1/assets/upload",
            content=_multipart(path, content_type),
            headers={
                "Content-Type": f"multipart/form-data; boundary={BOUNDARY}",
                "Content-Length": str(body_size + path.stat().st_size),
            },
        )
        result.upload_seconds = time.monotonic() - started
        if response.status_code != 201:
            raise AssertionError(f"upload answered {response.status_code}: {response.text[:500]}")
        result.asset_id = response.json()["id"]
        state, state_started = "queued", time.monotonic()
        deadline = started + timeout
        while True:
            found = client.get(f"/api/v1/assets/{result.asset_id}")
            now = time.monotonic()
            if found.status_code == 429:  # the reads budget of the key (RATE_LIMIT_READS)
                time.sleep(float(found.headers.get("Retry-After") or 1))
                continue
            if found.status_code != 200:
                raise AssertionError(f"find answered {found.status_code}: {found.text[:300]}")
            asset = found.json()
            progress = asset.get("progress")
            if asset["status"] == "PROCESSING" and progress:
                result.progress_seen.append(progress)
                result.progress_times.append(now - started)
            current = (
                progress["stage"]
                if asset["status"] == "PROCESSING" and progress
                else {"UPLOADED": "queued"}.get(asset["status"], asset["status"])
            )
            if current != state:
                result.stage_seconds[state] = (
                    result.stage_seconds.get(state, 0.0) + now - state_started
                )
                state, state_started = current, now
            if asset["status"] in ("COMPLETED", "FAILED"):
                break
            if now > deadline:
                raise TimeoutError(f"asset still {asset['status']} after {timeout} s: {progress}")
            time.sleep(poll_interval)
        result.total_seconds = time.monotonic() - started
        result.status = asset["status"]
        result.chunk_count = asset.get("chunkCount") or 0
        result.asset = asset
        if result.status == "COMPLETED":
            searched = time.monotonic()
            answer = client.get("/api/v1/assets/search", params={"q": phrase, "k": 5})
            result.search_seconds = time.monotonic() - searched
            answer.raise_for_status()
            result.found = any(
                hit["assetId"] == result.asset_id and phrase.split()[0] in hit["text"]
                for hit in answer.json()["results"]
            )
    return result
