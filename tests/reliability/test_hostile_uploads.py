"""Malformed and hostile files through the real upload path: uvicorn, storage, a worker.

Each file ends in a clear 4xx at upload, or as an asset that reaches COMPLETED or FAILED
(with a reason) within a time bound; no 5xx; the worker survives all of them and still
processes an ordinary file afterwards. File names that try to leave the organization's
storage prefix (`..`, absolute paths, backslashes, NUL) never do.

The corpus: tests/fixtures/corpus/hostile (real files from other projects' bug trackers)
plus files built here: a truncated PDF, a PDF that runs JavaScript when opened, a DOCX zip
bomb, a DOCX with an XML entity bomb, a CSV with one 20 MB line, invalid UTF-8.

Output bombs (small files whose text is thousands of times their size: a Word cell merged
down thousands of rows, a workbook whose cells all point at one long string) end FAILED, or
COMPLETED with their text once, while the data folder grows by less than the text cap.
"""

from __future__ import annotations

import io
import mimetypes
import threading
import zipfile
from contextlib import closing
from pathlib import Path

import pytest
from django.conf import settings

from assets.models import Asset, AssetChunk
from tests.assets.bombs import shared_string_xlsx, vertical_merge_docx
from tests.assets.samples import CORPUS, docx_bytes, pdf_bytes
from tests.reliability.conftest import api_client
from tests.support.live_stack import tail, wait_until

HOSTILE_CORPUS = CORPUS / "hostile"
# Generous bound for the whole corpus on a loaded 2-core machine.
SETTLE_SECONDS = 240
BILLION_LAUGHS = (
    '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
    + "".join(
        f'<!ENTITY lol{level} "{("&lol" + (str(level - 1) if level > 1 else "") + ";") * 10}">'
        for level in range(1, 10)
    )
    + ']><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
    "<w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>"
)
JAVASCRIPT_PDF = b"""%PDF-1.4
1 0 obj << /Type /Catalog /Pages 2 0 R /OpenAction 4 0 R >> endobj
2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R
  /Resources << /Font << /F1 6 0 R >> >> >> endobj
4 0 obj << /Type /Action /S /JavaScript /JS (app.alert('pwned');) >> endobj
5 0 obj << /Length 60 >> stream
BT /F1 12 Tf 72 720 Td (Privacy notice with a script) Tj ET
endstream endobj
6 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj
trailer << /Root 1 0 R /Size 7 >>
%%EOF
"""


def zip_bomb_docx() -> bytes:
    """A real DOCX plus one entry that inflates to 1 GiB (about 1 MB compressed)."""
    source = zipfile.ZipFile(io.BytesIO(docx_bytes(["An ordinary paragraph."])))
    output = io.BytesIO()
    with zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as bomb:
        for item in source.infolist():
            bomb.writestr(item, source.read(item))
        with bomb.open("word/media/padding.xml", "w", force_zip64=True) as entry:
            block = b"\0" * (1 << 20)
            for _ in range(1024):
                entry.write(block)
    return output.getvalue()


def xml_bomb_docx() -> bytes:
    source = zipfile.ZipFile(io.BytesIO(docx_bytes(["placeholder"])))
    output = io.BytesIO()
    with zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED) as bomb:
        for item in source.infolist():
            data = source.read(item)
            if item.filename == "word/document.xml":
                data = BILLION_LAUGHS.encode()
            bomb.writestr(item, data)
    return output.getvalue()


