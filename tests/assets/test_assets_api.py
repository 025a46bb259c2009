"""Reading, searching, downloading and deleting assets through the API."""

from __future__ import annotations

from datetime import timedelta

import pytest

from assets import ingestion, services
from assets.models import Asset, AssetChunk, AssetStatus
from assets.work import MAX_PROCESSING_ATTEMPTS
from audit.models import AuditEvent
from common.tasks import sweep_background_work_task
from tests.assets.conftest import attempt_started, process, stored_files, upload
from tests.assets.samples import SAMPLES, all_format_samples

pytestmark = pytest.mark.django_db


def test_the_find_response_has_the_asset_but_not_its_organization_or_uploader(uploaded, dpo):
    asset = uploaded("ledger.csv", SAMPLES["ledger.csv"][0])

    body = dpo.client.get(f"/api/v1/assets/{asset.pk}").json()

    assert set(body) == {
        "id", "originalFileUrl", "originalFileName", "status", "containerName", "fileSize",
        "mediaType", "sha256", "convertedSize", "chunkCount", "embeddingProvider", "ocr", "error",
        "progress", "createdAt", "updatedAt", "completedAt",
    }  # fmt: skip
    assert body["status"] == "COMPLETED"
    assert body["error"] is None
    assert body["chunkCount"] == asset.chunks.count() >= 1
    assert body["containerName"] == dpo.organization.container_name
    assert body["originalFileUrl"] == f"http://testserver/api/v1/assets/{asset.pk}/download"
    assert body["createdAt"].endswith("Z")
    assert AuditEvent.objects.filter(action="asset.read", object_id=str(asset.pk)).exists()


def test_the_list_shows_only_the_organizations_assets_with_a_status_filter(dpo, outsider):
    done = process(upload(dpo.client, "a.txt", b"Processed text.\n").json()["id"])
    waiting = upload(dpo.client, "b.txt", b"Waiting text.\n").json()["id"]
    upload(outsider.client, "c.txt", b"Not yours.\n")

    everything = dpo.client.get("/api/v1/assets").json()
    completed = dpo.client.get("/api/v1/assets", {"status": "COMPLETED"}).json()
    first_page = dpo.client.get("/api/v1/assets", {"limit": 1}).json()

    assert {item["id"] for item in everything["assets"]} == {str(done.pk), waiting}
    assert everything["totalCount"] == 2 and everything["hasMore"] is False
    assert [item["id"] for item in completed["assets"]] == [str(done.pk)]
    assert first_page["hasMore"] is True and len(first_page["assets"]) == 1
    assert dpo.client.get("/api/v1/assets", {"status": "LOST"}).status_code == 400


def test_the_unprefixed_paths_behave_the_same(dpo):
    response = dpo.client.post(
        "/assets/upload", {"file": _file("x.txt", b"Unprefixed.\n")}, format="multipart"
    )
    assert response.status_code == 201
    assert dpo.client.get(f"/assets/{response.json()['id']}").status_code == 200


def _file(name, content):  # type: ignore[no-untyped-def]
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, content, content_type="text/plain")


def test_deleting_an_asset_leaves_no_chunk_no_vector_and_no_file(
    uploaded, dpo, django_capture_on_commit_callbacks
):
    asset = uploaded("budget.xlsx", all_format_samples()["budget.xlsx"][0])
    assert len(stored_files(dpo.organization)) == 2  # the original and its CSV
    assert AssetChunk.objects.filter(asset=asset).exists()

    with django_capture_on_commit_callbacks(execute=True):
        response = dpo.client.delete(f"/api/v1/assets/{asset.pk}")

    assert response.status_code == 204
    assert not Asset.objects.filter(pk=asset.pk).exists()
    assert not AssetChunk.objects.filter(asset_id=asset.pk).exists()
    assert stored_files(dpo.organization) == []
    assert dpo.client.get(f"/api/v1/assets/{asset.pk}").status_code == 404


