"""Scanned PDFs (issue 29, item 4): pages that are pictures are recognised by OCR (OCRmyPDF
and Tesseract, the `ocr` extra and `make system-deps`), searchable like any text, and the
asset says OCR was applied and with what confidence; without OCR, the failure says how to
enable it.

The scans are made here: German text drawn with the DejaVu font the repository ships onto an
image, saved as a PDF by Pillow (no text layer). The tests that run Tesseract are `tool`.
"""

from __future__ import annotations

import io
import time
from pathlib import Path

import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pytest
from PIL import Image, ImageDraw, ImageFont
from pypdf import PdfReader, PdfWriter

from assets.models import AssetStatus
from assets.processing.ocr import OcrTally
from formats.errors import ExtractionFailed
from formats.ocr import OcrOptions, recognised_pages
from formats.segments import Segment
from tests.assets.conftest import process, upload
from tests.assets.samples import pdf_bytes
from tests.support.debian import require_debian_tool

pytestmark = pytest.mark.django_db

FONTS_DIR = Path(__file__).resolve().parents[2] / "legal_documents" / "fonts"

# A letter about a data processing agreement, as a DPO receives it scanned.
GERMAN_LETTER = [
    "Auftragsverarbeitungsvertrag gemäß Art. 28 DSGVO",
    "zwischen der Musterfirma GmbH und der Beispiel AG.",
    "Der Auftragnehmer verarbeitet personenbezogene Daten",
    "ausschließlich auf dokumentierte Weisung des Verantwortlichen.",
    "Die Vertraulichkeit der Beschäftigten ist gewährleistet.",
]
GERMAN_PHRASE = "dokumentierte Weisung des Verantwortlichen"


@pytest.fixture
def tesseract() -> None:
    """Tesseract and the German pack, as `make system-deps` installs them (never a skip)."""
    require_debian_tool("tesseract", "tesseract-ocr")
    for language in ("deu", "fra", "spa", "ita"):
        if not Path(f"/usr/share/tesseract-ocr/5/tessdata/{language}.traineddata").exists():
            pytest.fail(f"run `make system-deps` (as root): tesseract-ocr-{language} is missing")


def scanned_pdf(lines: list[str], *, pages: int = 1) -> bytes:
    """An image-only PDF: each page an A4 picture at 300 dpi of ``lines`` (no text layer)."""
    font = ImageFont.truetype(str(FONTS_DIR / "DejaVuSans.ttf"), 40)
    images = []
    for _ in range(pages):
        image = Image.new("L", (2480, 3508), 255)
        draw = ImageDraw.Draw(image)
        for number, line in enumerate(lines):
            draw.text((200, 300 + number * 80), line, font=font, fill=0)
        images.append(image)
    output = io.BytesIO()
    images[0].save(output, format="PDF", resolution=300, save_all=True, append_images=images[1:])
    return output.getvalue()


def text_of(content: bytes) -> str:
    document = pdfium.PdfDocument(content)
    try:
        return "".join(page.get_textpage().get_text_range() for page in document)
    finally:
        document.close()


@pytest.mark.tool
def test_it_finds_a_scanned_german_pdf_by_a_german_phrase_after_ocr(dpo, tesseract):
    scan = scanned_pdf(GERMAN_LETTER)
    assert text_of(scan).strip() == ""  # a picture: nothing to read without OCR

    response = upload(dpo.client, "avv-scan.pdf", scan)
    assert response.status_code == 201, response.content
    asset = process(response.json()["id"])

    assert asset.status == AssetStatus.COMPLETED, asset.error_message
    body = dpo.client.get(f"/api/v1/assets/{asset.pk}").json()
    assert body["ocr"]["applied"] is True
    assert body["ocr"]["pages"] == 1
    assert body["ocr"]["languages"] == ["eng", "deu", "fra", "spa", "ita"]
    assert 0.7 <= body["ocr"]["confidence"] <= 1
    hits = dpo.client.get(
        "/api/v1/assets/search", {"q": f'"{GERMAN_PHRASE}"', "mode": "text"}
    ).json()["results"]
    assert [(hit["assetId"], hit["pageNumber"]) for hit in hits] == [(str(asset.pk), 1)]
    assert "ausschließlich" in hits[0]["text"]  # German letters recognised as such


