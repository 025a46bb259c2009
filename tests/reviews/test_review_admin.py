"""Reviews in the admin: "Review this document" on an asset, the list, the report page with
each quote and its location, the exports; the vendor's page, the consistency report and the
DPO start page showing a vendor's reviewed DPA."""

from __future__ import annotations

import pytest
from django.urls import reverse

from assets.models import Asset
from audit.models import AuditEvent
from register.models import Vendor
from reviews.models import Review
from reviews.vendor_link import record_on_vendor
from tests.admin.conftest import staff
from tests.assets.factories import AssetFactory
from tests.compliance.register_seed import clean_register
from tests.reviews.surfaces_support import DPA_ITEMS, completed_review

pytestmark = pytest.mark.django_db

HOSTILE = '<script>alert("quote")</script>'


@pytest.fixture
def dpo_staff(dpo):
    return staff(dpo)


@pytest.fixture
def auditor_staff(auditor):
    return staff(auditor)


@pytest.fixture
def outsider_staff(outsider):
    return staff(outsider)


@pytest.fixture
def vendor(dpo) -> Vendor:
    return Vendor.objects.create(organization=dpo.organization, name="Acme Cloud Ltd")


@pytest.fixture
def review(dpo, vendor) -> Review:
    return completed_review(organization=dpo.organization, vendor=vendor)


def report_url(review: Review) -> str:
    return reverse("admin:reviews_review_report", args=[review.pk])


def request_url(asset: Asset) -> str:
    return f"{reverse('admin:reviews_review_add')}?asset={asset.pk}"


def test_the_report_page_shows_each_item_with_its_quotes_locations_and_suggestion(
    dpo_staff, review
):
    response = dpo_staff.client.get(report_url(review))
    page = response.content.decode()

    assert response.status_code == 200
    assert 'class="review-item review-item-missing" id="item-h-audits"' in page
    assert 'class="review-item review-item-present" id="item-a-instructions"' in page
    assert "<blockquote" in page and "only on documented instructions" in page
    assert '<cite class="quote-location">page 2, § 3.1</cite>' in page
    assert "allow for and contribute to audits" in page  # a suggestion
    assert "Acme Cloud Ltd" in page and "acme-dpa.pdf" in page
    for fmt in ("md", "html", "pdf", "docx"):
        assert reverse("admin:reviews_review_export", args=[review.pk, fmt]) in page
    assert AuditEvent.objects.filter(
        action="review.read", object_id=review.pk, details__via="admin"
    ).exists()


def test_a_hostile_quote_is_shown_as_text_on_the_report_page(dpo_staff, dpo):
    items = [{**DPA_ITEMS[0], "citations": [{"location": "<b>p. 1</b>", "quote": HOSTILE}]}]
    review = completed_review(organization=dpo.organization, items=items, verdict="no-gaps")

    page = dpo_staff.client.get(report_url(review)).content.decode()

    assert HOSTILE not in page and "<b>p. 1</b>" not in page
    assert "&lt;script&gt;alert(&quot;quote&quot;)&lt;/script&gt;" in page


def test_the_list_and_the_report_stay_within_the_organization(dpo_staff, outsider_staff, review):
    listed = dpo_staff.client.get(reverse("admin:reviews_review_changelist")).content.decode()
    foreign = outsider_staff.client.get(reverse("admin:reviews_review_changelist"))

    assert "acme-dpa.pdf" in listed and report_url(review) in listed
    assert "acme-dpa.pdf" not in foreign.content.decode()
    assert outsider_staff.client.get(report_url(review)).status_code == 404
    assert (
        outsider_staff.client.get(
            reverse("admin:reviews_review_export", args=[review.pk, "pdf"])
        ).status_code
        == 404
    )


def test_an_export_link_answers_the_file_and_is_audited(auditor_staff, review):
    response = auditor_staff.client.get(
        reverse("admin:reviews_review_export", args=[review.pk, "pdf"])
    )

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith('attachment; filename="review-acme-dpa')
    assert response.content.startswith(b"%PDF")
    assert AuditEvent.objects.filter(action="review.export", object_id=review.pk).exists()


