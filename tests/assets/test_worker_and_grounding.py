"""End to end through a real Celery worker, and grounding of generated documents."""

from __future__ import annotations

import time

import pytest

from assets import embedding
from assets.models import Asset, AssetStatus
from assets.processing.errors import EmbeddingProviderUnavailable
from legal_documents.grounding import sources_for_document
from legal_documents.models import LegalDocument
from legal_documents.services.documents import run_generation
from tests.assets.conftest import upload
from tests.assets.samples import pdf_bytes
from tests.factories import LegalDocumentFactory


@pytest.mark.timeout(120)
@pytest.mark.django_db(transaction=True)
def test_an_upload_is_processed_by_the_worker_and_then_found_by_search(
    dpo, celery_worker_process, django_capture_on_commit_callbacks
):
    content = pdf_bytes(["Introduction", "Biometric access control at the Lisbon data centre"])
    asset_id = upload(dpo.client, "facilities.pdf", content).json()["id"]

    deadline = time.monotonic() + 90
    status = AssetStatus.UPLOADED
    while time.monotonic() < deadline:
        status = Asset.objects.get(pk=asset_id).status
        if status in (AssetStatus.COMPLETED, AssetStatus.FAILED):
            break
        time.sleep(0.2)

    assert status == AssetStatus.COMPLETED
    results = dpo.client.get("/api/v1/assets/search", {"q": "biometric access Lisbon"}).json()
    assert results["results"][0]["assetId"] == asset_id
    assert results["results"][0]["location"] == "page 2"
    with django_capture_on_commit_callbacks(execute=True):
        assert dpo.client.delete(f"/api/v1/assets/{asset_id}").status_code == 204


@pytest.mark.django_db
def test_a_generated_document_lists_the_relevant_uploaded_source_in_its_annex(uploaded, dpo):
    uploaded("cctv-policy.txt", b"Video analytics of visitors: CCTV footage is kept 72 hours.\n")
    uploaded("canteen.txt", b"The canteen menu changes every Monday.\n")
    document = LegalDocumentFactory(
        organization=dpo.organization,
        status="processing",
        inputs={"companyName": "Acme", "processingActivity": "Video analytics of visitors"},
        job_id="00000000-0000-0000-0000-000000000001",
    )

    run_generation(document_id=str(document.pk), job_id=str(document.job_id))

    content = LegalDocument.objects.get(pk=document.pk).content_markdown
    annex = content.split("## Annex: Sources", 1)[1]
    assert "cctv-policy.txt" in annex
    assert "kept 72 hours" in annex


@pytest.mark.django_db
def test_grounding_lists_each_asset_once_and_only_of_the_same_organization(uploaded, dpo, outsider):
    uploaded("a.txt", ("Video analytics retention. " * 200).encode())
    foreign = LegalDocumentFactory(organization=outsider.organization)
    mine = LegalDocumentFactory(
        organization=dpo.organization, inputs={"processingActivity": "Video analytics"}
    )

    assert [source.file_name for source in sources_for_document(mine)] == ["a.txt"]
    assert sources_for_document(foreign) == []


@pytest.mark.django_db
def _unavailable_provider(model: str):  # type: ignore[no-untyped-def]
    raise EmbeddingProviderUnavailable(f"{model} is not installed here")


def test_grounding_never_fails_a_generation(uploaded, dpo, monkeypatch):
    uploaded("a.txt", b"Some processed text.\n")
    # The chunks' model cannot embed the query (a provider that cannot be built here).
    monkeypatch.setattr(embedding, "provider_for", _unavailable_provider)

    assert sources_for_document(LegalDocumentFactory(organization=dpo.organization)) == []
