"""Uploading assets through the API: formats, conversions, type checks, dedupe, failures."""

from __future__ import annotations

import zipfile
from io import BytesIO

import pytest
from django.core.files.storage import FileSystemStorage
from kombu.exceptions import OperationalError as KombuOperationalError

from assets.models import Asset, AssetChunk, AssetStatus
from assets.storage import asset_storage
from assets.tasks import process_asset_task
from assets.uploads import sanitize_file_name
from audit.models import AuditEvent
from tests.assets.conftest import UPLOAD_URL, process, stored_files, upload
from tests.assets.samples import all_format_samples, corpus_file, pdf_bytes, xlsx_bytes

pytestmark = pytest.mark.django_db
SAMPLES = all_format_samples()


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_accepted_format_is_uploaded_processed_and_searchable(dpo, name):
    content, phrase = SAMPLES[name]
    response = upload(dpo.client, name, content)

    assert response.status_code == 201, response.content
    body = response.json()
    assert set(body) == {
        "id", "originalFileUrl", "originalFileName", "status", "containerName",
        "organizationId", "dpoUserId", "fileSize", "mediaType", "sha256", "convertedSize",
        "chunkCount", "embeddingProvider", "ocr", "error", "progress", "createdAt", "updatedAt",
        "completedAt", "duplicate",
    }  # fmt: skip
    assert body["status"] == "UPLOADED"
    assert body["fileSize"] == len(content)
    assert body["duplicate"] is False
    assert process(body["id"]).status == AssetStatus.COMPLETED

    found = dpo.client.get("/api/v1/assets/search", {"q": phrase, "k": 3}).json()["results"]
    assert found[0]["assetId"] == body["id"]
    assert phrase in " ".join(hit["text"] for hit in found)


def test_the_upload_response_names_the_detected_media_type(dpo):
    response = upload(dpo.client, "budget.xlsx", SAMPLES["budget.xlsx"][0], "application/zip")

    assert response.json()["mediaType"] == (
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )


def test_a_workbook_is_stored_converted_to_csv_with_every_sheet(dpo):
    asset = process(upload(dpo.client, "budget.xlsx", SAMPLES["budget.xlsx"][0]).json()["id"])

    assert asset.converted_file.name.endswith("/converted.csv")
    converted = dpo.client.get(f"/api/v1/assets/{asset.pk}/download", {"file": "converted"})
    text = b"".join(converted.streaming_content).decode()
    assert "## Sheet: Revenue\nRegion,Amount\nNordics,1200" in text
    assert "## Sheet: Costs\nItem,Amount\nHosting Zurich,300" in text
    assert asset.converted_size == len(text.encode())
    locations = set(asset.chunks.values_list("location", flat=True))
    assert locations == {"sheet Revenue", "sheet Costs"}


def test_html_is_stored_converted_to_text_without_scripts_or_styles(dpo):
    asset = process(upload(dpo.client, "policy.html", SAMPLES["policy.html"][0]).json()["id"])

    response = dpo.client.get(f"/api/v1/assets/{asset.pk}/download", {"file": "converted"})
    text = b"".join(response.streaming_content).decode()
    assert "Retention schedule\n- Invoices: ten years\n- Applications: six months" in text
    assert "secret" not in text and "color" not in text
    assert asset.converted_file.name.endswith("/converted.txt")


def test_pdf_chunks_keep_their_page_numbers(dpo):
    content = pdf_bytes(["Alpha clause on page one", "Beta clause on page two", "Gamma three"])
    asset = process(upload(dpo.client, "three.pdf", content).json()["id"])

    chunks = {chunk.location: chunk.text for chunk in asset.chunks.all()}
    assert "Beta clause" in chunks["page 2"]
    assert "Gamma three" in chunks["page 3"]
    hits = dpo.client.get("/api/v1/assets/search", {"q": "Beta clause", "k": 1}).json()
    assert hits["results"][0]["location"] == "page 2"


CORPUS_FILES = [
    ("pdf/pdflatex-4-pages.pdf", "Huardest gefburn"),
    ("docx/handbook-1p.docx", "United States Trustee Program"),
    ("pptx/simple.pptx", "Where have all the flowers gone?"),
    ("xlsx/stanley-cups.xlsx", "Maple Leafs"),
    ("csv/constituents.csv", "Berkshire Hathaway"),
    ("txt/book-war-and-peace-1p.txt", "Genoa and Lucca"),
    ("md/umlauts-utf8.md", None),
    ("html/example-with-scripts.html", None),
]


@pytest.mark.parametrize(("relative", "phrase"), CORPUS_FILES)
def test_real_world_files_of_the_corpus_are_processed(dpo, relative, phrase):
    path = corpus_file(relative)
    asset = process(upload(dpo.client, path.name, path.read_bytes()).json()["id"])

    assert asset.status == AssetStatus.COMPLETED, asset.error_message
    assert asset.chunk_count == asset.chunks.count() > 0
    if phrase:
        text = " ".join(" ".join(asset.chunks.values_list("text", flat=True)).split())
        assert phrase in text


