"""Every admin page as a DPO sees it at 1400 and 800 px: read on one line, no sideways scroll of
the page, a header that stays usable, a readable language label. Screenshots of each page at
both widths go to test-artifacts/screenshots/admin-pages/ (`<page>-<width>.png`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from django.contrib import admin
from django.test import RequestFactory
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from playwright.sync_api import Page

from assets.models import AssetChunk
from legal_documents.models import DocumentationPackage
from organizations.models import Role
from reminders.models import ReminderPreference, SentReminder
from tests.assets.factories import AssetFactory
from tests.browser.conftest import admin_user, log_in
from tests.browser.layout import outside_viewport, page_overflow, squeezed_text, text_contrast
from tests.compliance.register_seed import clean_register
from tests.conftest import make_caller
from tests.factories import ClientCompanyFactory
from tests.legal_documents.history_support import generated_document
from tests.reviews.surfaces_support import completed_review
from tests.webhooks.factories import WebhookDeliveryFactory, WebhookEndpointFactory

pytestmark = pytest.mark.django_db(transaction=True)

WIDTHS = (1400, 800)
HEIGHT = 900
# What must stay within the window at any width: the header (site name, language, user
# tools) and the breadcrumbs, the way back to every other page.
HEADER = ["#site-name", "#language-switcher", "#user-tools a", "#logout-form button",
          ".breadcrumbs"]  # fmt: skip
WCAG_AA_TEXT = 4.5
# At 800 px the navigation sidebar pushed the page about 40 % into the window; tables may scroll
# inside their container, but the page keeps the window's width.
SIDEBAR_SHARE = 0.1
NARROW = 1024


@dataclass(frozen=True)
class AdminPage:
    name: str
    url: str


def seeded_organization() -> tuple:  # type: ignore[type-arg]
    """A DPO's organization with a row of every model the admin registers."""
    dpo = make_caller(Role.DPO)
    organization = dpo.organization
    register = clean_register(organization)
    document = generated_document(dpo)
    generated_document(dpo, "DATA_PROCESSING_AGREEMENT")
    ClientCompanyFactory(organization=organization)
    review = completed_review(organization=organization, vendor=register["vendors"][0])
    asset = AssetFactory(organization=organization)
    AssetChunk.objects.create(
        asset=asset, organization=organization, index=0,
        text="The processor acts only on documented instructions.",
    )  # fmt: skip
    DocumentationPackage.objects.create(
        organization=organization, status="completed", document_count=1, size_bytes=2048,
    )  # fmt: skip
    WebhookDeliveryFactory(endpoint=WebhookEndpointFactory(organization=organization))
    ReminderPreference.objects.create(user=dpo.membership.user, language="de")
    SentReminder.objects.create(
        organization=organization, user=dpo.membership.user, kind="stale-documents",
        subject_id=str(organization.pk), occurrence="2026-W10", language="en",
        recipient=dpo.membership.user.email, subject="Weekly digest: 1 stale document",
        body="One document is stale.", sent_at=timezone.now(),
    )  # fmt: skip
    return dpo, document, review, asset


def every_admin_page(*, user, document, review, asset) -> list[AdminPage]:  # type: ignore[no-untyped-def]
    """Each registered model's list, add page (where one may add) and one change page, and
    the custom pages."""
    # A review is requested for an uploaded file: its add page needs one.
    add_query = {"reviews_review": f"?asset={asset.pk}"}
    request = RequestFactory().get("/admin/")
    request.user = user
    pages: list[AdminPage] = []
    for model, model_admin in admin.site._registry.items():
        label = f"{model._meta.app_label}_{model._meta.model_name}"
        pages.append(AdminPage(f"{label}-list", reverse(f"admin:{label}_changelist")))
        if model_admin.has_add_permission(request):
            add_url = reverse(f"admin:{label}_add") + add_query.get(label, "")
            pages.append(AdminPage(f"{label}-add", add_url))
        row = model._default_manager.order_by("pk").first()
        assert row is not None, f"no {label} to open: seed one"
        pages.append(AdminPage(f"{label}-change", reverse(f"admin:{label}_change", args=[row.pk])))
    custom = {
        "index": ("admin:index", []),
        "dpo-start": ("admin:compliance_start", []),
        "register-report": ("admin:compliance_register_report", []),
        "register-import": ("register_processingactivity_import", []),
        "review-report": ("admin:reviews_review_report", [review.pk]),
        "document-history": ("admin:legal_documents_legaldocument_history", [document.pk]),
        "asset-search": ("admin:legal_documents_asset_search", []),
        "audit-chain": ("admin:audit_auditevent_chain", []),
    }
    for name, (url_name, args) in custom.items():
        try:
            pages.append(AdminPage(name, reverse(url_name, args=args)))
        except NoReverseMatch:  # pragma: no cover - a page renamed: say which
            pytest.fail(f"{name}: no URL named {url_name}")
    dpia_form = reverse("admin:legal_documents_legaldocument_add") + "?type=DPIA"
    pages.append(AdminPage("legal_documents_legaldocument-add-dpia", dpia_form))
    return pages


