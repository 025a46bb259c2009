"""Extraction in a child process under a memory and a time bound.

Whatever parser a hostile file defeats (a spreadsheet padded to 16,384 columns, a table
cell spanning 2^31 columns, an XML tree of millions of nodes), the child runs out of its
address space (``RLIMIT_AS``) or its time, and the file fails as EXTRACTION_FAILED
(CONVERSION_FAILED for XLSX and HTML, whose extraction is a conversion): the Celery worker
that started the child lives on. The child is a fresh interpreter (``python -m`` this
module), not a fork of the worker: it inherits none of the worker's memory or state.

The child writes its segments to a result file (one JSON line each, then a last line that
says how it ended), not to a pipe: an upload of 100 MB can yield as much text, and the
parent reads it back a line at a time once the child has exited. The child dies with its
parent (``PR_SET_PDEATHSIG``), so a worker killed mid-extraction leaves no orphan.

Bytes are bounded twice. The extraction stops once its text passes ``max_chars``
(formats/extraction.py): the result file holds at most that many characters (UTF-8, JSON-escaped).
And the child runs under ``RLIMIT_FSIZE`` (``max_output_bytes``, by default
BYTES_PER_CHARACTER per character plus room for framing and the last record): a defect in
the count, or a parser writing a file of its own, still cannot fill the disk. A write past
it fails with EFBIG (Python ignores SIGXFSZ; a child killed by the signal counts the same)
and the file fails with a message that says so, like the memory and time bounds.

OCR of a scanned PDF (formats/ocr.py) runs in the same child, as a process the child starts
(OCRmyPDF, and Tesseract under it): it inherits the memory bound and has a time bound of its
own (``OcrOptions.timeout_seconds``), which the child's time bound of a PDF adds to the
extraction's. The confidence of a recognised page travels with its segment.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from common.child_process import OUT_OF_MEMORY_EXIT, die_with_parent, near_memory_limit
from formats.errors import (
    ConversionFailed,
    ExtractionFailed,
    FormatError,
    InvalidFileType,
    output_limit_message,
)
from formats.kinds import FileKind
from formats.ocr import OcrOptions
from formats.registry import conversion_target, format_of
from formats.segments import Segment

PROJECT_ROOT = Path(__file__).resolve().parents[2]
# Exit statuses of the child: out of memory (a MemoryError, or a parser error raised with
# the address space nearly used up: lxml reports a failed allocation as a syntax error),
# and a typed failure of the file (its record is the result file's last line).
FILE_FAILED_EXIT = 87
# The child wrote past its file-size bound (RLIMIT_FSIZE).
OUTPUT_LIMIT_EXIT = 88
# The result file is UTF-8 JSON: a character takes at most 4 bytes, unless it is one of the
# control characters JSON escapes as ``\u00XX`` (6): text of those fails at the file-size
# bound, a little before the character cap; nothing a document is made of.
BYTES_PER_CHARACTER = 4
# Room in the file-size bound for the JSON framing of each segment and the last record.
OUTPUT_HEADROOM_BYTES = 1024 * 1024
# Extracted text may hold lone surrogates (ensure_ascii=False writes them as they are).
_RESULT_ERRORS = "surrogatepass"
# How often the parent looks at ``check_interrupt`` while the child runs.
INTERRUPT_POLL_SECONDS = 0.5


@dataclass(frozen=True, slots=True)
class ExtractionLimits:
    """The bounds of one extraction: address space, wall-clock time, cells per sheet, the
    characters of text (None: unbounded), the bytes the child may write (None: derived
    from ``max_chars``; unbounded without it), and how a PDF's pictures of pages are
    recognised (None: they are not)."""

    memory_bytes: int
    timeout_seconds: float
    max_sheet_cells: int
    max_chars: int | None = None
    max_output_bytes: int | None = None
    ocr: OcrOptions | None = None

    def timeout_for(self, kind: FileKind) -> float:
        """The child's time bound for a file of ``kind``: a PDF's may include OCR's."""
        if kind is FileKind.PDF and self.ocr is not None and self.ocr.enabled:
            return self.timeout_seconds + self.ocr.timeout_seconds
        return self.timeout_seconds

    @property
    def output_bytes(self) -> int | None:
        """The child's file-size bound (RLIMIT_FSIZE), None when there is none."""
        if self.max_output_bytes is not None:
            return self.max_output_bytes
        if self.max_chars is None:
            return None
        return self.max_chars * BYTES_PER_CHARACTER + OUTPUT_HEADROOM_BYTES


class ExtractionCrashed(RuntimeError):  # noqa: N818 - reads better as a state
    """The child failed on an unexpected error (logged by the child): not the file's fault."""