def built_files() -> dict[str, bytes]:
    pdf = pdf_bytes(["A record of processing activities."])
    return {
        "truncated.pdf": pdf[: len(pdf) // 2],
        "javascript.pdf": JAVASCRIPT_PDF,
        "zip-bomb.docx": zip_bomb_docx(),
        "xml-bomb.docx": xml_bomb_docx(),
        "giant-line.csv": b"name,value\n" + b"a," * (10 * 1024 * 1024) + b"\n",
        "invalid-utf8.txt": b"Retention \xff\xfe\xc3\x28 period \x80\x81" * 2000,
        "empty.pdf": b"",
        "not-really.pdf": b"MZ\x90\x00 an executable pretending to be a PDF" * 100,
    }


def corpus_files() -> dict[str, bytes]:
    assert HOSTILE_CORPUS.is_dir(), f"the corpus is missing: {HOSTILE_CORPUS}"
    return {path.name: path.read_bytes() for path in sorted(HOSTILE_CORPUS.iterdir())}


@pytest.fixture
def hostile_stack(stack, member):  # type: ignore[no-untyped-def]
    # One upload per file: the 10-writes-per-minute budget is not what is tested here.
    web = stack.web(RATE_LIMIT_WRITES="1000/min").start()
    worker = stack.worker(queues="ingestion").start()
    with closing(api_client(web, member, timeout=120)) as client:
        yield web, worker, client


def upload(client, name: str, content: bytes):  # type: ignore[no-untyped-def]
    content_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
    return client.post("/api/v1/assets/upload", files={"file": (name, content, content_type)})


def test_every_hostile_file_ends_in_a_clear_error_or_state_and_the_worker_survives(
    hostile_stack, member
):
    web, worker, client = hostile_stack
    main_pid = worker.process.pid
    files = {**corpus_files(), **built_files()}
    refused: dict[str, int] = {}
    accepted: dict[str, str] = {}
    for name, content in files.items():
        response = upload(client, name, content)
        assert response.status_code < 500, (name, response.text, tail(web.log_path))
        if response.status_code == 201:
            accepted[name] = response.json()["id"]
        else:
            assert response.json()["error"]["code"], name
            refused[name] = response.status_code

    def unsettled() -> list[str]:
        rows = Asset.objects.filter(pk__in=accepted.values()).values_list("pk", "status")
        statuses = {str(pk): status for pk, status in rows}
        return [name for name, pk in accepted.items() if statuses[pk] in {"UPLOADED", "PROCESSING"}]

    try:
        wait_until(lambda: not unsettled(), timeout=SETTLE_SECONDS, interval=1)
    except TimeoutError:
        raise AssertionError((unsettled(), tail(worker.log_path))) from None
    for name, asset_id in accepted.items():
        asset = Asset.objects.get(pk=asset_id)
        if asset.status == "FAILED":
            assert asset.error_code and asset.error_message, name

    assert worker.process.poll() is None and worker.process.pid == main_pid
    log = worker.log_path.read_text(errors="replace")
    assert "WorkerLostError" not in log and "exited with 'signal" not in log, tail(worker.log_path)
    ordinary = upload(client, "ordinary.txt", b"Data is kept for six years.\n" * 50)
    assert ordinary.status_code == 201
    wait_until(
        lambda: Asset.objects.get(pk=ordinary.json()["id"]).status == "COMPLETED", timeout=60
    )
    print({"refused": refused, "accepted": {n: Asset.objects.get(pk=i).status
                                            for n, i in accepted.items()}})  # fmt: skip


TRAVERSAL_NAMES = [
    "../../etc/passwd.txt",
    "/etc/passwd.txt",
    "..\\..\\windows\\win.ini.txt",
    "....//....//escape.txt",
    "notes\x00.txt",
    "..%2f..%2fencoded.txt",
    "./../.hidden.txt",
]


def test_file_names_never_take_a_stored_file_out_of_the_organizations_prefix(hostile_stack, member):
    _web, _worker, client = hostile_stack
    media_root = Path(settings.MEDIA_ROOT).resolve()
    prefix = media_root / member.organization.container_name
    before = {path for path in media_root.rglob("*") if path.is_file()}
    for index, name in enumerate(TRAVERSAL_NAMES):
        response = upload(client, name, f"Traversal attempt {index}\n".encode() * 20)
        assert response.status_code < 500, (name, response.text)
        if response.status_code != 201:
            continue
        asset = Asset.objects.get(pk=response.json()["id"])
        stored = (media_root / asset.original_file.name).resolve()
        assert stored.is_relative_to(prefix), (name, asset.original_file.name)
        assert stored.is_file(), name
        for unsafe in ("/", "\\", "\x00"):
            assert unsafe not in asset.original_file_name, (name, asset.original_file_name)
    after = {path for path in media_root.rglob("*") if path.is_file()}
    assert all(path.resolve().is_relative_to(prefix) for path in after - before)
    assert not Path("/etc/passwd.txt").exists()


# ASSET_EXTRACTED_MAX_CHARS of the live processes below: scaled down with the files.
TEXT_CAP = 1_000_000


def folder_bytes(folder: Path) -> int:
    """The bytes of every file under ``folder`` (files vanishing meanwhile count 0)."""
    total = 0
    for path in folder.rglob("*"):
        try:
            if path.is_file():
                total += path.stat().st_size
        except FileNotFoundError:
            continue
    return total


class PeakSize:
    """Samples a folder's size in a thread; ``peak`` is the largest size seen."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.peak = folder_bytes(folder)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> PeakSize:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def _sample(self) -> None:
        while not self._stop.wait(0.02):
            self.peak = max(self.peak, folder_bytes(self.folder))


def test_output_bombs_end_failed_or_with_their_text_once_and_the_data_folder_stays_under_the_cap(
    stack, member, tmp_path
):
    data = tmp_path / "data"
    environment = {
        "DATA_DIR": str(data),
        "ASSET_EXTRACTED_MAX_CHARS": str(TEXT_CAP),
        "RATE_LIMIT_WRITES": "1000/min",
    }
    web = stack.web(**environment).start()
    worker = stack.worker(queues="ingestion", **environment).start()
    files = {
        # 100,000 characters merged down 2,000 rows: 200 million characters read per row.
        "merged-cell.docx": vertical_merge_docx(rows=2000, text_length=100_000),
        # The same with a cell whose text alone passes the cap.
        "merged-cell-over-cap.docx": vertical_merge_docx(rows=500, text_length=1_200_000),
        # 400 x 10 cells of one 32,000-character string: 128 million characters of CSV.
        "shared-string.xlsx": shared_string_xlsx(rows=400, columns=10, string_length=32_000),
    }
    baseline = folder_bytes(data)
    originals = sum(len(content) for content in files.values())
    accepted: dict[str, str] = {}
    with closing(api_client(web, member, timeout=120)) as client, PeakSize(data) as size:
        for name, content in files.items():
            response = upload(client, name, content)
            assert response.status_code == 201, (name, response.text)
            accepted[name] = response.json()["id"]

        def settled() -> bool:
            # Fail at once when the folder passes the cap (the old code wrote gigabytes).
            assert size.peak - baseline - originals < TEXT_CAP, (size.peak - baseline, originals)
            statuses = Asset.objects.filter(pk__in=accepted.values()).values_list(
                "status", flat=True
            )
            return all(status in ("COMPLETED", "FAILED") for status in statuses)

        try:
            wait_until(settled, timeout=SETTLE_SECONDS, interval=0.5)
        except TimeoutError:
            raise AssertionError(tail(worker.log_path)) from None
    final = folder_bytes(data)
    assets = {name: Asset.objects.get(pk=asset_id) for name, asset_id in accepted.items()}
    print(
        {"peak_growth": size.peak - baseline, "final_growth": final - baseline,
         "originals": originals, "cap": TEXT_CAP,
         "statuses": {name: asset.status for name, asset in assets.items()}}
    )  # fmt: skip

    merged = assets["merged-cell.docx"]
    assert merged.status == "COMPLETED", merged.error_message
    kept = sum(
        len(text) for text in AssetChunk.objects.filter(asset=merged).values_list("text", flat=True)
    )
    assert 100_000 <= kept < 150_000  # the text once (with the chunks' overlap)
    for name in ("merged-cell-over-cap.docx", "shared-string.xlsx"):
        asset = assets[name]
        assert asset.status == "FAILED", name
        assert f"longer than {TEXT_CAP:,} characters" in asset.error_message, name
        assert not AssetChunk.objects.filter(asset=asset).exists(), name
        assert not asset.converted_file, name
    assert assets["shared-string.xlsx"].error_code == "CONVERSION_FAILED"
    # What stays is the uploads themselves: no result, temporary or converted file.
    assert final - baseline <= originals
    assert size.peak - baseline - originals < TEXT_CAP