def look_at(page: Page, url: str, width: int, shot: Path) -> list[str]:
    """Open `url` at `width` px; what a DPO would notice is wrong with it."""
    page.set_viewport_size({"width": width, "height": HEIGHT})
    response = page.goto(url)
    page.screenshot(path=shot, full_page=True)
    if response is None or response.status >= 400:
        return [f"HTTP {response.status if response else 'no response'}"]
    problems = [f"one letter per line: {text}" for text in squeezed_text(page)]
    problems += [f"header beyond the window: {text}" for text in outside_viewport(page, HEADER)]
    if (overflow := page_overflow(page)) > 0:
        problems.append(f"the page scrolls sideways by {overflow} px")
    pushed = page.evaluate(
        "document.getElementById('content').getBoundingClientRect().left / window.innerWidth"
    )
    if width < NARROW and pushed > SIDEBAR_SHARE:
        problems.append(f"the content starts {pushed:.0%} into the window, beside the sidebar")
    return problems


def test_every_admin_page_reads_well_at_1400_and_800_px(page, admin_server, screenshots):
    dpo, document, review, asset = seeded_organization()
    user = admin_user(dpo.membership)
    # A superuser member: every registered model's pages open (a DPO's own are among them).
    user.membership.user.is_superuser = True
    user.membership.user.save(update_fields=["is_superuser"])
    log_in(page, admin_server, user)
    folder = screenshots / "admin-pages"
    folder.mkdir(exist_ok=True)

    found: dict[str, list[str]] = {}
    for admin_page in every_admin_page(
        user=user.membership.user, document=document, review=review, asset=asset
    ):
        for width in WIDTHS:
            shot = folder / f"{admin_page.name}-{width}.png"
            problems = look_at(page, admin_server.url + admin_page.url, width, shot)
            if problems:
                found[f"{admin_page.name} at {width} px"] = problems

    assert not found, "\n".join(f"{where}: {problems}" for where, problems in found.items())


def test_the_data_protection_links_of_the_index_read_on_one_line(page, admin_server, screenshots):
    log_in(page, admin_server, admin_user(make_caller(Role.DPO).membership))
    for width in (*WIDTHS, 1280):
        page.set_viewport_size({"width": width, "height": HEIGHT})
        page.goto(admin_server.url + reverse("admin:index"))
        page.screenshot(path=screenshots / f"index-data-protection-{width}.png")
        links = page.locator("#dpo-start-link th a")
        assert links.count() == 2
        for link in links.all():
            box = link.bounding_box()
            line = link.evaluate("element => parseFloat(getComputedStyle(element).lineHeight)")
            assert box is not None
            assert box["width"] > box["height"], (width, link.inner_text(), box)
            assert box["height"] < 1.6 * line, (width, link.inner_text(), box)


def test_the_language_label_is_readable_on_every_kind_of_page(page, admin_server, screenshots):
    dpo = make_caller(Role.DPO)
    document = generated_document(dpo)
    log_in(page, admin_server, admin_user(dpo.membership))
    urls = {
        "index": reverse("admin:index"),
        "document": reverse("admin:legal_documents_legaldocument_change", args=[document.pk]),
        "documents": reverse("admin:legal_documents_legaldocument_changelist"),
        "start": reverse("admin:compliance_start"),
    }
    ratios = {}
    for name, url in urls.items():
        page.goto(admin_server.url + url)
        ratios[name] = round(text_contrast(page.locator("#language-switcher label")), 2)
    page.goto(admin_server.url + urls["document"])
    page.locator("#header").screenshot(path=screenshots / "language-label-document-page.png")
    print("language label contrast:", ratios)  # read in the run's log (-s)

    assert min(ratios.values()) >= WCAG_AA_TEXT, ratios