def _limit_failure(kind: FileKind, message: str) -> ExtractionFailed:
    return format_of(kind).failure(message)


@contextlib.contextmanager
def isolated_extraction(
    path: Path,
    kind: FileKind,
    *,
    limits: ExtractionLimits,
    work_directory: Path | None = None,
    check_interrupt: Callable[[], None] | None = None,
) -> Iterator[Iterator[Segment]]:
    """Extract ``path`` in a bounded child; enter to get its segments, read back lazily.

    The child has finished when this returns the iterator (its failures are raised here):
    the typed errors of extraction as they were raised in the child, ExtractionFailed (or
    ConversionFailed) when it exceeded ``limits``, ExtractionCrashed on an unexpected error.
    The result file is removed on exit. Whatever interrupts the wait (the task's soft time
    limit, a worker shutdown) kills the child first. ``check_interrupt`` is called about
    every INTERRUPT_POLL_SECONDS while the child runs: whatever it raises kills the child and
    propagates (a stopping worker hands its asset back without waiting for the file).
    """
    with tempfile.NamedTemporaryFile(
        "w+",
        encoding="utf-8",
        errors=_RESULT_ERRORS,
        dir=work_directory,
        prefix="extract-",
        suffix=".jsonl",
    ) as result:
        _run_child(
            path,
            kind,
            limits=limits,
            result_path=Path(result.name),
            check_interrupt=check_interrupt,
        )
        result.seek(0)
        yield _read_segments(result, kind)


def _run_child(
    path: Path,
    kind: FileKind,
    *,
    limits: ExtractionLimits,
    result_path: Path,
    check_interrupt: Callable[[], None] | None = None,
) -> None:
    command = [
        sys.executable, "-m", "assets.processing.isolation",
        kind.value, str(path), str(result_path),
        str(limits.memory_bytes), str(limits.max_sheet_cells), str(os.getpid()),
        _optional(limits.max_chars), _optional(limits.output_bytes),
        "" if limits.ocr is None else limits.ocr.as_argument(),
    ]  # fmt: skip
    environment = {**os.environ, "PYTHONPATH": _python_path()}
    child = subprocess.Popen(command, cwd=PROJECT_ROOT, env=environment, stdin=subprocess.DEVNULL)
    timeout = limits.timeout_for(kind)
    try:
        returncode = _wait(child, timeout=timeout, check_interrupt=check_interrupt)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
        raise _limit_failure(
            kind, f"Reading the file took longer than {timeout:g} seconds."
        ) from None
    finally:
        if child.poll() is None:  # interrupted while waiting: never leave the child running
            child.kill()
            child.wait()
    if returncode == FILE_FAILED_EXIT:
        raise _error_from_record(_last_record(result_path), kind)
    if returncode != 0:
        raise exit_failure(returncode, kind=kind, limits=limits)


def _wait(
    child: subprocess.Popen[bytes], *, timeout: float, check_interrupt: Callable[[], None] | None
) -> int:
    """The child's exit status; TimeoutExpired after ``timeout`` s; ``check_interrupt``'s
    error as soon as it raises one."""
    if check_interrupt is None:
        return child.wait(timeout=timeout)
    deadline = time.monotonic() + timeout
    while True:
        check_interrupt()
        remaining = deadline - time.monotonic()
        try:
            return child.wait(timeout=max(0.0, min(INTERRUPT_POLL_SECONDS, remaining)))
        except subprocess.TimeoutExpired:
            if remaining <= INTERRUPT_POLL_SECONDS:
                raise


def exit_failure(returncode: int, *, kind: FileKind, limits: ExtractionLimits) -> Exception:
    """The failure a child that ended with ``returncode`` (not 0, not FILE_FAILED_EXIT) means."""
    if returncode == OUT_OF_MEMORY_EXIT or returncode == -signal.SIGKILL:
        megabytes = limits.memory_bytes // (1024 * 1024)
        return _limit_failure(kind, f"Reading the file needs more than {megabytes} MiB of memory.")
    if returncode == OUTPUT_LIMIT_EXIT or returncode == -signal.SIGXFSZ:
        return _limit_failure(kind, output_limit_message(limits.output_bytes or 0))
    if returncode < 0:
        return _limit_failure(kind, f"Reading the file crashed the reader (signal {-returncode}).")
    return ExtractionCrashed(f"the extraction process exited with status {returncode}")


def _optional(number: int | None) -> str:
    return "" if number is None else str(number)


def _last_record(result_path: Path) -> dict[str, Any]:
    with result_path.open("rb") as result:
        size = result.seek(0, os.SEEK_END)
        result.seek(max(0, size - 64 * 1024))
        last_line = result.read().rstrip(b"\n").rsplit(b"\n", 1)[-1]
    try:
        return dict(json.loads(last_line)["error"])
    except (ValueError, KeyError, TypeError):
        return {"code": "CRASHED", "message": "the extraction process left no readable result"}


