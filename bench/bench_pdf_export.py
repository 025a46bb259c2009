"""Benchmark of the PDF export on a ~30-page legal document.

    .venv/bin/python bench/bench_pdf_export.py [--runs 15] [--sections 27]

Builds a contract-like Markdown (numbered sections with sub-headings, paragraphs, bullet
and numbered lists, one 100-row table), renders it with `export_document(..., "pdf")`
`--runs` times after one warm-up, and prints JSON: median and p95 seconds, page count (read
back with pypdf), PDF size, tracemalloc peak of one render, and the process's peak RSS.
Timing is a benchmark, never a test assertion (docs/MEASUREMENTS.md, "Benchmarks").
"""

from __future__ import annotations

import argparse
import io
import json
import resource
import statistics
import sys
import time
import tracemalloc
from datetime import UTC, datetime
from pathlib import Path

REPOSITORY_ROOT = Path(__file__).resolve().parents[1]

_PARAGRAPH = (
    "The Controller shall implement appropriate technical and organisational measures to "
    "ensure a level of security appropriate to the risk, including inter alia as "
    "appropriate the pseudonymisation and encryption of personal data, the ability to "
    "ensure the ongoing confidentiality, integrity, availability and resilience of "
    "processing systems and services, and a process for regularly testing, assessing and "
    "evaluating the effectiveness of those measures (Art. 32 GDPR). Łódź, Ærø, Müller."
)


def build_markdown(sections: int) -> str:
    """A legal-style document; about one page per section plus the 100-row table."""
    parts = ["# Data Processing Agreement\n", f"{_PARAGRAPH}\n"]
    for number in range(1, sections + 1):
        parts.append(f"## {number}. Obligations of the parties, part {number}\n")
        parts.append(f"{_PARAGRAPH} **Clause {number}.1** applies.\n")
        parts.append(f"### {number}.1 Scope\n")
        parts.append(f"{_PARAGRAPH}\n\n{_PARAGRAPH}\n")
        parts.append(
            "- the categories of data subjects and of personal data;\n"
            "- the purposes of the processing and its *legal basis*;\n"
            "- the recipients, including processors in **third countries**;\n"
            "- the envisaged time limits for erasure.\n"
        )
        parts.append(f"### {number}.2 Procedure\n")
        parts.append(
            "1. notify the supervisory authority within 72 hours;\n"
            "2. document the breach, its effects and the remedial action;\n"
            "3. communicate the breach to the data subjects without undue delay.\n"
        )
        parts.append(f"{_PARAGRAPH}\n")
        if number == sections // 2:
            parts.append("## Annex: Record of processing activities\n")
            parts.append("| # | Processing activity | Data categories | Retention | Transfer |")
            parts.append("|---:|---|---|---|:---:|")
            parts.extend(
                f"| {row} | Activity {row}: payroll and HR administration | Name, address, "
                f"bank details | {row % 10 + 1} years | {'yes' if row % 3 == 0 else 'no'} |"
                for row in range(1, 101)
            )
            parts.append("")
    return "\n".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--sections", type=int, default=27)
    arguments = parser.parse_args()

    # Run from anywhere: the package is imported from the checkout this file lives in.
    sys.path.insert(0, str(REPOSITORY_ROOT))
    import pypdf

    from legal_documents.exports import ExportMeta, export_document

    meta = ExportMeta(
        organization_name="Müller & Søn Łódź sp. z o.o.",
        document_title="Data Processing Agreement",
        document_type="DPA",
        version=7,
        stage="final",
        created_at=datetime(2025, 1, 6, 9, 30, tzinfo=UTC),
        updated_at=datetime(2025, 3, 14, 16, 5, tzinfo=UTC),
        content_sha256="3f" * 32,
        ruleset_version="2025.1",
    )
    markdown = build_markdown(arguments.sections)

    export_document(markdown, meta, "pdf")  # warm-up: imports, font registration
    durations = []
    for _ in range(arguments.runs):
        started = time.perf_counter()
        exported = export_document(markdown, meta, "pdf")
        durations.append(time.perf_counter() - started)

    # tracemalloc slows allocation-heavy code down, so memory is measured in its own run.
    tracemalloc.start()
    export_document(markdown, meta, "pdf")
    _, traced_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    durations.sort()
    p95_index = min(len(durations) - 1, round(0.95 * (len(durations) - 1)))
    result = {
        "runs": arguments.runs,
        "markdown_chars": len(markdown),
        "pages": len(pypdf.PdfReader(io.BytesIO(exported.content)).pages),
        "pdf_bytes": len(exported.content),
        "median_seconds": round(statistics.median(durations), 4),
        "p95_seconds": round(durations[p95_index], 4),
        "min_seconds": round(durations[0], 4),
        "max_seconds": round(durations[-1], 4),
        "tracemalloc_peak_mib": round(traced_peak / 2**20, 1),
        # ru_maxrss is KiB on Linux: the whole process, imports and fonts included.
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }
    result["summary"] = [
        {
            "metric": f"PDF export of a {result['pages']}-page document",
            "median": result["median_seconds"],
            "p95": result["p95_seconds"],
            "unit": "s",
            "peakMemoryMB": result["peak_rss_mib"],
            "target": "< 1 s",
        }
    ]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
