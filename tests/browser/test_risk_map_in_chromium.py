"""The DPIA's risk map and the breaches' 72-hour bars in Chromium: the admin page, the HTML
and PDF exports downloaded from it, and the start page. Screenshots are kept as artifacts
(the PDF's map page rendered with pypdfium2 beside them)."""

from __future__ import annotations

from datetime import timedelta

import pypdfium2
import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Page, expect

from organizations.models import Role
from tests.browser.conftest import admin_user, log_in
from tests.conftest import make_caller
from tests.factories import LegalDocumentFactory
from tests.gdpr.test_risk_map import FULL_POSITIONS, full_dpia
from tests.legal_documents.test_risk_map_exports import ZONE_COLOURS, marker_glyph

pytestmark = pytest.mark.django_db(transaction=True)


def download(page: Page, fmt: str) -> bytes:
    link = page.locator(f'a.export-link[data-format="{fmt}"]')
    link.scroll_into_view_if_needed()
    with page.expect_download() as download_info:
        link.click()
    path = download_info.value.path()
    return path.read_bytes()


def test_a_dpo_sees_the_risk_map_on_the_dpia_and_in_its_exports(
    page, admin_server, screenshots, tmp_path
):
    dpo = make_caller(Role.DPO)
    dpia = LegalDocumentFactory(
        organization=dpo.organization, document_type="DPIA", content_markdown=full_dpia()
    )
    log_in(page, admin_server, admin_user(dpo.membership))

    page.goto(
        admin_server.url + reverse("admin:legal_documents_legaldocument_change", args=[dpia.pk])
    )
    panel = page.locator("#risk-map")
    panel.scroll_into_view_if_needed()
    expect(panel.locator(".risk-marker")).to_have_count(2 * len(FULL_POSITIONS))
    for number, (before, after) in FULL_POSITIONS.items():
        for stage, (severity, likelihood) in (("before", before), ("after", after)):
            cell = panel.locator(
                f'.risk-cell[data-severity="{severity}"][data-likelihood="{likelihood}"]'
            )
            expect(cell.locator(f'.risk-marker-{stage}[data-risk="{number}"]')).to_have_count(1)
    box = panel.locator("svg.risk-map-grid").bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 200  # drawn, not collapsed
    panel.screenshot(path=screenshots / "risk-map-1-admin.png")

    exported_html = tmp_path / "dpia.html"
    exported_html.write_bytes(download(page, "html"))
    pdf = download(page, "pdf")
    (screenshots / "risk-map-dpia.pdf").write_bytes(pdf)

    page.goto(exported_html.as_uri())
    figure = page.locator("figure.risk-map")
    expect(figure.locator(".risk-marker-after")).to_have_count(len(FULL_POSITIONS))
    figure.screenshot(path=screenshots / "risk-map-2-html-export.png")

    document = pypdfium2.PdfDocument(pdf)
    map_pages = [
        index
        for index in range(len(document))
        if marker_glyph(1, "after") in document[index].get_textpage().get_text_range()
    ]
    assert len(map_pages) == 1
    image = document[map_pages[0]].render(scale=2).to_pil().convert("RGB")
    image.save(screenshots / "risk-map-3-pdf-page.png")
    present = {pixel for _count, pixel in image.getcolors(maxcolors=1 << 20) or []}
    for zone in ("low", "medium (likely)", "high"):
        wanted = tuple(int(ZONE_COLOURS[zone][index : index + 2], 16) for index in (1, 3, 5))
        assert wanted in present, zone


def test_the_start_page_shows_each_open_breachs_72_hour_bar(page, admin_server, screenshots):
    dpo = make_caller(Role.DPO)
    for hours in (6, 60, 80):
        LegalDocumentFactory(
            organization=dpo.organization, document_type="BREACH_NOTIFICATION", stage="draft",
            inputs={"companyName": "Acme",
                    "discoveredAt": (timezone.now() - timedelta(hours=hours)).isoformat()},
        )  # fmt: skip
    log_in(page, admin_server, admin_user(dpo.membership))

    page.goto(admin_server.url + reverse("admin:compliance_start"))

    bars = page.locator("#open-breaches svg.breach-clock")
    expect(bars).to_have_count(3)
    states = [bars.nth(index).get_attribute("data-state") for index in range(3)]
    assert states == ["overdue", "near", "running"]
    widths = [
        page.locator("#open-breaches .breach-clock-elapsed").nth(index).bounding_box()["width"]  # type: ignore[index]
        for index in range(3)
    ]
    assert widths[0] > widths[1] > widths[2] > 0  # the bars fill with the hours elapsed
    page.locator("#open-breaches").screenshot(path=screenshots / "risk-map-4-breach-clocks.png")
