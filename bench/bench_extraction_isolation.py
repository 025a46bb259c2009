"""What reading each file in a bounded child process costs, and what the XLSX bombs took.

1. Overhead: extraction in-process (``extract_segments``) against the same extraction in a
   child process under RLIMIT_AS (``isolated_extraction``, what the worker does), on a small
   and a large file of each kind measured; medians of BENCH_ISOLATION_RUNS (default 5).
2. Spreadsheet bombs: peak resident memory of the XLSX -> CSV conversion before the fix
   (pandas, as the code was: ``pd.read_excel(..., dtype=str)`` per sheet) and after it
   (openpyxl streamed), each in a child under a 4 GiB address-space limit so that the old
   path ends in MemoryError instead of taking the machine: XFD1 + A2..A2001 (2,000 rows
   padded to 16,384 columns) and A1 + XFD1048576.

No Django, no database: ``python bench/bench_extraction_isolation.py``.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assets.processing.isolation import ExtractionLimits, isolated_extraction  # noqa: E402
from formats.extraction import extract_segments  # noqa: E402
from formats.kinds import FileKind  # noqa: E402
from tests.assets.bombs import corner_cells_xlsx, xlsx_bytes_with_cells  # noqa: E402
from tests.assets.samples import docx_bytes  # noqa: E402

RUNS = int(os.environ.get("BENCH_ISOLATION_RUNS", "5"))
LIMITS = ExtractionLimits(memory_bytes=1024**3, timeout_seconds=600, max_sheet_cells=5_000_000)
BOMB_ADDRESS_SPACE = 4 * 1024**3

_CONVERT = """
import json, resource, sys
kind, path = sys.argv[1], sys.argv[2]
resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
outcome = "ok"
try:
    if kind == "pandas":
        import pandas as pd
        with pd.ExcelFile(path, engine="openpyxl") as workbook:
            for name in workbook.sheet_names:
                frame = pd.read_excel(workbook, sheet_name=name, header=None, dtype=str,
                                      keep_default_na=False)
                frame = frame.replace("", None).dropna(how="all").dropna(axis=1, how="all")
                frame.to_csv(index=False, header=False)
    else:
        from pathlib import Path
        from formats.xlsx import iter_xlsx_sheets_as_csv
        for _ in iter_xlsx_sheets_as_csv(Path(path)):
            pass
except MemoryError:
    outcome = "MemoryError"
# VmHWM, not ru_maxrss: the latter counts what the forking parent held before the exec.
status = open("/proc/self/status").read()
peak_kib = int(status.split("VmHWM:")[1].split()[0])
print(json.dumps({{"outcome": outcome, "peakMB": peak_kib // 1024}}))
"""


def _files(directory: Path) -> dict[str, tuple[Path, FileKind]]:
    files = {
        "small.txt": (b"Data is kept for six years.\n" * 50, FileKind.TXT),
        "small.docx": (docx_bytes(["Processor agreement with Acme Cloud"]), FileKind.DOCX),
        "large.txt (52 MB)": (
            b"Entry of the register of processing activities, kept six years.\n" * 800_000,
            FileKind.TXT,
        ),
        "large.xlsx (200k cells)": (
            xlsx_bytes_with_cells(
                {
                    f"{column}{row}": f"v{row}{column}"
                    for column in "ABCDE"
                    for row in range(1, 40_001)
                }
            ),
            FileKind.XLSX,
        ),
    }
    paths = {}
    for name, (content, kind) in files.items():
        path = directory / name.split(" ")[0]
        path.write_bytes(content)
        paths[name] = (path, kind)
    return paths


def _in_process(path: Path, kind: FileKind) -> int:
    return sum(len(segment.text) for segment in extract_segments(path, kind))


def _isolated(path: Path, kind: FileKind) -> int:
    with isolated_extraction(path, kind, limits=LIMITS) as segments:
        return sum(len(segment.text) for segment in segments)


def _median_seconds(function, path: Path, kind: FileKind) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        function(path, kind)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def overhead(directory: Path) -> list[dict]:
    rows = []
    for name, (path, kind) in _files(directory).items():
        assert _in_process(path, kind) == _isolated(path, kind), name
        direct = _median_seconds(_in_process, path, kind)
        isolated = _median_seconds(_isolated, path, kind)
        rows.append(
            {
                "file": name,
                "inProcessSeconds": round(direct, 3),
                "isolatedSeconds": round(isolated, 3),
                "overheadSeconds": round(isolated - direct, 3),
            }
        )
    return rows


def bombs(directory: Path) -> list[dict]:
    cells = {"XFD1": "far right heading"}
    cells.update({f"A{row}": f"entry {row}" for row in range(2, 2002)})
    files = {
        "XFD1 + A2..A2001": xlsx_bytes_with_cells(cells),
        "A1 + XFD1048576": corner_cells_xlsx(),
    }
    rows = []
    for name, content in files.items():
        path = directory / "bomb.xlsx"
        path.write_bytes(content)
        for reader in ("pandas", "streamed"):
            started = time.perf_counter()
            completed = subprocess.run(
                [sys.executable, "-c", _CONVERT.format(limit=BOMB_ADDRESS_SPACE), reader,
                 str(path)],
                capture_output=True, text=True, cwd=ROOT, timeout=900,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
            )  # fmt: skip
            result = json.loads(completed.stdout.strip().splitlines()[-1])
            rows.append(
                {
                    "file": f"{name} ({len(content):,} bytes)",
                    "reader": reader,
                    **result,
                    "seconds": round(time.perf_counter() - started, 2),
                }
            )
    return rows


def main() -> None:
    with tempfile.TemporaryDirectory() as directory:
        result = {"overhead": overhead(Path(directory)), "bombs": bombs(Path(directory))}
    summary = [
        {
            "metric": f"isolation overhead {row['file']}",
            "median": row["overheadSeconds"],
            "unit": "s",
        }
        for row in result["overhead"]
    ] + [
        {
            "metric": f"xlsx bomb {row['file']} {row['reader']} ({row['outcome']})",
            "median": row["seconds"],
            "unit": "s",
            "peakMemoryMB": row["peakMB"],
        }
        for row in result["bombs"]
    ]
    print(json.dumps({**result, "summary": summary}))


if __name__ == "__main__":
    main()
