"""The service's tabular work done as it is and done with pandas, side by side (issue 26, item 10).

    python -m config.launcher bench tabular_pandas
    # or with the settings' variables set: .venv/bin/python bench/bench_tabular_pandas.py
    #     [--runs 3] [--activities 800] [--rows 5000] [--items 2000] [--documents 1000]
    #     [--sheet-rows 5000]

pandas is declared (pyproject.toml) for the tabular work; this measures, for each place
that work happens, the code as it is against the same work written with pandas, so that
the choice of which to keep rests on numbers and can be made again with a later pandas:

- `xlsx_export`: the record's workbook (legal_documents.exports.xlsx.render_xlsx) against
  `DataFrame.to_excel` (openpyxl engine) with the same widths, wrapping, frozen panes and
  formula guard applied after, on a whole-register record of `--activities` activities;
- `import_table`: the field -> cell table of a register sheet built from the rows the
  bounded reader returned (register.importing.parsing._cells_by_field per row, list fields
  over several columns joined) against a DataFrame reindexed to the layout's columns, on a
  sheet of `--rows` rows (MAX_ROWS) and 17 columns;
- `report_tables`: the register report's counts by severity and its severity/kind filter
  (compliance.report.severity_counts, narrowed) against value_counts and a boolean mask,
  over `--items` items;
- `index_csv`: the inspection package's documentation index as CSV
  (legal_documents.packages.index.index_csv) against `DataFrame.map(...).to_csv`, over
  `--documents` rows;
- `asset_xlsx_csv`: an ordinary (not hostile) uploaded workbook converted to CSV
  (formats.xlsx, streamed with openpyxl) against `read_excel(dtype=str)`, empty
  rows and columns dropped, `to_csv` (as the conversion was before it was streamed), on a
  sheet of `--sheet-rows` rows and 12 columns; what pandas did with a hostile workbook
  (padded to its furthest cell) is bench_extraction_isolation.py's;
- `pandas_import`: what importing pandas adds to a fresh interpreter that already holds
  Django and openpyxl (CPU seconds, resident MB): paid once by each web process, worker and
  register-import child (a fresh interpreter per import) that would use it.

Each case checks that both ways give the same result (the same cells and data types, the
same dictionaries, the same bytes) and fails otherwise: a faster different answer is no
comparison. Times are medians of `--runs` runs after a warm-up, in CPU seconds; memory is
the peak of the allocations tracemalloc sees (numpy and pandas report theirs to it) in one
more run.
Prints JSON; never fails on a time (see README, "Benchmarks").
"""

from __future__ import annotations

import argparse
import datetime
import io
import json
import os
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
_IMPORT_COST = """
import json, sys, time
import django, openpyxl
def rss():
    with open("/proc/self/status") as status:
        return next(int(l.split()[1]) for l in status if l.startswith("VmRSS")) / 1024
before = rss()
started = time.process_time()
import pandas
print(json.dumps({"seconds": time.process_time() - started, "rssMB": rss() - before,
                  "version": pandas.__version__}))
"""


def _timed(call: Callable[[], object], runs: int) -> dict[str, float]:
    call()  # warm-up (and pandas imported before anything is timed)
    durations = []
    for _ in range(runs):
        # CPU seconds: on a shared machine, wall time measures the neighbours too.
        started = time.process_time()
        call()
        durations.append(time.process_time() - started)
    tracemalloc.start()
    try:
        call()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return {"seconds": round(statistics.median(durations), 5), "peakMB": round(peak / 2**20, 1)}


def _compare(name: str, ours: Callable[[], Any], theirs: Callable[[], Any], runs: int,
             same: Callable[[Any, Any], bool], **sizes: int) -> dict[str, Any]:  # fmt: skip
    if not same(ours(), theirs()):
        raise SystemExit(f"{name}: the pandas version gives another result")
    current, pandas = _timed(ours, runs), _timed(theirs, runs)
    ratio = round(pandas["seconds"] / max(current["seconds"], 1e-5), 1)
    return {"case": name, **sizes, "current": current, "pandas": pandas,
            "pandasOverCurrent": ratio}  # fmt: skip


