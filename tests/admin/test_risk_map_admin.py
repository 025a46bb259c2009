"""The DPIA's risk map on its admin page, and each open breach's 72-hour bar on the start
page (the bar's colour by elapsed time: tests/compliance/test_breach_clock.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from lxml import html as lxml_html

from tests.compliance.register_seed import clean_register
from tests.factories import LegalDocumentFactory
from tests.gdpr.test_risk_map import FULL_POSITIONS, full_dpia
from tests.legal_documents.test_risk_map_exports import as_positions, svg_positions

pytestmark = pytest.mark.django_db


def change_page(staff, document) -> str:  # type: ignore[no-untyped-def]
    url = reverse("admin:legal_documents_legaldocument_change", args=[document.pk])
    response = staff.client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_a_dpias_page_shows_its_risk_map_with_every_marker_in_place(dpo_staff):
    dpia = LegalDocumentFactory(
        organization=dpo_staff.organization, document_type="DPIA", content_markdown=full_dpia()
    )

    page = change_page(dpo_staff, dpia)

    panel = lxml_html.tostring(lxml_html.fromstring(page).get_element_by_id("risk-map")).decode()
    assert as_positions(svg_positions(panel)) == FULL_POSITIONS
    assert "Risk map (severity and likelihood, before and with the measures)" in panel
    assert "style=" not in panel  # the admin's CSP allows no inline style


def test_a_german_dpia_shows_its_map_in_german(dpo_staff):
    dpia = LegalDocumentFactory(
        organization=dpo_staff.organization, document_type="DPIA", language="de",
        content_markdown=full_dpia("de"),
    )  # fmt: skip

    panel = change_page(dpo_staff, dpia).split('id="risk-map"')[1]

    assert "Eintrittswahrscheinlichkeit" in panel and "Unbefugter Zugriff auf Daten" in panel
    assert as_positions(svg_positions(panel)) == FULL_POSITIONS


def test_a_document_without_risks_tables_has_no_map(dpo_staff):
    dpia = LegalDocumentFactory(organization=dpo_staff.organization, document_type="DPIA")

    assert 'id="risk-map"' not in change_page(dpo_staff, dpia)


def breach_aware_since(organization, hours: float):  # type: ignore[no-untyped-def]
    return LegalDocumentFactory(
        organization=organization, document_type="BREACH_NOTIFICATION", stage="draft",
        inputs={"companyName": "Acme",
                "discoveredAt": (timezone.now() - timedelta(hours=hours)).isoformat()},
    )  # fmt: skip


def test_the_start_page_shows_each_open_breachs_clock_amber_near_the_end_red_past_it(dpo_staff):
    organization = dpo_staff.organization
    clean_register(organization)  # its breach was discovered 10 h ago
    breach_aware_since(organization, 60)
    breach_aware_since(organization, 80)
    notified = breach_aware_since(organization, 30)
    notified.inputs = {**notified.inputs, "notifiedAt": timezone.now().isoformat()}
    notified.save()

    page = dpo_staff.client.get(reverse("admin:compliance_start")).content.decode()

    tree = lxml_html.fromstring(page)
    bars = tree.xpath("//section[@id='open-breaches']//svg[contains(@class, 'breach-clock')]")
    # Most urgent first (by deadline); the notified breach is not open.
    assert [bar.get("data-state") for bar in bars] == ["overdue", "near", "running"]
    assert [bar.get("data-percent") for bar in bars] == ["100", "83", "13"]
    filled = [bar.xpath(".//rect[@class='breach-clock-elapsed']")[0] for bar in bars]
    assert [rect.get("width") for rect in filled] == ["100", "83", "13"]
    assert filled[0].get("fill") == "#ba2121"
    assert "80 h of 72 h elapsed" in page