def _python_path() -> str:
    # The child imports what this process imports: the project first, then this path.
    return os.pathsep.join(dict.fromkeys([str(PROJECT_ROOT), *(p for p in sys.path if p)]))


def _read_segments(result: IO[str], kind: FileKind) -> Iterator[Segment]:
    ended = False
    for line in result:
        record = json.loads(line)
        if "text" in record:
            yield Segment(
                record["text"],
                record["location"],
                ocr_confidence=record.get("ocrConfidence"),
                ocr_words=record.get("ocrWords", 0),
            )
            continue
        ended = True
        break
    if not ended:
        raise ExtractionCrashed("the extraction process ended without a result")


def _error_from_record(error: dict[str, Any], kind: FileKind) -> Exception:
    message = str(error["message"])
    details = error.get("details") or {}
    if error["code"] == ConversionFailed.code:
        return ConversionFailed(
            message,
            original_format=str(details.get("originalFormat", kind.value)),
            target_format=str(details.get("targetFormat", conversion_target(kind) or "")),
        )
    if error["code"] == InvalidFileType.code:
        return InvalidFileType(message)
    if error["code"] == ExtractionFailed.code:
        return ExtractionFailed(message)
    return ExtractionCrashed(message)


# --- The child ---------------------------------------------------------------------------


def child_main(arguments: list[str]) -> int:
    """Run in the child: extract, write the result file, return the exit status."""
    kind_name, source, result_path, memory_bytes, max_sheet_cells, parent_pid = arguments[:6]
    max_chars, max_output_bytes = arguments[6:8]
    ocr = OcrOptions.from_argument(arguments[8]) if len(arguments) > 8 else None
    die_with_parent(int(parent_pid))
    limit = int(memory_bytes)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    if max_output_bytes:
        size = int(max_output_bytes)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    try:
        return _extract_to_result(
            FileKind(kind_name),
            Path(source),
            Path(result_path),
            memory_limit=limit,
            max_sheet_cells=int(max_sheet_cells),
            max_chars=int(max_chars) if max_chars else None,
            ocr=ocr,
        )
    except OSError as error:
        if error.errno == errno.EFBIG:  # past RLIMIT_FSIZE, even while closing the file
            return OUTPUT_LIMIT_EXIT
        raise


def _extract_to_result(
    kind: FileKind,
    source: Path,
    result_path: Path,
    *,
    memory_limit: int,
    max_sheet_cells: int,
    max_chars: int | None,
    ocr: OcrOptions | None = None,
) -> int:
    # Imported after the limits are set: the parsers' own allocations count against them.
    from formats.extraction import extract_segments

    with result_path.open("w", encoding="utf-8", errors=_RESULT_ERRORS) as output:
        try:
            for segment in extract_segments(
                source, kind, max_sheet_cells=max_sheet_cells, max_chars=max_chars, ocr=ocr
            ):
                record: dict[str, Any] = {"text": segment.text, "location": segment.location}
                if segment.ocr_confidence is not None:
                    record["ocrConfidence"] = segment.ocr_confidence
                    record["ocrWords"] = segment.ocr_words
                output.write(json.dumps(record, ensure_ascii=False))
                output.write("\n")
            output.write('{"end": true}\n')
        except MemoryError:
            return OUT_OF_MEMORY_EXIT
        except FormatError as error:
            if near_memory_limit(memory_limit):
                return OUT_OF_MEMORY_EXIT
            record = {"code": error.code, "message": error.message, "details": error.details}
            output.write(json.dumps({"error": record}) + "\n")
            return FILE_FAILED_EXIT
        except OSError as error:
            if error.errno == errno.EFBIG:
                raise
            return _crashed(output, error, memory_limit=memory_limit)
        except Exception as error:
            return _crashed(output, error, memory_limit=memory_limit)
    return 0


def _crashed(output: IO[str], error: Exception, *, memory_limit: int) -> int:
    if near_memory_limit(memory_limit):
        return OUT_OF_MEMORY_EXIT
    # stderr is the worker's log: a log file past RLIMIT_FSIZE must not turn this into EFBIG.
    with contextlib.suppress(OSError):
        traceback.print_exc(file=sys.stderr)
    message = f"{type(error).__name__}: {error}"[:300]
    output.write(json.dumps({"error": {"code": "CRASHED", "message": message}}) + "\n")
    return 1


if __name__ == "__main__":
    try:
        sys.exit(child_main(sys.argv[1:]))
    except MemoryError:
        os._exit(OUT_OF_MEMORY_EXIT)
