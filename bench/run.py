"""`make bench`: run every benchmark, write bench/results/latest.json and latest.md.

Each benchmark is a script printing one JSON object on its last stdout line(s). It may carry
a `summary` list of rows `{metric, median, p95, unit, peakMemoryMB, target}`; the Markdown
report shows those rows (and the raw JSON keeps everything). A benchmark that fails is
reported as failed; the others still run.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
RESULTS_DIR = BENCH_DIR / "results"

# (name, script, timeout in seconds)
BENCHMARKS: list[tuple[str, str, int]] = [
    ("compose", "bench_compose.py", 300),
    ("generation", "bench_generation.py", 600),
    ("pdf_export", "bench_pdf_export.py", 600),
    ("xlsx_export", "bench_xlsx_export.py", 900),
    ("register_report", "bench_register_report.py", 900),
    ("ingestion", "bench_ingestion.py", 1800),
    # 100 MB CSV + TXT through uvicorn and workers: about 40 min on a busy 2-core machine.
    ("large_files", "bench_large_files.py", 3 * 3600),
    ("search", "bench_search.py", 1800),
    # 1,000,000 chunks over 100 organizations (issue 30, goal 2): COPY load, per-organization
    # indexes and one global graph built, searched: about an hour on 2 cores.
    ("search_tenants", "bench_search_tenants.py", 3 * 3600),
    ("highlight", "bench_highlight.py", 300),
    ("api_throughput", "bench_api.py", 900),
    ("audit_append", "bench_audit_append.py", 300),
    ("extraction_isolation", "bench_extraction_isolation.py", 1200),
    ("embeddings_multilingual", "bench_embeddings_multilingual.py", 900),
    ("ingestion_service", "bench_ingestion_service.py", 3600),
    # Crafted register-import files, read and planned (no database): seconds after the bounds.
    ("register_import", "bench_register_import.py", 1800),
    # The tabular work as it is against the same work with pandas (issue 26 item 10): minutes.
    ("tabular_pandas", "bench_tabular_pandas.py", 1800),
    # A 150 KB DPA uploaded, ingested (hashing) and reviewed 5 times (issue 28): minutes.
    ("review", "bench_review.py", 1800),
    # 1,000,000 chunks stored from an empty table, 100 organizations (issue 30 goal 1): the
    # goal is 17 min; the probes and a slower machine need more.
    ("storing", "bench_storing.py", 4 * 3600),
    # Issue 30 goal 3: 100 MB of text through the openai provider on a stub GPU server.
    ("fast_embedder", "bench_fast_embedder.py", 2 * 3600),
]


def _last_json(stdout: str) -> dict[str, Any]:
    text = stdout.strip()
    start = text.rfind("\n{")
    candidates = [text[start + 1 :]] if start != -1 else []
    candidates.append(text[text.find("{") :] if "{" in text else "")
    for candidate in candidates:
        try:
            return json.loads(candidate)
        except json.JSONDecodeError:
            continue
    raise ValueError("no JSON object in the output")


def run_one(name: str, script: str, timeout: int) -> dict[str, Any]:
    path = BENCH_DIR / script
    if not path.exists():
        return {"status": "missing", "script": script}
    started = time.monotonic()
    try:
        completed = subprocess.run(
            [sys.executable, str(path)], capture_output=True, text=True, timeout=timeout,
            cwd=BENCH_DIR.parent, env={**os.environ, "PYTHONPATH": str(BENCH_DIR.parent)},
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "seconds": timeout}
    seconds = round(time.monotonic() - started, 1)
    if completed.returncode != 0:
        return {"status": "failed", "seconds": seconds, "stderr": completed.stderr[-2000:]}
    try:
        result = _last_json(completed.stdout)
    except ValueError as error:
        return {"status": "failed", "seconds": seconds, "error": str(error)}
    return {"status": "ok", "seconds": seconds, "result": result}


def _rows(name: str, outcome: dict[str, Any]) -> list[str]:
    if outcome["status"] != "ok":
        return [f"| {name} | {outcome['status']} | | | | | |"]
    columns = ("metric", "median", "p95", "unit", "peakMemoryMB", "target")
    rows = []
    for row in outcome["result"].get("summary", []):
        cells = ["" if row.get(key) is None else str(row[key]) for key in columns]
        rows.append(f"| {name} | " + " | ".join(cells) + " |")
    return rows or [f"| {name} | see latest.json | | | | | |"]


def main(selected: list[str]) -> int:
    RESULTS_DIR.mkdir(exist_ok=True)
    report: dict[str, Any] = {
        "generatedAt": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
        "machine": {
            "cpuCount": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
        },
        "benchmarks": {},
    }
    for name, script, timeout in BENCHMARKS:
        if selected and name not in selected:
            continue
        print(f"bench: {name} ...", flush=True)
        report["benchmarks"][name] = outcome = run_one(name, script, timeout)
        print(f"bench: {name} {outcome['status']} ({outcome.get('seconds', '?')} s)", flush=True)
        # Each benchmark's own file too, so that running one does not lose its last result.
        (RESULTS_DIR / f"{name}.json").write_text(json.dumps(outcome, indent=2) + "\n")
    (RESULTS_DIR / "latest.json").write_text(json.dumps(report, indent=2) + "\n")
    lines = [
        "# Benchmark report",
        "",
        f"Generated {report['generatedAt']} on {report['machine']['cpuCount']} CPUs "
        f"({report['machine']['platform']}, Python {report['machine']['python']}).",
        "",
        "| benchmark | metric | median | p95 | unit | peak memory (MB) | target |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, outcome in report["benchmarks"].items():
        lines.extend(_rows(name, outcome))
    (RESULTS_DIR / "latest.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    failed = [name for name, outcome in report["benchmarks"].items() if outcome["status"] != "ok"]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
