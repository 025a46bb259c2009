"""Text recognition (OCR) of the pages of a PDF that are pictures: OCRmyPDF driving Tesseract.

Optional: OCRmyPDF is the ``ocr`` extra of pyproject.toml, Tesseract and its language packs
are Debian packages (``make system-deps``; the image installs them when its EXTRAS holds
``ocr``). Without them (or with ``OcrOptions.enabled`` false) a PDF whose every page is a
picture fails with :func:`ocr_needed_message`, which says how to enable it.

OCRmyPDF runs as its own process (``python -m ocrmypdf``) in a session of its own, under a
time bound: past it the whole group (OCRmyPDF and its Tesseract processes) is killed and the
file fails with a message that says so. It inherits the memory bound of the extraction child
that starts it (assets/processing/isolation.py: ``RLIMIT_AS`` applies to each process) and
dies with it. Its output PDF, the sidecar and its work folder are written to a temporary
directory removed when :func:`recognised_pages` exits.

The confidence of a page is the mean of Tesseract's word confidences (``x_wconf`` in the
hOCR it writes for each page, 0-100), as a fraction; the work folder is kept
(``--keep-temporary-files``) only to read them, inside the same temporary directory.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib.util
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from formats.errors import ExtractionFailed

# The five languages of the documents (English, German, French, Spanish, Italian), as
# Tesseract names them. English is in the base package ``tesseract-ocr``.
OCR_LANGUAGES = ("eng", "deu", "fra", "spa", "ita")
# A page with an image and fewer non-blank characters than this is a picture of a page (a
# scan, perhaps with a page number or a fax header laid over it) and is recognised. A page
# without an image is never recognised, however short its text (nothing to read there).
MIN_PAGE_CHARACTERS = 20
# How Tesseract reports the confidence of a word in hOCR: ``title="bbox ...; x_wconf 93"``.
_WORD_CONFIDENCE = re.compile(rb"x_wconf (\d+)")
# What the error says when OCRmyPDF fails: its last lines on stderr, cut to this.
_STDERR_TAIL_CHARACTERS = 300
_PR_SET_PDEATHSIG = 1


@dataclass(frozen=True, slots=True)
class OcrOptions:
    """How pictures of pages are recognised: whether at all, in which Tesseract languages,
    the time OCRmyPDF may take for one file (seconds) and the pages it works on at once."""

    enabled: bool = True
    languages: tuple[str, ...] = OCR_LANGUAGES
    timeout_seconds: float = 900
    jobs: int = 1

    def as_argument(self) -> str:
        """One command-line argument (the extraction child's), read by :meth:`from_argument`."""
        if not self.enabled:
            return "off"
        return f"{'+'.join(self.languages)}:{self.timeout_seconds:g}:{self.jobs}"

    @classmethod
    def from_argument(cls, argument: str) -> OcrOptions | None:
        if not argument:
            return None
        if argument == "off":
            return cls(enabled=False)
        languages, timeout, jobs = argument.split(":")
        return cls(
            languages=tuple(languages.split("+")), timeout_seconds=float(timeout), jobs=int(jobs)
        )


@dataclass(frozen=True, slots=True)
class PageConfidence:
    """Tesseract's mean word confidence on one page (0-1) and the words it is the mean of."""

    confidence: float
    words: int


@dataclass(slots=True)
class RecognisedPdf:
    """The PDF OCRmyPDF wrote (every page of the original, the recognised ones with their
    text) and the confidence of each recognised page, by page number (from 1)."""

    path: Path
    pages: dict[int, PageConfidence] = field(default_factory=dict)


def ocr_unavailable_reason(options: OcrOptions | None) -> str | None:
    """Why pictures of pages cannot be recognised here, or None when they can."""
    if options is None or not options.enabled:
        return "text recognition (OCR) is turned off on this server (ASSET_OCR_ENABLED)"
    if importlib.util.find_spec("ocrmypdf") is None:
        return "the `ocr` extra (OCRmyPDF) is not installed"
    if shutil.which("tesseract") is None:
        return "Tesseract is not installed"
    missing = [language for language in options.languages if language not in _installed()]
    if missing:
        return f"Tesseract has no language pack for {', '.join(missing)}"
    return None


def ocr_needed_message(reason: str) -> str:
    """Why a PDF whose pages are all pictures failed, and how to make it searchable."""
    return (
        "no text found in the file: its pages are images (a scanned PDF), which need text "
        f"recognition (OCR), and {reason}. To enable OCR, install the `ocr` extra "
        "(EXTRAS=dev,local,ocr or `pip install 'legaldocs[ocr]'`) and Tesseract with its "
        "language packs (`make system-deps` as root, or apt-get install tesseract-ocr "
        "tesseract-ocr-deu tesseract-ocr-fra tesseract-ocr-spa tesseract-ocr-ita), set "
        "ASSET_OCR_ENABLED=true, then upload the file again."
    )


def _installed() -> frozenset[str]:
    try:
        listed = subprocess.run(
            ["tesseract", "--list-langs"], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return frozenset()
    # The first line is a heading ('List of available languages in "..." (6):').
    return frozenset(line.strip() for line in listed.stdout.splitlines()[1:] if line.strip())


@contextlib.contextmanager
def recognised_pages(
    source: Path, *, pages: list[int], options: OcrOptions
) -> Iterator[RecognisedPdf]:
    """Recognise ``pages`` (numbered from 1) of the PDF ``source``; enter to get the result.

    The pages are rasterised and recognised whatever text they hold (``--mode force`` on
    those pages only: their few characters are part of the picture); the other pages are
    copied as they are. Raises ExtractionFailed when OCRmyPDF fails or takes longer than
    ``options.timeout_seconds``. Everything written is removed on exit.
    """
    with tempfile.TemporaryDirectory(prefix="ocr-") as directory:
        folder = Path(directory)
        output = folder / "recognised.pdf"
        work = folder / "work"
        work.mkdir()
        command = [
            sys.executable, "-m", "ocrmypdf",
            "--language", "+".join(options.languages),
            "--mode", "force",
            "--pages", ",".join(str(page) for page in pages),
            # A plain PDF: no PDF/A conversion (which would want Ghostscript), no optimisation;
            # the file is read once and thrown away.
            "--output-type", "pdf",
            "--optimize", "0",
            "--jobs", str(max(1, options.jobs)),
            "--keep-temporary-files",
            "--no-progress-bar",
            "--quiet",
            str(source), str(output),
        ]  # fmt: skip
        # OCRmyPDF makes its work folder with tempfile.mkdtemp: here, so it goes with the rest.
        environment = {**os.environ, "TMPDIR": str(work), "OMP_THREAD_LIMIT": "1"}
        _run(command, environment=environment, timeout=options.timeout_seconds)
        yield RecognisedPdf(path=output, pages=_page_confidences(work))


def _run(command: list[str], *, environment: dict[str, str], timeout: float) -> None:
    parent = os.getpid()
    process = subprocess.Popen(
        command,
        env=environment,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own group: a timeout kills Tesseract with it
        preexec_fn=lambda: _die_with(parent),  # the child runs no threads of its own
    )
    try:
        _, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        raise ExtractionFailed(
            f"Recognising the text of the scanned pages (OCR) took longer than {timeout:g} "
            "seconds (ASSET_OCR_TIMEOUT_SECONDS)."
        ) from None
    finally:
        if process.poll() is None:  # interrupted while waiting: never leave it running
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    if process.returncode != 0:
        tail = stderr.decode("utf-8", "replace").strip()[-_STDERR_TAIL_CHARACTERS:]
        raise ExtractionFailed(
            f"Recognising the text of the scanned pages (OCR) failed "
            f"(OCRmyPDF exit status {process.returncode}): {tail or 'no message'}"
        )


def _die_with(parent: int) -> None:
    # Run in the OCRmyPDF process before it starts: SIGKILL it when the extraction child that
    # started it dies (the child is killed at its own time bound).
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def _page_confidences(work: Path) -> dict[int, PageConfidence]:
    """The mean word confidence of each recognised page, from the hOCR of its work folder
    ("000003_ocr_hocr.hocr" is page 3)."""
    found: dict[int, PageConfidence] = {}
    for hocr in work.glob("ocrmypdf.io.*/*_ocr_hocr.hocr"):
        page = int(hocr.name.split("_", 1)[0])
        scores = [int(score) for score in _WORD_CONFIDENCE.findall(hocr.read_bytes())]
        if scores:
            found[page] = PageConfidence(
                confidence=sum(scores) / len(scores) / 100, words=len(scores)
            )
    return found
