"""Documents of the review test set uploaded through the real upload path, ingested and
reviewed through the review's task: the service's path (upload, extraction, chunks,
retrieval, the task) gives the statuses the engine gives on the test set's own passages,
tells the document's language, and stores only quotes of the uploaded text.

(Whether those statuses are the ones a DPO expects is the engine's test set:
tests/gdpr/review/test_*_test_set.py.)
"""

from __future__ import annotations

import pytest

from tests.gdpr.review.review_test_set import case_named, review
from tests.reviews.conftest import URL, process, review_of, start, upload

pytestmark = pytest.mark.django_db

# Documents uploaded as text (not `paged`: a PDF's pages are not simulated here).
CASES = [
    ("dpa", "northwind-good.en"),
    ("dpa", "horizon-sous-traitance.fr"),
    ("dpa", "cobalt-2010-sccs-privacy-shield.en"),
    ("privacy", "pulsefit-no-complaint-retention-dpo.en"),
]


@pytest.mark.parametrize(("kind", "name"), CASES)
def test_an_uploaded_document_is_reviewed_as_the_engine_reviews_its_text(
    dpo, committed, worker, kind, name
):
    case = case_named(kind, name)
    asset_id = upload(dpo, f"{name}.md", case.text.encode())
    committed(lambda: process(asset_id))

    created = start(dpo, committed, assetId=asset_id, documentType=case.document_type)
    body = dpo.client.get(f"{URL}/{review_of(created).pk}").json()

    assert body["status"] == "completed", body["error"]
    assert body["documentLanguage"] == case.document_language
    expected = review(kind, name, "en")
    assert {item["itemId"]: item["status"] for item in body["items"]} == {
        item.item_id: item.status.value for item in expected.items
    }
    assert body["verdict"] == expected.verdict.value
    quotes = [c["quote"] for item in body["items"] for c in item["citations"]]
    assert quotes and all(quote in case.text for quote in quotes)
