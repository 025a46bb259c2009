"""File-type detection: content decides, declared name and media type must agree."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from assets.processing import FileKind, InvalidFileType, detect_file_type
from tests.support.corpus import CORPUS

FOLDER_KINDS = {kind.value: kind for kind in FileKind}


def _well_formed_corpus_files() -> list[Path]:
    return sorted(p for p in CORPUS.glob("*/*") if p.parent.name in FOLDER_KINDS)


@pytest.mark.parametrize("path", _well_formed_corpus_files(), ids=lambda p: p.name)
def test_it_detects_every_well_formed_corpus_file_as_its_format(path: Path) -> None:
    kind = detect_file_type(path, declared_name=path.name, declared_content_type=None)

    assert kind is FOLDER_KINDS[path.parent.name]


@pytest.mark.parametrize("path", _well_formed_corpus_files(), ids=lambda p: p.name)
def test_it_accepts_the_canonical_media_type_it_returns(path: Path) -> None:
    kind = FOLDER_KINDS[path.parent.name]

    detected = detect_file_type(
        path, declared_name=path.name, declared_content_type=kind.media_type
    )

    assert detected.media_type == kind.media_type


def test_it_maps_htm_to_html() -> None:
    path = CORPUS / "html" / "fake-html-pre.htm"

    assert detect_file_type(path, declared_name="law.htm", declared_content_type="text/html") is (
        FileKind.HTML
    )


def _write(tmp_path: Path, name: str, content: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(content)
    return path


def _minimal_docx_bytes() -> bytes:
    import docx

    buffer = io.BytesIO()
    document = docx.Document()
    document.add_paragraph("spoof test")
    document.save(buffer)
    return buffer.getvalue()


def test_it_rejects_a_pdf_named_docx(tmp_path: Path) -> None:
    pdf = (CORPUS / "pdf" / "google-doc-document.pdf").read_bytes()
    path = _write(tmp_path, "contract.docx", pdf)

    with pytest.raises(InvalidFileType, match="PDF"):
        detect_file_type(path, declared_name="contract.docx", declared_content_type=None)


def test_it_rejects_an_executable_named_pdf(tmp_path: Path) -> None:
    path = _write(tmp_path, "invoice.pdf", b"MZ\x90\x00\x03\x00\x00\x00\x04\x00" + bytes(500))

    with pytest.raises(InvalidFileType):
        detect_file_type(path, declared_name="invoice.pdf", declared_content_type="application/pdf")


def test_it_rejects_an_elf_binary_named_txt(tmp_path: Path) -> None:
    path = _write(tmp_path, "notes.txt", b"\x7fELF\x02\x01\x01" + bytes(range(256)) * 4)

    with pytest.raises(InvalidFileType, match="binary"):
        detect_file_type(path, declared_name="notes.txt", declared_content_type="text/plain")


def test_it_rejects_a_docx_declared_as_csv(tmp_path: Path) -> None:
    path = _write(tmp_path, "report.docx", _minimal_docx_bytes())

    with pytest.raises(InvalidFileType, match="text/csv"):
        detect_file_type(path, declared_name="report.docx", declared_content_type="text/csv")


def test_it_rejects_a_docx_renamed_to_xlsx(tmp_path: Path) -> None:
    path = _write(tmp_path, "sheet.xlsx", _minimal_docx_bytes())

    with pytest.raises(InvalidFileType, match="DOCX"):
        detect_file_type(path, declared_name="sheet.xlsx", declared_content_type=None)


def test_it_rejects_plain_text_named_pdf(tmp_path: Path) -> None:
    path = _write(tmp_path, "fake.pdf", b"just some words, no PDF here\n")

    with pytest.raises(InvalidFileType, match="plain text"):
        detect_file_type(path, declared_name="fake.pdf", declared_content_type=None)


def test_it_rejects_an_extension_that_is_not_accepted(tmp_path: Path) -> None:
    path = _write(tmp_path, "tool.exe", b"hello")

    with pytest.raises(InvalidFileType, match=r"\.exe"):
        detect_file_type(path, declared_name="tool.exe", declared_content_type=None)


def test_it_rejects_a_zip_that_is_not_an_office_document(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("readme.txt", "hello")
    path = _write(tmp_path, "archive.docx", buffer.getvalue())

    with pytest.raises(InvalidFileType, match="not an Office"):
        detect_file_type(path, declared_name="archive.docx", declared_content_type=None)


def test_it_rejects_a_macro_enabled_document_renamed_docx(tmp_path: Path) -> None:
    source = zipfile.ZipFile(io.BytesIO(_minimal_docx_bytes()))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for item in source.infolist():
            data = source.read(item)
            if item.filename == "[Content_Types].xml":
                data = data.replace(
                    b"wordprocessingml.document.main+xml",
                    b"application/vnd.ms-word.document.macroEnabled.main+xml",
                )
            archive.writestr(item, data)
    path = _write(tmp_path, "macro.docx", buffer.getvalue())

    with pytest.raises(InvalidFileType, match="macro"):
        detect_file_type(path, declared_name="macro.docx", declared_content_type=None)


@pytest.mark.parametrize("name", ["bug53475-password-is-pass.docx", "password_protected.xlsx"])
def test_it_reports_a_password_protected_office_file_as_encrypted(name: str) -> None:
    path = CORPUS / "hostile" / name

    with pytest.raises(InvalidFileType, match="password-protected"):
        detect_file_type(path, declared_name=name, declared_content_type=None)


def test_it_accepts_a_generic_octet_stream_type_and_trusts_content_and_extension() -> None:
    path = CORPUS / "xlsx" / "vodafone.xlsx"

    kind = detect_file_type(
        path, declared_name="vodafone.xlsx", declared_content_type="application/octet-stream"
    )

    assert kind is FileKind.XLSX


@pytest.mark.parametrize(
    ("name", "content_type", "expected"),
    [
        ("table.txt", "text/plain", FileKind.TXT),
        ("table.csv", "application/vnd.ms-excel", FileKind.CSV),
        ("table.md", "text/markdown; charset=utf-8", FileKind.MD),
        ("table.csv", "text/plain", FileKind.CSV),
    ],
)
def test_it_lets_text_kinds_stand_in_for_each_other(
    name: str, content_type: str, expected: FileKind
) -> None:
    path = CORPUS / "csv" / "stanley-cups.csv"

    assert (
        detect_file_type(path, declared_name=name, declared_content_type=content_type) is expected
    )


def test_it_rejects_a_csv_declared_as_a_pdf_media_type() -> None:
    path = CORPUS / "csv" / "stanley-cups.csv"

    with pytest.raises(InvalidFileType, match="application/pdf"):
        detect_file_type(path, declared_name="t.csv", declared_content_type="application/pdf")


def test_it_detects_html_by_markup_when_the_name_has_no_extension() -> None:
    path = CORPUS / "html" / "fake-html.html"

    assert detect_file_type(path, declared_name="page", declared_content_type=None) is FileKind.HTML


@pytest.mark.parametrize(
    "name",
    [
        "fake-text-utf-16.txt",
        "fake-text-utf-16-be.txt",
        "fake-text-utf-32.txt",
        "stanley-cups-utf-16.csv",
        "umlauts-non-utf8.md",
        "example-steelJIS-datasheet-utf-16.html",
    ],
)
def test_it_accepts_text_in_utf16_utf32_and_latin1_as_text(name: str) -> None:
    path = CORPUS / "hostile" / name

    kind = detect_file_type(path, declared_name=name, declared_content_type=None)

    assert kind.value == Path(name).suffix.lstrip(".")
