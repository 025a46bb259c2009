"""Benchmark of the record's XLSX export on a large whole-register record (issue 25, item 5).

    .venv/bin/python bench/bench_xlsx_export.py [--runs 3] [--activities 50 200 800]
        [--root PATH]

Builds whole-register records of processing activities (a level-2 section per activity
holding the Art. 30(1)(b)-(g) items, as `gdpr.composition.register` writes them) and times
`activity_rows` (reading the rows out of the Markdown) and the whole `render_xlsx`, each
`--runs` times after a warm-up. `--root` imports the code from another checkout, so the
same bench measures before and after a change (issue 25: the section lookup scanned every
section per item block, `item_blocks` sliced the headings per anchored heading, and the
writer asked openpyxl's `max_row`, a scan of every cell, per row: all three quadratic in
the activities). 50 activities are about the content cap (DOCUMENT_MAX_CONTENT_CHARS,
100,000 characters); larger sizes are what a refresh could write before the cap held
there. Prints JSON. Timing is a benchmark, never a test assertion (docs/MEASUREMENTS.md,
"Benchmarks").
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

REPOSITORY_ROOT = Path(__file__).resolve().parents[1]
ITEMS = ("b-purposes", "purpose-basis", "c-categories", "special-categories", "d-recipients",
         "e-transfers", "f-erasure", "g-security")  # fmt: skip
_TEXT = (
    "Employees and applicants; name, address, bank details, salary, tax class. Disclosed to"
    " the payroll processor and the tax office; kept ten years after the end of the year."
)


def build_markdown(activities: int) -> str:
    parts = ["# Record of processing activities", "", "## 1. Controller", "",
             "### (a) Controller {#a-controller}", "", "Acme GmbH, Berlin", ""]  # fmt: skip
    for number in range(activities):
        parts += [f"## {number + 2}. Processing activity: Activity {number} (Art. 30(1))", ""]
        for item in ITEMS:
            parts += [f"### {item} {{#{item}}}", "", f"{_TEXT} ({item}, activity {number})", ""]
    return "\n".join(parts)


def _timed(call: Callable[[], object], runs: int) -> float:
    call()
    durations = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        durations.append(time.perf_counter() - started)
    return round(statistics.median(durations), 4)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--activities", type=int, nargs="+", default=[50, 200, 800])
    parser.add_argument("--root", type=Path, default=REPOSITORY_ROOT)
    arguments = parser.parse_args()
    sys.path.insert(0, str(arguments.root.resolve()))
    from legal_documents.exports import ExportMeta, xlsx

    meta = ExportMeta(
        organization_name="Acme GmbH", document_title="Record of Processing Activities",
        document_type="RECORD_OF_PROCESSING", version=3, stage="final",
        created_at=datetime(2025, 1, 6, 9, 30, tzinfo=UTC),
        updated_at=datetime(2025, 3, 14, 16, 5, tzinfo=UTC),
        content_sha256="3f" * 32, ruleset_version="2025.1",
    )  # fmt: skip
    sizes = []
    for activities in arguments.activities:
        markdown = build_markdown(activities)
        runs = arguments.runs
        sizes.append({
            "activities": activities, "markdown_chars": len(markdown),
            "rows_seconds": _timed(lambda text=markdown: xlsx.activity_rows(text, "R"), runs),
            "xlsx_seconds": _timed(lambda text=markdown: xlsx.render_xlsx(text, meta), runs),
        })  # fmt: skip
    summary = [
        {"metric": f"XLSX export, {row['activities']} activities ({row['markdown_chars']:,} chars)",
         "median": row["xlsx_seconds"], "p95": None, "unit": "s", "peakMemoryMB": None,
         "target": None}
        for row in sizes
    ]  # fmt: skip
    print(json.dumps({"root": str(arguments.root), "runs": arguments.runs, "sizes": sizes,
                      "summary": summary}))  # fmt: skip


if __name__ == "__main__":
    main()
