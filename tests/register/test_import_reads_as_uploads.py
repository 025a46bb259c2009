"""The register import reads a file by the rules of an asset upload (the formats package):
the same zip-bomb check, the same refusal of bytes that are not text, the same encoding
detection. Each case is put to both and their answers compared."""

from __future__ import annotations

import io
import zipfile

import pytest
from openpyxl import Workbook

from formats import ConversionFailed, FileKind, InvalidFileType, detect_file_type, extract_segments
from register.importing.errors import RegisterFileType, RegisterFileUnreadable
from register.importing.reading import read_register_file

HEADER = ["Name", "Purpose", "Legal basis"]


def workbook_with_a_zip_bomb_member() -> bytes:
    """A real register workbook plus a member of 11 MiB of zeros: about 1,000 times its
    compressed size, five times the ratio an Office container may have."""
    workbook = Workbook()
    workbook.active.append(HEADER)
    workbook.active.append(["Payroll", "Salaries", "contract"])
    buffer = io.BytesIO()
    workbook.save(buffer)
    with zipfile.ZipFile(buffer, "a", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/media/padding.bin", bytes(11 * 1024 * 1024))
    return buffer.getvalue()


def test_it_refuses_a_zip_bomb_workbook_as_an_asset_upload_refuses_it(tmp_path):
    content = workbook_with_a_zip_bomb_member()
    path = tmp_path / "register.xlsx"
    path.write_bytes(content)
    assert detect_file_type(path, declared_name=path.name, declared_content_type=None) is (
        FileKind.XLSX
    )
    with pytest.raises(ConversionFailed) as upload:
        list(extract_segments(path, FileKind.XLSX))

    with pytest.raises(RegisterFileUnreadable) as register:
        read_register_file(content=content, file_name="register.xlsx")

    assert "refusing a likely zip bomb" in upload.value.message
    assert register.value.message == upload.value.message


def test_it_refuses_a_csv_of_control_bytes_as_an_asset_upload_refuses_it(tmp_path):
    # No NUL byte, valid UTF-8: nothing a person wrote, though (a file saved in a binary
    # format, or one mis-encoded on its way).
    content = b"Name;Purpose\n" + bytes(range(1, 9)) * 200 + b"\n"
    path = tmp_path / "register.csv"
    path.write_bytes(content)
    with pytest.raises(InvalidFileType) as upload:
        detect_file_type(path, declared_name=path.name, declared_content_type="text/csv")

    with pytest.raises(RegisterFileType) as register:
        read_register_file(content=content, file_name="register.csv")

    assert upload.value.message in register.value.message


def test_it_reads_a_csv_in_utf16_without_a_byte_order_mark_as_an_asset_upload_does(tmp_path):
    text = "Traitement;Finalité\nPaie;Salaires\n"
    content = text.encode("utf-16-le")
    path = tmp_path / "registre.csv"
    path.write_bytes(content)
    kind = detect_file_type(path, declared_name=path.name, declared_content_type=None)

    (sheet,) = read_register_file(content=content, file_name="registre.csv")

    assert "".join(segment.text for segment in extract_segments(path, kind)) == text
    assert sheet.rows == ((1, ("Traitement", "Finalité")), (2, ("Paie", "Salaires")))