# -- the record's XLSX export --------------------------------------------------------------------


def _xlsx_with_pandas(markdown: str, meta: Any) -> bytes:
    import pandas as pd
    from openpyxl.styles import Alignment, Font

    from legal_documents.exports.base import metadata_rows
    from legal_documents.exports.xlsx import COLUMNS, _cell, activity_rows

    rows, processors = activity_rows(markdown, meta.document_title)
    frames = (
        ("Record (Art. 30(1))", rows, [title for title, _ in COLUMNS]),
        ("Processors (Art. 30(2))", processors,
         ["Processing activity", "Record of the processor (Art. 30(2))"]),
        ("About", metadata_rows(meta), ["Field", "Value"]),
    )  # fmt: skip
    output = io.BytesIO()
    with pd.ExcelWriter(output, engine="openpyxl") as writer:
        for name, values, headers in frames:
            frame = pd.DataFrame(values, columns=headers, dtype=object).map(_cell)
            frame.to_excel(writer, sheet_name=name, index=False)
            sheet = writer.sheets[name]
            # As text: pandas' freeze_panes=(1, 1) makes a cell B2 even on an empty sheet.
            sheet.freeze_panes = "B2"
            for column in sheet.columns:
                sheet.column_dimensions[column[0].column_letter].width = 40
                column[0].font = Font(bold=True)
                for cell in column[1:]:
                    if isinstance(cell.value, str) and cell.value.startswith("="):
                        cell.data_type = "s"
                    cell.alignment = Alignment(wrap_text=True, vertical="top")
    return output.getvalue()


def _workbook_cells(content: bytes) -> list[Any]:
    """What a reader of the workbook sees: sheets, cells, data types, panes, widths."""
    from openpyxl import load_workbook

    workbook = load_workbook(io.BytesIO(content))
    return [
        (sheet.title, sheet.freeze_panes,
         [(cell.coordinate, cell.value, cell.data_type, cell.font.b, cell.alignment.wrap_text)
          for row in sheet.iter_rows() for cell in row],
         {key: dimension.width for key, dimension in sheet.column_dimensions.items()})
        for sheet in workbook.worksheets
    ]  # fmt: skip


def xlsx_export(runs: int, activities: int) -> dict[str, Any]:
    sys.path.insert(0, str(ROOT / "bench"))
    from bench_xlsx_export import build_markdown

    from legal_documents.exports import ExportMeta
    from legal_documents.exports.xlsx import render_xlsx

    meta = ExportMeta(
        organization_name="Acme GmbH", document_title="Record of Processing Activities",
        document_type="RECORD_OF_PROCESSING", version=3, stage="final",
        created_at=datetime.datetime(2025, 1, 6, 9, 30, tzinfo=datetime.UTC),
        updated_at=datetime.datetime(2025, 3, 14, 16, 5, tzinfo=datetime.UTC),
        content_sha256="3f" * 32, ruleset_version="2025.1",
    )  # fmt: skip
    # A formula-looking cell, so that both ways are seen to keep it text.
    markdown = build_markdown(activities).replace("Acme GmbH, Berlin", "=HYPERLINK(1)", 1)
    return _compare(
        "xlsx_export",
        lambda: render_xlsx(markdown, meta),
        lambda: _xlsx_with_pandas(markdown, meta),
        runs,
        # pandas styles its header row (borders, centred) where the export only bolds it;
        # the values, types, panes and widths a reader sees are compared.
        lambda a, b: _workbook_cells(a) == _workbook_cells(b),
        activities=activities,
    )


# -- the register import's field table ----------------------------------------------------------

_HEADERS = (
    "ID", "Processing activity", "Purpose", "Sous-finalité 1", "Sous-finalité 2", "Legal basis",
    "Data subjects", "Data categories", "Recipients", "Third country", "Retention", "TOMs",
    "Systems", "Owner", "Next review", "Notes", "Internal comment",
)  # fmt: skip


