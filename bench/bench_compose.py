"""Median time to compose each document type from full inputs (target: < 50 ms).

Run: .venv/bin/python bench/bench_compose.py [runs]. Prints JSON; never fails on a time.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gdpr.composition import completeness_report, compose
from gdpr.doctypes.registry import DOCUMENT_TYPES
from tests.legal_documents.samples import FULL_ANSWERS, FULL_INPUTS

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def main(runs: int = 50) -> dict[str, dict[str, float]]:
    """Median and max compose time (ms) per type, plus the completeness check's median."""
    results: dict[str, dict[str, float]] = {}
    for name, document_type in DOCUMENT_TYPES.items():
        compose_times, report_times = [], []
        for _ in range(runs):
            start = time.perf_counter()
            markdown = compose(
                document_type=document_type,
                inputs=FULL_INPUTS[name],
                answers=FULL_ANSWERS[name],
                now=NOW,
            )
            middle = time.perf_counter()
            completeness_report(document_type=document_type, markdown=markdown)
            end = time.perf_counter()
            compose_times.append((middle - start) * 1000)
            report_times.append((end - middle) * 1000)
        results[name] = {
            "composeMedianMs": round(statistics.median(compose_times), 3),
            "composeMaxMs": round(max(compose_times), 3),
            "reportMedianMs": round(statistics.median(report_times), 3),
        }
    return results


if __name__ == "__main__":
    run_count = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    per_type = main(run_count)
    summary = [
        {"metric": f"compose {name}", "median": values["composeMedianMs"], "unit": "ms",
         "target": "< 50 ms"}
        for name, values in per_type.items()
    ]  # fmt: skip
    print(json.dumps({"runs": run_count, "targetMs": 50, "types": per_type, "summary": summary}))
