"""Every document of the review test set uploaded through the real upload path, ingested and
reviewed through the review's task: the documents marked `paged` as the PDF our exporter
renders from their text (pypdfium2 reads them back page by page), the others as their text.

The service's path (upload, extraction, chunks, retrieval, the task) meets the statuses a DPO
expects (the test set's `.expected.json`), tells the document's language, and stores only
quotes of the asset's own stored text. (The engine alone on the test set's passages:
tests/gdpr/review/test_*_test_set.py.)
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

import pytest

from assets.selectors import asset_chunks
from legal_documents.exports import ExportMeta, export_document
from tests.gdpr.review.review_test_set import Case, case_named, case_names, review
from tests.reviews.conftest import URL, process, review_of, start, upload

pytestmark = pytest.mark.django_db

CASES = [(kind, name) for kind in ("dpa", "privacy") for name in case_names(kind)]
# The documents of the earlier, text-only version of this test: the service gives them the
# statuses the engine gives the test set's own passages, item for item.
AS_THE_ENGINE = {
    ("dpa", "northwind-good.en"),
    ("dpa", "horizon-sous-traitance.fr"),
    ("dpa", "cobalt-2010-sccs-privacy-shield.en"),
    ("privacy", "pulsefit-no-complaint-retention-dpo.en"),
}


def as_pdf(case: Case) -> bytes:
    """The document as a vendor sends it: a PDF, rendered by our exporter from its text."""
    when = datetime(2026, 3, 2, tzinfo=UTC)
    meta = ExportMeta(
        organization_name="Vendor",
        document_title=case.name,
        document_type=case.document_type,
        version=1,
        stage="final",
        created_at=when,
        updated_at=when,
        content_sha256=hashlib.sha256(case.text.encode()).hexdigest(),
        ruleset_version="",
        language=case.document_language,
        external=True,
    )
    return export_document(case.text, meta, "pdf").content


@pytest.mark.parametrize(("kind", "name"), CASES)
def test_an_uploaded_document_of_the_test_set_gets_the_statuses_a_dpo_expects(
    dpo, committed, worker, kind, name
):
    case = case_named(kind, name)
    if case.paged:
        asset_id = upload(dpo, f"{name}.pdf", as_pdf(case))
    else:
        suffix = ".txt" if case.text.lstrip()[:1] != "#" else ".md"
        asset_id = upload(dpo, f"{name}{suffix}", case.text.encode())
    committed(lambda: process(asset_id))
    chunks = asset_chunks(organization_id=dpo.organization.pk, asset_id=asset_id)
    assert chunks
    assert all(chunk.location.startswith("page ") for chunk in chunks) == case.paged

    created = start(dpo, committed, assetId=asset_id, documentType=case.document_type)
    body = dpo.client.get(f"{URL}/{review_of(created).pk}").json()

    assert body["status"] == "completed", body["error"]
    assert body["documentLanguage"] == case.document_language
    statuses = {item["itemId"]: item["status"] for item in body["items"]}
    wrong = [
        f"{item_id}: {statuses.get(item_id)}, expected {'|'.join(accepted)}"
        for item_id, accepted in case.statuses.items()
        if statuses.get(item_id) not in accepted
    ]
    assert not wrong, "\n".join(wrong)
    if case.verdict is not None:
        assert body["verdict"] == case.verdict
    if (kind, name) in AS_THE_ENGINE:
        expected = review(kind, name, "en")
        assert statuses == {item.item_id: item.status.value for item in expected.items}
    # Every stored quote is a substring of the asset's stored text (its chunks).
    quotes = [c["quote"] for item in body["items"] for c in item["citations"]]
    assert quotes
    outside = [q for q in quotes if not any(q in chunk.text for chunk in chunks)]
    assert not outside, outside
