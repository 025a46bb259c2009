"""A bounded load scenario: many concurrent clients creating, polling and listing documents
and uploading assets, against a server on loopback. Shared by the load test (short) and
`make bench` (the issue's full two minutes).

Each client is one user with its own API key. It loops until the deadline: create a
document, upload a small asset now and then, poll what it created, list. 429 answers are
expected (10 writes per minute per user, 5 concurrent generations per organization) and
counted apart. Every request is bounded by a timeout; nothing but loopback is contacted.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx

# Reads have a budget of 300 per minute per user: a client pauses ~0.25 s between requests.
PAUSE_SECONDS = 0.25
REQUEST_TIMEOUT_SECONDS = 30


@dataclass
class LoadReport:
    seconds: float = 0.0
    statuses: Counter = field(default_factory=Counter)
    by_kind: dict[str, Counter] = field(default_factory=dict)
    latencies: dict[str, list[float]] = field(default_factory=dict)
    server_errors: list[str] = field(default_factory=list)
    transport_errors: list[str] = field(default_factory=list)
    created_documents: list[str] = field(default_factory=list)
    created_assets: list[str] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, kind: str, response: httpx.Response, seconds: float) -> None:
        with self._lock:
            self.statuses[response.status_code] += 1
            self.by_kind.setdefault(kind, Counter())[response.status_code] += 1
            self.latencies.setdefault(kind, []).append(seconds)
            if response.status_code >= 500:
                self.server_errors.append(f"{kind} {response.status_code} {response.text[:300]}")

    @property
    def requests(self) -> int:
        return sum(self.statuses.values())

    def summary(self) -> dict[str, Any]:
        def percentile(values: list[float], fraction: float) -> float:
            ordered = sorted(values)
            return round(ordered[int(fraction * (len(ordered) - 1))] * 1000, 1) if ordered else 0

        return {
            "seconds": round(self.seconds, 1),
            "requests": self.requests,
            "requestsPerSecond": round(self.requests / self.seconds, 1) if self.seconds else 0,
            "statuses": {str(code): count for code, count in sorted(self.statuses.items())},
            "byKind": {
                kind: {str(code): count for code, count in sorted(counts.items())}
                for kind, counts in self.by_kind.items()
            },
            "latencyMs": {
                kind: {"median": percentile(values, 0.5), "p95": percentile(values, 0.95)}
                for kind, values in self.latencies.items()
            },
            "createdDocuments": len(self.created_documents),
            "createdAssets": len(self.created_assets),
            "serverErrors": len(self.server_errors),
            "transportErrors": len(self.transport_errors),
        }


def _client_loop(
    *,
    base_url: str,
    key: str,
    deadline: float,
    create_body: dict[str, Any],
    upload: bool,
    report: LoadReport,
    seed: int,
) -> None:
    chooser = random.Random(seed)
    mine: list[str] = []
    with httpx.Client(
        base_url=base_url,
        headers={"Authorization": f"Bearer {key}"},
        timeout=REQUEST_TIMEOUT_SECONDS,
    ) as client:

        def call(kind: str, method: str, path: str, **kwargs: Any) -> httpx.Response | None:
            started = time.monotonic()
            try:
                response = client.request(method, path, **kwargs)
            except httpx.HTTPError as error:
                with report._lock:
                    report.transport_errors.append(f"{kind}: {type(error).__name__}: {error}")
                return None
            report.record(kind, response, time.monotonic() - started)
            return response

        # Spread the clients' first writes over the first seconds.
        time.sleep(chooser.uniform(0, 2))
        next_write = time.monotonic()
        while time.monotonic() < deadline:
            if time.monotonic() >= next_write:
                if upload and chooser.random() < 0.3:
                    content = f"Retention schedule {seed}-{chooser.random()}\n".encode() * 20
                    response = call(
                        "upload", "POST", "/api/v1/assets/upload",
                        files={"file": (f"policy-{seed}.txt", content, "text/plain")},
                    )  # fmt: skip
                    if response is not None and response.status_code == 201:
                        with report._lock:
                            report.created_assets.append(response.json()["id"])
                else:
                    response = call("create", "POST", "/api/v1/legal-documents", json=create_body)
                    if response is not None and response.status_code == 201:
                        mine.append(response.json()["id"])
                        with report._lock:
                            report.created_documents.append(response.json()["id"])
                # 10 writes per minute: one every ~6 s, with some clients trying early.
                next_write = time.monotonic() + chooser.uniform(4, 8)
            elif mine and chooser.random() < 0.6:
                document_id = chooser.choice(mine)
                response = call("poll", "GET", f"/api/v1/legal-documents/{document_id}")
                finished = (
                    response is not None
                    and response.status_code == 200
                    and (response.json()["status"] != "processing")
                )
                if finished:
                    mine.remove(document_id)
            else:
                call("list", "GET", "/api/v1/legal-documents", params={"limit": 20})
            time.sleep(PAUSE_SECONDS)


def run_load(
    *,
    base_url: str,
    keys: list[str],
    seconds: float,
    create_body: dict[str, Any],
    upload: bool = True,
) -> LoadReport:
    """One client thread per key for `seconds`; returns what every request answered."""
    report = LoadReport()
    started = time.monotonic()
    deadline = started + seconds
    threads = [
        threading.Thread(
            target=_client_loop,
            kwargs={
                "base_url": base_url,
                "key": key,
                "deadline": deadline,
                "create_body": create_body,
                "upload": upload,
                "report": report,
                "seed": index,
            },
            daemon=True,
        )
        for index, key in enumerate(keys)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + REQUEST_TIMEOUT_SECONDS + 30)
    report.seconds = time.monotonic() - started
    return report


def unfinished_work(report: LoadReport) -> tuple[list[str], list[str]]:
    """Documents still `processing` and assets not yet COMPLETED or FAILED (ORM, caller's
    database)."""
    from assets.models import Asset, AssetStatus
    from legal_documents.models import LegalDocument, Status

    documents = LegalDocument.objects.filter(
        pk__in=report.created_documents, status=Status.PROCESSING
    ).values_list("pk", flat=True)
    assets = Asset.objects.filter(
        pk__in=report.created_assets, status__in=[AssetStatus.UPLOADED, AssetStatus.PROCESSING]
    ).values_list("pk", flat=True)
    return [str(pk) for pk in documents], [str(pk) for pk in assets]


def outcomes(report: LoadReport) -> dict[str, dict[str, int]]:
    """How the created documents and assets ended, by status."""
    from django.db.models import Count

    from assets.models import Asset
    from legal_documents.models import LegalDocument

    def count(queryset) -> dict[str, int]:  # type: ignore[no-untyped-def]
        return {
            row["status"]: row["n"] for row in queryset.values("status").annotate(n=Count("pk"))
        }

    return {
        "documents": count(LegalDocument.objects.filter(pk__in=report.created_documents)),
        "assets": count(Asset.objects.filter(pk__in=report.created_assets)),
    }