def test_deleting_an_asset_read_before_its_conversion_was_stored_leaves_no_file(
    dpo, django_capture_on_commit_callbacks
):
    response = upload(dpo.client, "budget.xlsx", all_format_samples()["budget.xlsx"][0])
    read_before_processing = Asset.objects.get(pk=response.json()["id"])
    process(str(read_before_processing.pk))  # the worker stores the CSV meanwhile
    assert len(stored_files(dpo.organization)) == 2

    with django_capture_on_commit_callbacks(execute=True):
        services.asset_delete(asset=read_before_processing)

    assert stored_files(dpo.organization) == []


def test_deleting_an_asset_removes_a_converted_file_its_row_does_not_name_yet(
    dpo, django_capture_on_commit_callbacks
):
    from django.core.files.base import ContentFile

    from assets.processing import FileKind
    from assets.storage import store_file

    asset = Asset.objects.get(
        pk=upload(dpo.client, "policy.html", SAMPLES["policy.html"][0]).json()["id"]
    )
    # An attempt still running stored its text, not yet recorded on the row.
    store_file(ingestion.converted_key_of(asset, FileKind.HTML), ContentFile(b"text"))
    assert len(stored_files(dpo.organization)) == 2

    with django_capture_on_commit_callbacks(execute=True):
        assert dpo.client.delete(f"/api/v1/assets/{asset.pk}").status_code == 204

    assert stored_files(dpo.organization) == []


def test_files_the_storage_fails_to_delete_are_handed_to_a_retrying_task(
    uploaded, dpo, monkeypatch, django_capture_on_commit_callbacks
):
    asset = uploaded("notes.txt", b"Storage will refuse to delete me.\n")
    handed_over: list[list[str]] = []
    monkeypatch.setattr(services, "delete_files", _raise_storage_error)
    monkeypatch.setattr(services, "_enqueue_file_deletion", handed_over.append)

    with django_capture_on_commit_callbacks(execute=True):
        assert dpo.client.delete(f"/api/v1/assets/{asset.pk}").status_code == 204

    assert handed_over == [[asset.original_file.name]]
    assert not Asset.objects.filter(pk=asset.pk).exists()


def _raise_storage_error(keys, **kwargs):  # type: ignore[no-untyped-def]
    raise OSError("storage unavailable")


def test_search_never_returns_chunks_of_another_organization(uploaded, dpo, outsider):
    uploaded("mine.txt", b"Our retention policy for payroll records is ten years.\n")
    theirs = upload(outsider.client, "theirs.txt", b"Payroll records retention policy.\n")
    process(theirs.json()["id"])

    mine = dpo.client.get("/api/v1/assets/search", {"q": "payroll retention", "k": 50})
    other = outsider.client.get("/api/v1/assets/search", {"q": "payroll retention", "k": 50})

    assert [hit["originalFileName"] for hit in mine.json()["results"]] == ["mine.txt"]
    assert [hit["originalFileName"] for hit in other.json()["results"]] == ["theirs.txt"]
    hit = mine.json()["results"][0]
    assert set(hit) == {
        "assetId", "originalFileName", "chunkIndex", "text", "location", "score", "rankers",
        "pageNumber", "sheetName", "slideNumber", "snippet",
    }  # fmt: skip
    assert 0 < hit["score"] <= 1


def test_search_ignores_assets_that_are_not_completed(dpo):
    upload(dpo.client, "pending.txt", b"Pending asset about payroll.\n")

    assert dpo.client.get("/api/v1/assets/search", {"q": "payroll"}).json() == {"results": []}


def test_search_ranks_the_closest_chunk_first_and_is_audited(uploaded, dpo):
    uploaded("a.txt", b"Cookie banner consent records are kept for three years.\n")
    uploaded("b.txt", b"The fire extinguishers are inspected every spring.\n")

    results = dpo.client.get("/api/v1/assets/search", {"q": "cookie consent"}).json()["results"]

    assert results[0]["originalFileName"] == "a.txt"
    assert results == sorted(results, key=lambda hit: -hit["score"])
    assert AuditEvent.objects.filter(organization=dpo.organization, action="asset.search").exists()