@pytest.mark.parametrize(
    ("name", "content", "content_type"),
    [
        ("contract.docx", pdf_bytes(["a PDF in disguise"]), None),
        ("report.pdf", b"MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff" * 10, None),
        ("tool.exe", b"plain text", None),
        ("notes.txt", b"plain text", "application/pdf"),
        ("budget.xlsx", b"just,a,csv\n1,2,3\n", None),
    ],
)
def test_a_file_whose_content_contradicts_its_name_or_type_is_refused_with_415(
    dpo, name, content, content_type
):
    response = upload(dpo.client, name, content, content_type)

    assert response.status_code == 415, response.content
    assert response.json()["error"]["code"] == "INVALID_FILE_TYPE"
    assert not Asset.objects.filter(organization=dpo.organization).exists()
    assert stored_files(dpo.organization) == []


def test_an_upload_without_a_file_part_is_a_validation_error(dpo):
    response = dpo.client.post(UPLOAD_URL, {"other": "value"}, format="multipart")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"
    assert "file" in response.json()["error"]["details"]


def test_the_same_content_twice_returns_the_existing_asset_without_a_second_copy(dpo):
    first = upload(dpo.client, "notes.txt", b"Same bytes, twice.\n").json()
    second = upload(dpo.client, "renamed.txt", b"Same bytes, twice.\n")

    assert second.status_code == 201
    assert second.json()["id"] == first["id"]
    assert second.json()["duplicate"] is True
    assert second.json()["originalFileName"] == "notes.txt"
    assert Asset.objects.filter(organization=dpo.organization).count() == 1
    assert len(stored_files(dpo.organization)) == 1


def test_the_same_content_in_another_organization_is_its_own_asset(dpo, outsider):
    mine = upload(dpo.client, "notes.txt", b"Shared bytes.\n").json()
    theirs = upload(outsider.client, "notes.txt", b"Shared bytes.\n").json()

    assert theirs["duplicate"] is False
    assert theirs["id"] != mine["id"]


def test_a_broken_workbook_fails_with_the_conversion_formats_in_the_api(dpo):
    path = corpus_file("hostile/poc-xmlbomb.xlsx")
    asset_id = upload(dpo.client, path.name, path.read_bytes()).json()["id"]
    process(asset_id)

    body = dpo.client.get(f"/api/v1/assets/{asset_id}").json()
    assert body["status"] == "FAILED"
    assert body["error"]["code"] == "CONVERSION_FAILED"
    assert body["error"]["details"] == {"originalFormat": "xlsx", "targetFormat": "csv"}
    assert body["error"]["message"]
    assert body["chunkCount"] == 0
    assert not AssetChunk.objects.filter(asset_id=asset_id).exists()


