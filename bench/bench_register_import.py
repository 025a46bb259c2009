"""CPU and memory of reading and planning the crafted register-import files (issue 25 item 2).

Each case generates its file (tests/support/hostile/register_files.py), then reads it
(`read_register_file`) and plans it as `build_plan` does up to its database queries: the
layouts, the vendor rows, the vendor index, the activity rows matched against it (or the
"no header row" error, whose size is reported). Each case runs in a child process so that
its peak memory is its own. The database part of planning (one lookup per row) is not the
crafted files' cost and is left out: this needs no database.

Cases (sizes chosen so that the code before the bounds finishes within about a minute):
padded sheets to row 1,048,576; one 64 KB CSV line of ',"x'; 99 joined "Purpose" columns of
5,000 values each; sheets of 100 headers of 10,000 characters; 2,000 vendors and recipient
cells of "x;x;...". Run: python bench/bench_register_import.py. Never fails on a time.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

CASES: dict[str, tuple[str, dict[str, int]]] = {
    "padded_sheets": ("padded_workbook", {"sheets": 3, "last_row": 1_048_576}),
    "sniffer_line": ("sniffer_line", {"characters": 65_535}),
    "joined_lists": ("joined_list_workbook", {"rows": 5, "columns": 99, "values_per_cell": 5000}),
    "long_headers": ("long_headers_workbook", {"sheets": 5, "columns": 100, "characters": 10_000}),
    "many_vendors": (
        "many_vendors_workbook",
        {"vendors": 2000, "rows": 1, "recipient_columns": 4, "values_per_cell": 500},
    ),
}


def run_case(name: str) -> dict[str, Any]:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    os.environ.setdefault("DATA_DIR", str(ROOT / ".data" / "bench"))
    import django

    django.setup()
    from common.domain import DomainError
    from organizations.models import Organization
    from register.importing.headers import SheetKind, detect_layout
    from register.importing.planning import VendorNames, _parse, build_plan
    from register.importing.reading import read_register_file
    from tests.support.hostile import register_files

    maker, sizes = CASES[name]
    content = getattr(register_files, maker)(**sizes)
    file_name = "crafted.csv" if name == "sniffer_line" else "crafted.xlsx"
    started = time.process_time()
    outcome: dict[str, Any] = {"fileBytes": len(content), "sizes": sizes}
    try:
        sheets = read_register_file(content=content, file_name=file_name)
        read = time.process_time()
        outcome["readSeconds"] = round(read - started, 3)
        found = [(sheet, layout) for sheet in sheets if (layout := detect_layout(sheet))]
        if not found:
            build_plan(organization=Organization(name="bench"), sheets=sheets)  # raises
        vendors = _parse(found, SheetKind.VENDORS, match_vendor=lambda _: None)
        names = VendorNames([row.name for row in vendors])
        activities = _parse(found, SheetKind.ACTIVITIES, match_vendor=names.match)
        outcome["rows"] = len(vendors) + len(activities)
        outcome["values"] = sum(
            len(value) for row in activities for value in row.values.values()
            if isinstance(value, list)
        )  # fmt: skip
        outcome["outcome"] = "planned"
    except DomainError as error:
        outcome["outcome"] = f"refused {error.code}: {error.message[:120]}"
        outcome["errorDetailsBytes"] = len(json.dumps(error.details, default=str))
    outcome["cpuSeconds"] = round(time.process_time() - started, 3)
    outcome["peakMemoryMB"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    return outcome


def main() -> dict[str, Any]:
    results: dict[str, Any] = {}
    for name in CASES:
        completed = subprocess.run(
            [sys.executable, __file__, name], capture_output=True, text=True, cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=1800,
        )  # fmt: skip
        if completed.returncode != 0:
            results[name] = {"outcome": "failed", "stderr": completed.stderr[-1500:]}
            continue
        results[name] = json.loads(completed.stdout.strip().splitlines()[-1])
    return results


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    if len(sys.argv) > 1:
        print(json.dumps(run_case(sys.argv[1])))
        sys.exit(0)
    cases = main()
    summary = [
        {"metric": f"read+plan {name}", "median": case.get("cpuSeconds"), "unit": "s CPU",
         "peakMemoryMB": case.get("peakMemoryMB"), "target": "< 1 s"}
        for name, case in cases.items()
    ]  # fmt: skip
    print(json.dumps({"cases": cases, "summary": summary}))
