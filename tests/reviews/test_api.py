"""POST/GET /api/v1/reviews: validation, roles, defaults, isolation, list filters, audit."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from organizations.models import Role
from reviews.models import Review, ReviewStatus
from tests.assets.factories import AssetFactory
from tests.conftest import make_caller
from tests.factories import LegalDocumentFactory
from tests.register.factories import VendorFactory
from tests.reviews.conftest import URL, review_of, start

pytestmark = pytest.mark.django_db

DPA = "DATA_PROCESSING_AGREEMENT"


def _details(response) -> dict:  # type: ignore[no-untyped-def]
    assert response.status_code == 400, response.content
    body = response.json()["error"]
    assert body["code"] == "VALIDATION_ERROR"
    return body["details"]


def test_it_answers_202_processing_and_queues_the_review_once_committed(
    dpo, django_capture_on_commit_callbacks, review_queue
):
    asset = AssetFactory(organization=dpo.organization, status="PROCESSING")
    body = {"assetId": str(asset.pk), "documentType": DPA, "language": "de"}

    with django_capture_on_commit_callbacks(execute=True):
        response = dpo.client.post(URL, body, format="json")
        review = review_of(response)
        assert review_queue.sent == []  # not before the commit

    assert response.json() == {"id": str(review.pk), "status": "processing"}
    assert (review.document_type, review.language, review.asset_id) == (DPA, "de", asset.pk)
    assert (review.lease_state, review.stage) == ("queued", "queued")
    assert review_queue.sent == [str(review.pk)]


def test_a_document_type_a_review_does_not_know_is_a_clear_400(dpo, committed):
    asset = AssetFactory(organization=dpo.organization)

    details = _details(start(dpo, committed, assetId=str(asset.pk), documentType="DPIA"))

    assert details["documentType"] == [
        '"DPIA" is not a document type a review knows; accepted: '
        "DATA_PROCESSING_AGREEMENT, PRIVACY_POLICY."
    ]
    assert not Review.objects.exists()


def test_a_language_not_among_the_five_is_a_400_naming_the_accepted_ones(dpo, committed):
    asset = AssetFactory(organization=dpo.organization)

    details = _details(
        start(dpo, committed, assetId=str(asset.pk), documentType=DPA, language="nl")
    )

    assert details["language"] == ['Unsupported language "nl"; accepted: en, de, fr, es, it.']


def test_the_report_language_defaults_to_the_organizations_newest_document(dpo, committed):
    asset = AssetFactory(organization=dpo.organization)
    created = review_of(start(dpo, committed, assetId=str(asset.pk), documentType=DPA))
    assert created.language == "en"  # no document yet: English

    LegalDocumentFactory(organization=dpo.organization, language="fr")
    later = review_of(start(dpo, committed, assetId=str(asset.pk), documentType=DPA))
    assert later.language == "fr"


def test_another_organizations_asset_is_refused_like_one_that_does_not_exist(
    dpo, outsider, committed
):
    foreign = AssetFactory(organization=outsider.organization)

    details = _details(start(dpo, committed, assetId=str(foreign.pk), documentType=DPA))

    assert details["assetId"] == [f"No asset of your organization with id {foreign.pk}."]
    # Both trails know of the attempt (the owner's anonymised).
    assert AuditEvent.objects.filter(
        organization=dpo.organization, outcome="denied", object_id=str(foreign.pk)
    ).exists()
    assert AuditEvent.objects.filter(
        organization=outsider.organization, action="asset.reference", object_id=str(foreign.pk)
    ).exists()


def test_the_vendor_must_be_a_vendor_of_the_organizations_register(dpo, outsider, committed):
    asset = AssetFactory(organization=dpo.organization)
    own = VendorFactory(organization=dpo.organization)
    foreign = VendorFactory(organization=outsider.organization)

    details = _details(
        start(dpo, committed, assetId=str(asset.pk), documentType=DPA, vendorId=str(foreign.pk))
    )
    assert details["vendorId"] == [f"No vendor of your organization with id {foreign.pk}."]

    review = review_of(
        start(dpo, committed, assetId=str(asset.pk), documentType=DPA, vendorId=str(own.pk))
    )
    assert review.vendor_id == own.pk


def test_a_missing_asset_id_is_a_400(dpo, committed):
    assert "assetId" in _details(start(dpo, committed, documentType=DPA))


def test_auditors_read_reviews_but_may_not_start_one(dpo, auditor, committed):
    asset = AssetFactory(organization=dpo.organization)
    review = review_of(start(dpo, committed, assetId=str(asset.pk), documentType=DPA))

    refused = start(auditor, committed, assetId=str(asset.pk), documentType=DPA)
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "PERMISSION_DENIED"

    assert auditor.client.get(f"{URL}/{review.pk}").status_code == 200
    assert auditor.client.get(URL).json()["totalCount"] == 1


def test_a_processing_review_reads_without_report_and_its_stage(dpo, committed):
    asset = AssetFactory(organization=dpo.organization, status="PROCESSING")
    review = review_of(start(dpo, committed, assetId=str(asset.pk), documentType=DPA))

    body = dpo.client.get(f"{URL}/{review.pk}").json()

    assert body == {
        "id": str(review.pk), "status": "processing", "documentType": DPA,
        "assetId": str(asset.pk), "vendorId": None, "language": "en",
        "documentLanguage": None, "verdict": None, "counts": None, "items": [],
        "stage": "queued", "createdAt": body["createdAt"], "completedAt": None, "error": None,
        "rulesetVersion": None, "method": None,
    }  # fmt: skip
    assert body["createdAt"].endswith("Z")


def test_a_failed_review_shows_its_error_in_the_envelopes_shape(dpo):
    review = Review.objects.create(
        organization=dpo.organization, asset=AssetFactory(organization=dpo.organization),
        document_type=DPA, language="en", status=ReviewStatus.FAILED,
        error_code="ASSET_FAILED", error_message="The asset could not be processed.",
    )  # fmt: skip

    body = dpo.client.get(f"{URL}/{review.pk}").json()

    assert body["error"] == {
        "code": "ASSET_FAILED", "message": "The asset could not be processed.", "details": None,
    }  # fmt: skip


def test_another_organizations_review_is_404_and_recorded_in_both_trails(dpo, outsider):
    review = Review.objects.create(
        organization=dpo.organization, asset=AssetFactory(organization=dpo.organization),
        document_type=DPA, language="en",
    )  # fmt: skip

    response = outsider.client.get(f"{URL}/{review.pk}")

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "NOT_FOUND"
    assert AuditEvent.objects.filter(
        organization=dpo.organization, action="review.read", outcome="denied"
    ).exists()
    assert outsider.client.get(URL).json()["totalCount"] == 0


def test_the_list_filters_by_asset_vendor_type_and_status_and_pages(dpo, outsider):
    organization = dpo.organization
    first, second = AssetFactory(organization=organization), AssetFactory(organization=organization)
    vendor = VendorFactory(organization=organization)

    def review(**fields) -> Review:  # type: ignore[no-untyped-def]
        defaults = {"organization": organization, "asset": first, "document_type": DPA,
                    "language": "en"}  # fmt: skip
        return Review.objects.create(**(defaults | fields))

    a = review()
    b = review(asset=second, vendor=vendor, status=ReviewStatus.COMPLETED)
    c = review(asset=second, document_type="PRIVACY_POLICY", status=ReviewStatus.FAILED)
    Review.objects.create(
        organization=outsider.organization,
        asset=AssetFactory(organization=outsider.organization),
        document_type=DPA, language="en",
    )  # fmt: skip

    def ids(**query) -> list[str]:  # type: ignore[no-untyped-def]
        response = dpo.client.get(URL, query)
        assert response.status_code == 200, response.content
        return [item["id"] for item in response.json()["reviews"]]

    assert ids() == [str(c.pk), str(b.pk), str(a.pk)]  # newest first, own only
    assert ids(assetId=str(second.pk)) == [str(c.pk), str(b.pk)]
    assert ids(vendorId=str(vendor.pk)) == [str(b.pk)]
    assert ids(documentType="PRIVACY_POLICY") == [str(c.pk)]
    assert ids(status="processing") == [str(a.pk)]

    page = dpo.client.get(URL, {"limit": 2, "offset": 1}).json()
    assert (page["totalCount"], page["hasMore"], len(page["reviews"])) == (3, False, 2)
    assert dpo.client.get(URL, {"limit": 2}).json()["hasMore"] is True
    assert "items" not in page["reviews"][0]

    assert "status" in _details(dpo.client.get(URL, {"status": "done"}))
    assert "limit" in _details(dpo.client.get(URL, {"limit": 1000}))


def test_every_review_is_audited_when_created_and_when_read(dpo, committed):
    asset = AssetFactory(organization=dpo.organization)
    review = review_of(
        start(dpo, committed, assetId=str(asset.pk), documentType=DPA, language="it")
    )
    dpo.client.get(f"{URL}/{review.pk}")

    created = AuditEvent.objects.get(action="review.create")
    assert (created.object_type, created.object_id) == ("review", str(review.pk))
    assert created.details == {
        "documentType": DPA, "language": "it", "assetId": str(asset.pk), "vendorId": None,
    }  # fmt: skip
    read = AuditEvent.objects.get(action="review.read")
    assert (read.object_id, read.outcome) == (str(review.pk), "allowed")


def test_the_schema_documents_the_reviews_routes(dpo):
    schema = make_caller(Role.ADMIN).client.get("/api/schema/?format=json").json()
    assert {"/api/v1/reviews", "/api/v1/reviews/{id}"} <= set(schema["paths"])
    created = schema["paths"]["/api/v1/reviews"]["post"]["responses"]
    assert "202" in created