def test_a_workbook_with_a_damaged_sheet_fails_as_a_conversion_built_here(dpo):
    good = zipfile.ZipFile(BytesIO(xlsx_bytes({"Data": [["a", "b"]]})))
    damaged = BytesIO()
    with zipfile.ZipFile(damaged, "w") as archive:
        for item in good.infolist():
            data = good.read(item)
            if item.filename == "xl/worksheets/sheet1.xml":
                data = data[: len(data) // 2]  # cut in the middle of the XML
            archive.writestr(item, data)
    asset_id = upload(dpo.client, "damaged.xlsx", damaged.getvalue()).json()["id"]

    asset = process(asset_id)

    assert asset.status == AssetStatus.FAILED
    assert asset.error_code == "CONVERSION_FAILED"
    assert asset.error_details == {"originalFormat": "xlsx", "targetFormat": "csv"}
    assert not asset.converted_file.name
    assert [path.name for path in stored_files(dpo.organization)] == ["original.xlsx"]


def test_a_file_without_text_fails_with_extraction_failed(dpo):
    asset = process(upload(dpo.client, "blank.txt", b"   \n\n  \n").json()["id"])

    body = dpo.client.get(f"/api/v1/assets/{asset.pk}").json()
    assert body["status"] == "FAILED"
    assert body["error"]["code"] == "EXTRACTION_FAILED"
    assert "no text" in body["error"]["message"]


def test_a_storage_failure_mid_upload_leaves_no_asset_and_no_file(dpo, monkeypatch):
    def failing_save(storage, name, content):  # type: ignore[no-untyped-def]
        path = storage.path(name)
        __import__("os").makedirs(__import__("os").path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:  # noqa: PTH123 - mimic a partial write
            handle.write(b"half of the fi")
        raise OSError("disk full")

    monkeypatch.setattr(FileSystemStorage, "_save", failing_save)
    response = upload(dpo.client, "notes.txt", b"This will not be stored.\n")

    assert response.status_code == 503
    assert response.json()["error"]["code"] == "SERVICE_UNAVAILABLE"
    assert not Asset.objects.filter(organization=dpo.organization).exists()
    assert stored_files(dpo.organization) == []


def test_a_database_failure_after_storing_deletes_the_stored_file(dpo, monkeypatch):
    def failing_save(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        raise RuntimeError("database went away")

    monkeypatch.setattr(Asset, "save", failing_save)
    response = upload(dpo.client, "notes.txt", b"Stored, then rolled back.\n")

    assert response.status_code == 500
    assert response.json()["error"]["code"] == "INTERNAL_ERROR"
    assert stored_files(dpo.organization) == []


def broker_down(*args, **kwargs):  # type: ignore[no-untyped-def]
    raise KombuOperationalError("Error 111 connecting to localhost:6379. Connection refused.")


@pytest.mark.django_db(transaction=True)  # on_commit runs as the upload's transaction ends
def test_an_upload_stands_when_the_broker_is_down_and_is_processed_later(dpo, monkeypatch):
    monkeypatch.setattr(process_asset_task, "delay", broker_down)

    response = upload(dpo.client, "notes.txt", b"Uploaded while the broker is down.\n")

    assert response.status_code == 201, response.content
    asset = Asset.objects.get(pk=response.json()["id"])
    assert asset.status == AssetStatus.UPLOADED
    assert [path.name for path in stored_files(dpo.organization)] == ["original.txt"]
    # The sweeper of background work sends its task again once the broker is back.
    assert process(str(asset.pk)).status == AssetStatus.COMPLETED


def test_the_content_of_a_failed_asset_uploaded_again_is_processed_again(
    dpo, monkeypatch, django_capture_on_commit_callbacks
):
    content = b"Processed while the embedding service was down.\n"
    first = upload(dpo.client, "notes.txt", content).json()
    Asset.objects.filter(pk=first["id"]).update(
        status=AssetStatus.FAILED, error_code="EXTRACTION_FAILED", error_message="Unavailable."
    )
    enqueued: list[str] = []
    monkeypatch.setattr(process_asset_task, "delay", enqueued.append)

    with django_capture_on_commit_callbacks(execute=True):
        again = upload(dpo.client, "notes.txt", content).json()

    assert again["id"] == first["id"] and again["duplicate"] is True
    assert again["status"] == "UPLOADED"
    assert enqueued == [first["id"]]
    assert process(first["id"]).status == AssetStatus.COMPLETED
    assert dpo.client.get(f"/api/v1/assets/{first['id']}").json()["error"] is None


def test_the_content_of_an_asset_whose_file_is_gone_uploaded_again_restores_it(
    dpo, monkeypatch, django_capture_on_commit_callbacks
):
    content = b"Stored, then lost by the storage.\n"
    first = upload(dpo.client, "notes.txt", content).json()
    asset = Asset.objects.get(pk=first["id"])
    asset_storage().delete(asset.original_file.name)
    monkeypatch.setattr(process_asset_task, "delay", lambda asset_id: None)

    with django_capture_on_commit_callbacks(execute=True):
        again = upload(dpo.client, "renamed.txt", content).json()

    assert again["id"] == first["id"] and again["duplicate"] is True
    with asset_storage().open(asset.original_file.name, "rb") as restored:
        assert restored.read() == content
    assert len(stored_files(dpo.organization)) == 1
    assert process(first["id"]).status == AssetStatus.COMPLETED


def test_the_content_of_a_working_asset_uploaded_again_is_not_processed_again(
    dpo, monkeypatch, django_capture_on_commit_callbacks
):
    first = upload(dpo.client, "notes.txt", b"Uploaded twice.\n").json()
    process(first["id"])
    enqueued: list[str] = []
    monkeypatch.setattr(process_asset_task, "delay", enqueued.append)

    with django_capture_on_commit_callbacks(execute=True):
        again = upload(dpo.client, "notes.txt", b"Uploaded twice.\n").json()

    assert again["status"] == "COMPLETED" and again["duplicate"] is True
    assert enqueued == []


def test_an_auditor_cannot_upload(auditor):
    response = upload(auditor.client, "notes.txt", b"Auditors read only.\n")

    assert response.status_code == 403
    assert response.json()["error"]["code"] == "PERMISSION_DENIED"


def test_an_upload_is_audited_with_the_asset_id(dpo):
    asset_id = upload(dpo.client, "notes.txt", b"Audited upload.\n").json()["id"]

    event = AuditEvent.objects.get(organization=dpo.organization, action="asset.upload")
    assert event.object_id == asset_id
    assert event.outcome == "allowed"


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("../../etc/passwd.txt", "passwd.txt"),
        ("C:\\Users\\dpo\\Desktop\\report.pdf", "report.pdf"),
        ("inv\x00oi\x1bce.csv", "invoice.csv"),
        ("..", "upload"),
        (".hidden.md", "hidden.md"),
        ("a" * 300 + ".docx", "a" * 195 + ".docx"),
        ('what<>:"|?*.txt', "what_______.txt"),
    ],
)
def test_file_names_are_stored_without_paths_controls_or_excess_length(given, kept):
    assert sanitize_file_name(given) == kept
