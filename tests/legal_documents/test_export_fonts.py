"""PDF and DOCX exports carry their fonts: ß é ñ à render on any machine, in every language."""

from __future__ import annotations

import io
import zipfile
from datetime import UTC, datetime
from typing import Any

import pypdf
import pytest
from lxml import etree
from reportlab.pdfbase.ttfonts import TTFontFile

import gdpr
from legal_documents.exports import ExportMeta, export_document
from legal_documents.exports.docx_fonts import FONT_NAME, obfuscate
from tests.legal_documents.samples import FIXED_NOW, FULL_ANSWERS, FULL_INPUTS

LETTERS = "ß é ñ à"
LINE = "Straße, café, España, città: ß é ñ à Ł ø."
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"


def _document(language: str) -> tuple[str, ExportMeta]:
    markdown = gdpr.compose(
        document_type=gdpr.get_document_type("PRIVACY_POLICY"),
        inputs=FULL_INPUTS["PRIVACY_POLICY"],
        answers=FULL_ANSWERS["PRIVACY_POLICY"],
        now=FIXED_NOW,
        language=language,
    )
    markdown = markdown.replace("\n", f"\n\n{LINE}\n", 1)
    meta = ExportMeta(
        organization_name="Müller Société España Città",
        document_title="Datenschutzerklärung",
        document_type="PRIVACY_POLICY",
        version=1,
        stage="draft",
        created_at=datetime(2026, 3, 2, tzinfo=UTC),
        updated_at=datetime(2026, 3, 2, tzinfo=UTC),
        content_sha256="0" * 64,
        ruleset_version="privacy-2026.2",
        language=language,
    )
    return markdown, meta


@pytest.mark.parametrize("language", gdpr.i18n.SUPPORTED_LANGUAGES)
def test_the_pdf_renders_the_letters_with_its_embedded_font(language: str) -> None:
    markdown, meta = _document(language)
    reader = pypdf.PdfReader(io.BytesIO(export_document(markdown, meta, "pdf").content))
    drawn: list[tuple[str, Any]] = []

    def visit(text: str, _cm: Any, _tm: Any, font: Any, _size: Any) -> None:
        if text.strip():
            drawn.append((text, font))

    text = "\n".join(page.extract_text(visitor_text=visit) for page in reader.pages)
    assert LINE in text
    assert "Müller Société España Città" in text
    # Every piece of text with a letter beyond ASCII is drawn with an embedded DejaVu font
    # (list bullets come from the standard Symbol font, which has them)
    # (a base-14 font such as Helvetica has no Ł and is not embedded).
    accented = [
        (piece, font) for piece, font in drawn if any(c.isalpha() and ord(c) > 127 for c in piece)
    ]
    assert accented
    for piece, font in accented:
        assert "DejaVu" in str(font["/BaseFont"]), piece
        descendant = (
            font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
        )
        assert "/FontFile2" in descendant["/FontDescriptor"].get_object()


def test_the_docx_embeds_the_font_that_draws_the_letters() -> None:
    markdown, meta = _document("es")
    archive = zipfile.ZipFile(io.BytesIO(export_document(markdown, meta, "docx").content))
    assert LINE in archive.read("word/document.xml").decode()
    settings = etree.fromstring(archive.read("word/settings.xml"))
    assert settings.find(f"{W}embedTrueTypeFonts") is not None
    table = etree.fromstring(archive.read("word/fontTable.xml"))
    entry = next(font for font in table if font.get(f"{W}name") == FONT_NAME)
    relations = etree.fromstring(archive.read("word/_rels/fontTable.xml.rels"))
    targets = {rel.get("Id"): rel.get("Target") for rel in relations}
    embedded = [child for child in entry if child.tag.startswith(f"{W}embed")]
    assert {child.tag for child in embedded} == {f"{W}embedRegular", f"{W}embedBold"}
    for child in embedded:
        stored = archive.read("word/" + targets[child.get(f"{R}id")])
        font = TTFontFile(io.BytesIO(obfuscate(stored, child.get(f"{W}fontKey"))))
        name = font.name.decode() if isinstance(font.name, bytes) else font.name
        assert name.startswith("DejaVuSans")
        for letter in LETTERS.split():
            assert ord(letter) in font.charToGlyph
    styles = archive.read("word/styles.xml").decode()
    assert f'w:ascii="{FONT_NAME}"' in styles
    assert "asciiTheme" not in styles
    content_types = archive.read("[Content_Types].xml").decode()
    assert "application/vnd.openxmlformats-officedocument.obfuscatedFont" in content_types