@pytest.mark.tool
def test_it_recognises_only_the_scanned_page_of_a_mixed_pdf_and_keeps_the_page_order(
    dpo, tesseract
):
    writer = PdfWriter()
    for part in (pdf_bytes(["Cover letter of the signed agreement"]), scanned_pdf(GERMAN_LETTER)):
        for page in PdfReader(io.BytesIO(part)).pages:
            writer.add_page(page)
    mixed = io.BytesIO()
    writer.write(mixed)

    asset = process(upload(dpo.client, "signed-avv.pdf", mixed.getvalue()).json()["id"])

    assert asset.status == AssetStatus.COMPLETED, asset.error_message
    assert asset.ocr is not None and asset.ocr["pages"] == 1
    chunks = list(asset.chunks.order_by("index").values_list("page_number", "text"))
    assert [page for page, _ in chunks] == [1, 2]
    assert "Cover letter" in chunks[0][1] and "Weisung" in chunks[1][1]


def test_a_pdf_with_a_text_layer_is_not_recognised(dpo):
    asset = process(
        upload(dpo.client, "policy.pdf", pdf_bytes(["Retention of payroll"])).json()["id"]
    )

    body = dpo.client.get(f"/api/v1/assets/{asset.pk}").json()
    assert body["status"] == "COMPLETED"
    assert body["ocr"] == {"applied": False, "confidence": None, "languages": [], "pages": 0}


def test_without_ocr_a_scanned_pdf_fails_with_how_to_enable_it(dpo, settings):
    settings.ASSET_OCR_ENABLED = False

    asset_id = upload(dpo.client, "avv-scan.pdf", scanned_pdf(GERMAN_LETTER)).json()["id"]
    process(asset_id)

    body = dpo.client.get(f"/api/v1/assets/{asset_id}").json()
    assert body["status"] == "FAILED"
    assert body["error"]["code"] == "EXTRACTION_FAILED"
    message = body["error"]["message"]
    assert message.startswith("no text found in the file")
    assert "turned off" in message and "ASSET_OCR_ENABLED" in message
    assert "`ocr` extra" in message and "make system-deps" in message and "tesseract-ocr" in message
    assert body["ocr"]["applied"] is False


def test_without_a_language_pack_the_failure_names_it(dpo, settings):
    settings.ASSET_OCR_LANGUAGES = "eng+deu+xyz"

    asset_id = upload(dpo.client, "avv-scan.pdf", scanned_pdf(GERMAN_LETTER)).json()["id"]
    process(asset_id)

    body = dpo.client.get(f"/api/v1/assets/{asset_id}").json()
    assert body["status"] == "FAILED"
    assert "no language pack for xyz" in body["error"]["message"]


@pytest.mark.tool
def test_ocr_past_its_time_bound_fails_and_leaves_nothing(tmp_path, monkeypatch, tesseract):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    source = tmp_path / "scan.pdf"
    source.write_bytes(scanned_pdf(GERMAN_LETTER, pages=3))
    started = time.monotonic()

    with (
        pytest.raises(ExtractionFailed, match=r"took longer than 0\.5 seconds"),
        recognised_pages(source, pages=[1, 2, 3], options=OcrOptions(timeout_seconds=0.5)),
    ):
        pass  # pragma: no cover - never reached

    assert time.monotonic() - started < 10
    assert sorted(path.name for path in tmp_path.iterdir()) == ["scan.pdf"]


def test_the_confidence_is_the_mean_over_every_recognised_word():
    tally = OcrTally(languages=("eng", "deu"))
    segments = [
        Segment("text page\n", "page 1"),
        Segment("a few words\n", "page 2", ocr_confidence=0.5, ocr_words=3),
        Segment("many words\n", "page 3", ocr_confidence=0.9, ocr_words=97),
    ]

    assert list(tally.counted(segments)) == segments
    assert tally.summary() == {
        "applied": True, "confidence": 0.888, "languages": ["eng", "deu"], "pages": 2,
    }  # fmt: skip
    assert OcrTally(languages=("eng",)).summary() is None