def test_review_this_document_starts_a_review_through_the_service(dpo_staff, dpo, vendor):
    asset = AssetFactory(organization=dpo.organization, original_file_name="acme-dpa.docx")

    form = dpo_staff.client.get(request_url(asset))
    response = dpo_staff.client.post(
        reverse("admin:reviews_review_add"),
        {"asset": str(asset.pk), "document_type": "DATA_PROCESSING_AGREEMENT",
         "language": "de", "vendor": str(vendor.pk)},
    )  # fmt: skip

    assert form.status_code == 200 and "acme-dpa.docx" in form.content.decode()
    review = Review.objects.get(asset=asset)
    assert response.status_code == 302 and response["Location"] == report_url(review)
    assert (review.document_type, review.language, review.vendor_id, review.status) == (
        "DATA_PROCESSING_AGREEMENT", "de", vendor.pk, "processing",
    )  # fmt: skip
    assert review.requested_by_id == dpo.membership.user_id
    assert AuditEvent.objects.filter(action="review.create", object_id=review.pk).exists()


def test_the_form_offers_only_the_organizations_assets_and_vendors(dpo_staff, outsider):
    foreign_asset = AssetFactory(organization=outsider.organization)
    foreign_vendor = Vendor.objects.create(organization=outsider.organization, name="Foreign")
    own_asset = AssetFactory(organization=dpo_staff.organization)

    assert dpo_staff.client.get(request_url(foreign_asset)).status_code == 404
    response = dpo_staff.client.post(
        reverse("admin:reviews_review_add"),
        {"asset": str(own_asset.pk), "document_type": "DATA_PROCESSING_AGREEMENT",
         "vendor": str(foreign_vendor.pk)},
    )  # fmt: skip
    assert response.status_code == 200  # the form again, with its error
    assert not Review.objects.exists()


def test_an_auditor_reads_reviews_but_starts_none(auditor_staff, dpo):
    asset = AssetFactory(organization=dpo.organization)

    assert auditor_staff.client.get(request_url(asset)).status_code == 403
    changelist = auditor_staff.client.get(reverse("admin:assets_asset_changelist"))
    assert "review_document" not in changelist.content.decode()
    page = auditor_staff.client.get(reverse("admin:assets_asset_change", args=[asset.pk]))
    assert page.status_code == 200
    assert request_url(asset) not in page.content.decode()  # no button that answers 403


def test_the_asset_page_and_its_action_lead_to_the_review_form(dpo_staff, dpo):
    asset = AssetFactory(organization=dpo.organization)

    page = dpo_staff.client.get(reverse("admin:assets_asset_change", args=[asset.pk]))
    action = dpo_staff.client.post(
        reverse("admin:assets_asset_changelist"),
        {"action": "review_document", "_selected_action": [str(asset.pk)]},
    )

    assert request_url(asset) in page.content.decode()
    assert action.status_code == 302 and action["Location"] == request_url(asset)


def test_the_vendors_page_shows_its_dpas_review_with_a_link(dpo_staff, review, vendor):
    record_on_vendor(review)

    page = dpo_staff.client.get(
        reverse("admin:register_vendor_change", args=[vendor.pk])
    ).content.decode()
    listed = dpo_staff.client.get(reverse("admin:register_vendor_changelist")).content.decode()

    assert report_url(review) in page and "g-deletion, h-audits" in page
    assert report_url(review) in listed


def test_the_consistency_report_page_links_the_review(dpo_staff, dpo):
    clean_register(dpo.organization)
    hosting = Vendor.objects.get(organization=dpo.organization, name="Hosting GmbH")
    review = completed_review(organization=dpo.organization, vendor=hosting)
    record_on_vendor(review)

    page = dpo_staff.client.get(reverse("admin:compliance_register_report")).content.decode()

    assert 'data-kind="vendor-dpa-missing-items"' in page
    assert report_url(review) in page
    assert reverse("admin:register_vendor_change", args=[hosting.pk]) in page


def test_the_start_page_lists_recent_vendor_dpa_reviews_with_their_gaps(
    dpo_staff, outsider_staff, review
):
    start = reverse("admin:compliance_start")

    page = dpo_staff.client.get(start).content.decode()
    foreign = outsider_staff.client.get(start).content.decode()

    block = page[page.index('id="vendor-dpa-reviews"') :]
    block = block[: block.index("</section>")]
    assert "Acme Cloud Ltd" in block and report_url(review) in block
    assert "missing g-deletion, h-audits" in block and "1 weak item" in block
    assert 'data-verdict="gaps"' in block
    assert "Acme Cloud Ltd" not in foreign