def _register_sheet(rows: int) -> Any:
    from register.importing.reading import Sheet

    body: list[tuple[int, tuple[Any, ...]]] = [(1, _HEADERS)]
    for number in range(2, rows + 1):
        cells: tuple[Any, ...] = tuple(f"{header} {number}; and {number}" for header in _HEADERS)
        cells = (*cells[:14], datetime.date(2026, 1, number % 28 + 1), *cells[15:])
        # The reader trims a row's empty cells at its end: rows come in several widths.
        body.append((number, cells[: 17 - number % 4 * 3]))
    return Sheet(name="Register", rows=tuple(body))


def _table_with_pandas(layout: Any, rows: list[tuple[int, tuple[Any, ...]]]) -> list[Any]:
    import pandas as pd

    from register.importing.parsing import _text

    width = max(layout.columns) + 1
    frame = pd.DataFrame(
        [cells[:width] + ("",) * (width - len(cells)) for _, cells in rows],
        index=[number for number, _ in rows], dtype=object,
    )  # fmt: skip
    columns: dict[str, list[int]] = {}
    for column, name in layout.columns.items():
        columns.setdefault(name, []).append(column)
    table = {}
    for name, found in columns.items():
        if len(found) == 1:
            table[name] = frame[found[0]]
        else:  # a list field over several columns: one value per line
            texts = frame[found].map(_text)
            table[name] = texts.agg(lambda row: "\n".join(text for text in row if text), axis=1)
    fields = pd.DataFrame(table)
    return list(zip(fields.index.tolist(), fields.to_dict("records"), strict=True))


def import_table(runs: int, rows: int) -> dict[str, Any]:
    from register.importing.headers import detect_layout
    from register.importing.parsing import _cells_by_field

    sheet = _register_sheet(rows)
    layout = detect_layout(sheet)
    assert layout is not None
    body = [(number, cells) for number, cells in sheet.rows if number > layout.header_row]
    return _compare(
        "import_table",
        lambda: [(number, _cells_by_field(layout, cells)) for number, cells in body],
        lambda: _table_with_pandas(layout, body),
        runs,
        lambda a, b: a == b,
        rows=rows,
    )


# -- the register report's tables ---------------------------------------------------------------


def report_tables(runs: int, items: int) -> dict[str, Any]:
    from compliance.report import KINDS, SEVERITIES, ReportItem, narrowed, severity_counts

    found = [
        ReportItem(kind=KINDS[n % len(KINDS)], severity=SEVERITIES[n % 2], article="Art. 9",
                   objects=(), message=f"Item {n}", suggested_action="Act.")
        for n in range(items)
    ]  # fmt: skip

    def ours() -> Any:
        return severity_counts(items=found), narrowed(items=found, severity="high", kind=KINDS[0])

    def theirs() -> Any:
        import pandas as pd

        frame = pd.DataFrame({"severity": [i.severity for i in found],
                              "kind": [i.kind for i in found]})  # fmt: skip
        counts = frame["severity"].value_counts().reindex(list(SEVERITIES), fill_value=0)
        mask = (frame["severity"] == "high") & (frame["kind"] == KINDS[0])
        return ({key: int(value) for key, value in counts.items()},
                [found[index] for index in frame.index[mask]])  # fmt: skip

    return _compare("report_tables", ours, theirs, runs, lambda a, b: a == b, items=items)


# -- the documentation index as CSV -------------------------------------------------------------


def index_csv(runs: int, documents: int) -> dict[str, Any]:
    from legal_documents.packages import index

    rows = [
        {"id": f"00000000-0000-0000-0000-{n:012d}", "documentType": "PRIVACY_POLICY",
         "stage": "final", "status": "completed", "version": n % 7 + 1,
         "createdAt": "2025-01-06T09:30:00Z", "updatedAt": None, "contentSha256": "3f" * 32,
         "complete": (True, False, None)[n % 3],
         "missingItems": ["a-controller", "=b-purposes"] if n % 3 == 1 else []}
        for n in range(documents)
    ]  # fmt: skip

    def theirs() -> str:
        import pandas as pd

        frame = pd.DataFrame(rows, columns=list(index.INDEX_COLUMNS), dtype=object)
        return str(frame.map(index._csv_value).to_csv(index=False, lineterminator="\r\n"))

    return _compare(
        "index_csv", lambda: index.index_csv(rows), theirs, runs, lambda a, b: a == b,
        documents=documents,
    )  # fmt: skip


