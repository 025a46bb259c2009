"""Benchmark of the register consistency report (GET /api/v1/compliance/register-report,
the admin's report and start page) on a large register (issue 25, item 6).

    python -m config.launcher bench register_report
    # or on a running stack, before/after a change (--root imports another checkout):
    .venv/bin/python bench/bench_register_report.py [--activities 200] [--documents 50]
        [--runs 10] [--root PATH]

Seeds one organization with `--activities` processing activities (special categories, some
without an Art. 9(2) condition, unclassified data categories, consent, DPIA screening
answers), 20 vendors, 20 transfers and `--documents` documents (privacy policies and DPIAs
naming every activity, a few breach notifications), then times, `--runs` times after a
warm-up: the report computed from scratch (`compliance.report.register_report`: what every
GET did before), and when the checkout has `compliance.report_cache`, a GET's report after a
register write (cache miss: stamp, compute, store) and an unchanged register's (cache hit:
stamp, read). Queries per report are counted. Runs on the bench's embedded stack (DATA_DIR,
default .data/bench). Prints JSON; never fails on a time. Django's settings put the
working directory first on the import path: run a `--root` other than this checkout from a
neutral directory (e.g. `cd /tmp && python /path/to/bench/bench_register_report.py ...`).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

BENCH_ROOT = Path(__file__).resolve().parents[1]
_RETENTION = "Kept {years} years after the end of the contract, then erased"


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--activities", type=int, default=200)
    parser.add_argument("--documents", type=int, default=50)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--root", type=Path, default=BENCH_ROOT)
    return parser.parse_args()


def _seed(organization: Any, activities: int, documents: int) -> None:
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from legal_documents.models import LegalDocument
    from register.models import ProcessingActivity, Transfer, Vendor

    vendors = Vendor.objects.bulk_create(
        Vendor(organization=organization, name=f"Vendor {n}", country=("Germany", "US")[n % 2],
               role="processor", dpa_status=("signed", "none")[n % 3 == 0])
        for n in range(20)
    )  # fmt: skip
    rows = ProcessingActivity.objects.bulk_create(
        ProcessingActivity(
            organization=organization, name=f"Activity {n}", purposes=[f"Purpose {n}"],
            legal_bases=[("Art. 6(1)(b) contract", "Art. 6(1)(a) consent")[n % 2]],
            data_subjects=["Employees", "Customers"],
            data_categories=["Name", "Bank details", f"Custom notes {n}"],
            special_categories=["Health data"] if n % 5 == 0 else [],
            art9_conditions=[] if n % 10 == 0 else ["Art. 9(2)(b) employment law"],
            retention=[{"category": "Records", "period": _RETENTION.format(years=n % 10 + 1)}],
            dpia_screening={"systematicMonitoring": n % 7 == 0, "largeScale": n % 7 == 0},
            consent_withdrawal="" if n % 4 == 1 else "Unsubscribe link",
            next_review_date=timezone.now().date() + timedelta(days=(n % 30) - 10),
        )
        for n in range(activities)
    )  # fmt: skip
    Transfer.objects.bulk_create(
        Transfer(organization=organization, activity=rows[n], vendor=vendors[n],
                 recipient=f"Recipient {n}", country=("India", "Japan")[n % 2],
                 mechanism="" if n % 3 == 0 else "scc")
        for n in range(20)
    )  # fmt: skip
    named = {str(row.pk): 1 for row in rows}
    name = f"bench-{time.time_ns()}@example.com"
    creator = get_user_model().objects.create(username=name, email=name)
    stated = "\n".join(_RETENTION.format(years=n % 10 + 1) for n in range(0, activities, 3))
    types = ["PRIVACY_POLICY", "DPIA"] * documents
    LegalDocument.objects.bulk_create(
        LegalDocument(
            organization=organization, document_type=types[n] if n % 10 else "BREACH_NOTIFICATION",
            creator=creator, ruleset_version="bench", status="completed", stage="draft", version=1,
            register_sources={"activities": named},
            inputs={"companyName": "Acme",
                    "discoveredAt": (timezone.now() - timedelta(hours=n)).isoformat()},
            content_markdown=f"# Document {n}\n\n{stated}\n",
        )
        for n in range(documents)
    )  # fmt: skip


def _timed(call: Callable[[], object], runs: int, before: Callable[[], object]) -> list[float]:
    call()
    durations = []
    for _ in range(runs):
        before()
        started = time.perf_counter()
        call()
        durations.append((time.perf_counter() - started) * 1000)
    return durations


def _row(metric: str, durations: list[float], queries: int) -> dict[str, Any]:
    durations = sorted(durations)
    return {
        "metric": metric, "median": round(statistics.median(durations), 1),
        "p95": round(durations[min(len(durations) - 1, round(0.95 * (len(durations) - 1)))], 1),
        "unit": "ms", "queries": queries, "peakMemoryMB": None, "target": None,
    }  # fmt: skip


def main() -> None:
    arguments = _arguments()
    sys.path.insert(0, str(arguments.root.resolve()))
    os.environ.setdefault("DATA_DIR", str(BENCH_ROOT / ".data" / "bench"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.db.models import F
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from compliance.report import register_report
    from organizations.models import Organization
    from register.models import Vendor

    call_command("migrate", verbosity=0)
    organization = Organization.objects.create(
        name="Report bench", slug=f"report-bench-{time.time_ns()}"
    )
    _seed(organization, arguments.activities, arguments.documents)
    pk = organization.pk

    def count(call: Callable[[], object]) -> int:
        with CaptureQueriesContext(connection) as queries:
            call()
        return len(queries.captured_queries)

    def write() -> None:  # a register write: the revision moves, as the services do
        Vendor.objects.filter(organization_id=pk, name="Vendor 0").update(
            revision=F("revision") + 1
        )

    def nothing() -> None:
        return None

    def uncached() -> object:
        return register_report(organization_id=pk, now=timezone.now())

    items = len(register_report(organization_id=pk, now=timezone.now()))
    summary = [_row("report computed on every GET (register_report)",
                    _timed(uncached, arguments.runs, nothing), count(uncached))]  # fmt: skip
    try:
        from compliance.report_cache import cached_register_report
    except ImportError:
        cached_register_report = None
    if cached_register_report is not None:

        def cached() -> object:
            return cached_register_report(organization_id=pk, now=timezone.now())

        missed = _timed(cached, arguments.runs, write)
        write()
        summary.append(_row("GET after a register write (cache miss)", missed, count(cached)))
        summary.append(_row("GET, register unchanged (cache hit)",
                            _timed(cached, arguments.runs, nothing), count(cached)))  # fmt: skip
    print(json.dumps({
        "root": str(arguments.root), "activities": arguments.activities,
        "documents": arguments.documents, "items": items, "runs": arguments.runs,
        "summary": summary,
    }))  # fmt: skip


if __name__ == "__main__":
    main()