@pytest.mark.parametrize("query", [{}, {"q": ""}, {"q": "x", "k": 0}, {"q": "x", "k": 51}])
def test_search_parameters_are_validated(dpo, query):
    response = dpo.client.get("/api/v1/assets/search", query)

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"


def test_search_answers_503_when_the_embedding_provider_is_misconfigured(dpo, settings):
    settings.EMBEDDING_PROVIDER = "no-such-provider"

    response = dpo.client.get("/api/v1/assets/search", {"q": "payroll"})

    assert response.status_code == 503
    assert response.json()["error"]["code"] == "SERVICE_UNAVAILABLE"
    assert "no-such-provider" not in response.json()["error"]["message"]


def test_search_answers_503_when_the_embedding_service_is_down(dpo, monkeypatch):
    from assets.embedding import embedding_provider

    def unreachable(text):  # type: ignore[no-untyped-def]
        raise ConnectionError("connection refused")

    monkeypatch.setattr(embedding_provider(), "embed_query", unreachable)

    response = dpo.client.get("/api/v1/assets/search", {"q": "payroll"})

    assert response.status_code == 503
    assert response.json()["error"]["code"] == "SERVICE_UNAVAILABLE"
    assert response["Retry-After"]


def test_the_download_is_an_attachment_for_the_organization_only(uploaded, dpo, outsider):
    asset = uploaded("notes.md", SAMPLES["notes.md"][0])

    response = dpo.client.get(f"/api/v1/assets/{asset.pk}/download")
    foreign = outsider.client.get(f"/api/v1/assets/{asset.pk}/download")

    assert response.status_code == 200
    assert b"".join(response.streaming_content) == SAMPLES["notes.md"][0]
    assert response["Content-Disposition"].startswith('attachment; filename="notes.md"')
    assert response["Content-Type"] == "text/markdown"
    assert foreign.status_code == 404
    assert (
        dpo.client.get(f"/api/v1/assets/{asset.pk}/download", {"file": "converted"}).status_code
        == 404
    )


def test_an_unknown_download_file_is_a_validation_error_not_the_original(uploaded, dpo):
    # The schema says `file` is `original` or `converted`; any other value served the original.
    asset = uploaded("notes.md", SAMPLES["notes.md"][0])

    response = dpo.client.get(f"/api/v1/assets/{asset.pk}/download", {"file": "bogus"})

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"
    assert "file" in response.json()["error"]["details"]


def test_processing_again_replaces_the_chunks_instead_of_adding_to_them(uploaded):
    asset = uploaded("ledger.csv", b"vendor,country\n" + b"Northwind,Iceland\n" * 400)
    first = list(asset.chunks.order_by("index").values_list("index", "text"))
    # A redelivery after the worker died: its attempt started longer ago than the timeout.
    attempt_started(str(asset.pk), ago=timedelta(hours=1))

    again = process(str(asset.pk))

    assert again.status == AssetStatus.COMPLETED
    assert list(again.chunks.order_by("index").values_list("index", "text")) == first
    assert again.chunk_count == len(first) > 1


def test_a_completed_asset_is_not_processed_twice(uploaded):
    asset = uploaded("notes.txt", b"Processed once.\n")

    assert ingestion.asset_process(asset_id=asset.pk) is None
    assert Asset.objects.get(pk=asset.pk).completed_at == asset.completed_at


def test_the_sweep_fails_an_asset_stuck_in_processing(dpo):
    from datetime import timedelta

    asset_id = upload(dpo.client, "stuck.txt", b"A worker died on me.\n").json()["id"]
    attempt_started(asset_id, ago=timedelta(hours=2))
    Asset.objects.filter(pk=asset_id).update(attempts=MAX_PROCESSING_ATTEMPTS)

    assert sweep_background_work_task()["asset"]["failed"] == 1
    asset = Asset.objects.get(pk=asset_id)
    assert asset.status == AssetStatus.FAILED
    assert asset.error_code == "EXTRACTION_FAILED"