def _workbook(rows: int) -> bytes:
    from openpyxl import Workbook

    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "Processing"
    sheet.append([f"Column {column}" for column in range(12)])
    for number in range(rows):
        if number % 50 == 49:
            sheet.append([])  # an empty row, dropped by both
            continue
        sheet.append([f"Row {number}, \"quoted\", text" if column % 3 == 0 else
                      number * 10 + column if column % 3 == 1 else number + 0.25
                      for column in range(12)])  # fmt: skip
    output = io.BytesIO()
    workbook.save(output)
    return output.getvalue()


def asset_xlsx_csv(runs: int, rows: int) -> dict[str, Any]:
    import tempfile

    from formats.xlsx import DEFAULT_MAX_CELLS_PER_SHEET, iter_xlsx_csv_pieces

    def ours(path: Path) -> list[tuple[str, str]]:
        pieces = iter_xlsx_csv_pieces(path, max_cells=DEFAULT_MAX_CELLS_PER_SHEET)
        joined: dict[str, str] = {}
        for piece in pieces:
            joined[piece.name] = joined.get(piece.name, "") + piece.csv_text
        return list(joined.items())

    def theirs(path: Path) -> list[tuple[str, str]]:
        import pandas as pd

        # As the conversion read a sheet before it was streamed (assets.processing, 2026-11).
        sheets = pd.read_excel(path, sheet_name=None, header=None, dtype=str, keep_default_na=False)
        return [
            (name, str(frame.replace("", None).dropna(how="all").dropna(axis=1, how="all")
                       .to_csv(header=False, index=False, lineterminator="\n")))
            for name, frame in sheets.items()
        ]  # fmt: skip

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "register.xlsx"
        path.write_bytes(_workbook(rows))
        return _compare(
            "asset_xlsx_csv", lambda: ours(path), lambda: theirs(path), runs,
            lambda a, b: a == b, rows=rows,
        )  # fmt: skip


def pandas_import(runs: int) -> dict[str, Any]:
    found = []
    for _ in range(max(runs, 2)):
        completed = subprocess.run(
            [sys.executable, "-c", _IMPORT_COST], capture_output=True, text=True, check=True,
            cwd=ROOT,
        )  # fmt: skip
        found.append(json.loads(completed.stdout.strip().splitlines()[-1]))
    return {
        "case": "pandas_import",
        "version": found[0]["version"],
        "seconds": round(statistics.median(f["seconds"] for f in found), 3),
        "rssMB": round(statistics.median(f["rssMB"] for f in found), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--activities", type=int, default=800)
    parser.add_argument("--rows", type=int, default=5000)
    parser.add_argument("--items", type=int, default=2000)
    parser.add_argument("--documents", type=int, default=1000)
    parser.add_argument("--sheet-rows", type=int, default=5000)
    arguments = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    runs = arguments.runs
    cases = [
        xlsx_export(runs, arguments.activities),
        import_table(runs, arguments.rows),
        report_tables(runs, arguments.items),
        index_csv(runs, arguments.documents),
        asset_xlsx_csv(runs, arguments.sheet_rows),
    ]
    cost = pandas_import(runs)
    summary = [
        {"metric": f"{case['case']}: {way}", "median": case[way]["seconds"], "p95": None,
         "unit": "s CPU", "peakMemoryMB": case[way]["peakMB"], "target": None}
        for case in cases for way in ("current", "pandas")
    ] + [{"metric": f"import pandas {cost['version']} (+{cost['rssMB']} MB resident)",
          "median": cost["seconds"], "p95": None, "unit": "s CPU", "peakMemoryMB": None,
          "target": None}]  # fmt: skip
    print(json.dumps({"runs": runs, "cases": [*cases, cost], "summary": summary}))


if __name__ == "__main__":
    main()
