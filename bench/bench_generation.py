"""Create-to-completed latency through a real Celery worker, with the template provider.

Runs on the bench's embedded stack (DATA_DIR, default .data/bench): migrates, creates an
organization and a member, starts one Celery worker, then creates documents one after the
other and waits for each to complete. Target: median under 1 s.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATA_DIR", str(ROOT / ".data" / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

from config import local_stack  # noqa: E402

# The embedded servers of DATA_DIR, when run without `make bench` (which did it already).
local_stack.prepare(Path(os.environ["DATA_DIR"]))
os.environ["RATE_LIMIT_WRITES"] = "100000/min"

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

from audit.services import Actor  # noqa: E402
from legal_documents.models import LegalDocument, Status  # noqa: E402
from legal_documents.services.documents import legal_document_create  # noqa: E402
from organizations.models import Membership  # noqa: E402
from organizations.services import member_create, organization_create  # noqa: E402
from tests.legal_documents.samples import FULL_INPUTS  # noqa: E402

RUNS = int(os.environ.get("BENCH_GENERATION_RUNS", "30"))


def main() -> None:
    call_command("migrate", verbosity=0)
    membership = Membership.objects.filter(user__email="bench@bench.example").first()
    if membership is None:
        organization = organization_create(name="Bench", slug=f"bench-{int(time.time())}")
        membership = member_create(organization=organization, email="bench@bench.example")
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--concurrency", "2",
         "--queues", "generation", "--loglevel", "WARNING", "--without-mingle", "--without-gossip"],
        cwd=ROOT, env=os.environ.copy(),
    )  # fmt: skip
    try:
        from config.celery import app

        while not app.control.ping(timeout=0.5):
            time.sleep(0.2)
        latencies = []
        for _ in range(RUNS):
            started = time.monotonic()
            document = legal_document_create(
                membership=membership, document_type="DPIA", inputs=FULL_INPUTS["DPIA"],
                actor=Actor(label="bench"),
            )  # fmt: skip
            while True:
                status = LegalDocument.objects.filter(pk=document.pk).values_list(
                    "status", flat=True
                )[0]
                if status != Status.PROCESSING:
                    break
                time.sleep(0.005)
            latencies.append(time.monotonic() - started)
            assert status == Status.COMPLETED, status
    finally:
        worker.terminate()
        worker.wait(30)
    latencies.sort()
    median = statistics.median(latencies)
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    print(json.dumps({
        "runs": RUNS,
        "createToCompletedMedianSeconds": round(median, 4),
        "createToCompletedP95Seconds": round(p95, 4),
        "summary": [{
            "metric": "create-to-completed (template provider, real worker)",
            "median": round(median, 3), "p95": round(p95, 3), "unit": "s", "target": "< 1 s",
        }],
    }))  # fmt: skip


if __name__ == "__main__":
    main()
