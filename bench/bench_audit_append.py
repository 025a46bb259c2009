"""Cost of one audit append (`record_event`), the call on the path of every audited request.

Appends BENCH_AUDIT_EVENTS (default 2000) events to one organization's chain in autocommit,
as a request outside a transaction does, and reports the median and p95 per append; that
includes signing the chain's new head and upserting its checkpoint (audit.checkpoints)
in the same transaction. Interleaved with each append, what an append was before the
signing (`append_to_chain` without signing the head, in autocommit) is timed on another
organization's chain, so that both are measured under the same load.

Runs on the bench's embedded stack (DATA_DIR, default .data/bench). Never fails on a time.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATA_DIR", str(ROOT / ".data" / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from audit.services import Actor, append_to_chain, event_content, record_event  # noqa: E402
from organizations.models import Organization  # noqa: E402

EVENTS = int(os.environ.get("BENCH_AUDIT_EVENTS", "2000"))


def main() -> None:
    call_command("migrate", verbosity=0)
    organization = Organization.objects.create(
        name="Audit bench", slug=f"audit-bench-{time.time_ns()}"
    )
    actor = Actor(label="bench@example.com", ip="127.0.0.1")
    for number in range(50):  # warm up the connection and the function's plan
        record_event(organization=organization, actor=actor, action="bench.warmup",
                     object_id=number)  # fmt: skip
    appends, bare_appends = [], []
    bare_organization = Organization.objects.create(
        name="Audit bench (bare)", slug=f"audit-bench-bare-{time.time_ns()}"
    )
    for number in range(EVENTS):
        started = time.perf_counter()
        record_event(
            organization=organization, actor=actor, action="document.read",
            object_type="document", object_id=number, details={"view": "detail"},
        )  # fmt: skip
        appended = time.perf_counter()
        # The append without signing the head (the keyed link included), autocommit.
        content = event_content(
            organization_id=bare_organization.pk, actor=actor, action="document.read",
            outcome="allowed", object_type="document", object_id=number,
            details={"view": "detail"},
        )  # fmt: skip
        with connection.cursor() as cursor:
            append_to_chain(
                cursor, content=content, organization_id=bare_organization.pk, actor=actor
            )
        bare = time.perf_counter()
        appends.append((appended - started) * 1000)
        bare_appends.append((bare - appended) * 1000)
    print(json.dumps({"events": EVENTS, "summary": [
        _row("audit append with signed checkpoint (record_event)", appends),
        _row("audit append alone (before signing)", bare_appends),
    ]}))  # fmt: skip


def _row(metric: str, timings: list[float]) -> dict[str, object]:
    timings = sorted(timings)
    return {
        "metric": metric, "median": round(statistics.median(timings), 3),
        "p95": round(timings[int(len(timings) * 0.95)], 3), "unit": "ms",
        "peakMemoryMB": None, "target": None,
    }  # fmt: skip


if __name__ == "__main__":
    main()
