"""The DPO's start page and the register report in Chromium: from the admin index to the
activity a report item names. Screenshots are written for a person to look at."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from organizations.models import Role
from register import services
from tests.browser.conftest import admin_user, log_in
from tests.compliance.register_seed import ACTOR, activity, clean_register, vendor
from tests.conftest import make_caller
from tests.factories import LegalDocumentFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_dpo_starts_from_the_figures_and_reaches_the_activity_to_fix(
    page, admin_server, screenshots
):
    dpo = make_caller(Role.DPO)
    organization = dpo.organization
    register = clean_register(organization)
    register["dpia"].delete()  # CCTV: a DPIA is required and missing (high)
    services.vendor_update(
        vendor=vendor(organization, "Hosting GmbH"), actor=ACTOR, data={"dpa_status": "none"}
    )
    services.activity_update(
        activity=activity(organization, "Payroll"), actor=ACTOR,
        data={"next_review_date": timezone.now().date() + timedelta(days=9)},
    )  # fmt: skip
    LegalDocumentFactory(
        organization=organization, document_type="PRIVACY_POLICY",
        stale_since=timezone.now() - timedelta(hours=5),
    )  # fmt: skip
    other = make_caller(Role.DPO)  # another organization's gap must not show
    clean_register(other.organization)["dpia"].delete()

    log_in(page, admin_server, admin_user(dpo.membership))
    page.screenshot(path=screenshots / "dpo-start-0-index.png", full_page=True)
    page.click("#dpo-start-link a >> text=DPO start page")

    expect(page.locator("#report-by-severity tr[data-severity=high] td.count")).to_have_text("2")
    expect(page.locator("#documents-by-status")).to_contain_text("Completed")
    expect(page.locator("#reviews-due")).to_contain_text("Payroll")
    expect(page.locator("#stale-documents")).to_contain_text("Privacy notice")
    expect(page.locator("#open-breaches .time-left")).to_contain_text("h left")
    expect(page.locator("#report-items .report-item")).to_have_count(2)
    page.screenshot(path=screenshots / "dpo-start-1-start-page.png", full_page=True)

    page.click("#report-by-severity a.severity-high")
    expect(page.locator(".report-item")).to_have_count(2)
    expect(page.locator(".report-item[data-kind=dpia-missing]")).to_contain_text("Art. 35(1)")
    page.screenshot(path=screenshots / "dpo-start-2-report-high.png", full_page=True)

    page.click(".report-item[data-kind=dpia-missing] .report-objects a")
    expect(page.locator("#id_name")).to_have_value("CCTV")
    page.screenshot(path=screenshots / "dpo-start-3-activity.png", full_page=True)
