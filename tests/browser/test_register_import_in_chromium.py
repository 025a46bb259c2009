"""The register import preview in a real browser: upload, read the plan, confirm."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from organizations.models import Role
from register.models import ProcessingActivity, Vendor
from tests.browser.conftest import admin_user, log_in
from tests.conftest import make_caller
from tests.support.register_workbook import register_workbook

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("register_imports_here"),
]


def test_a_dpo_previews_and_confirms_a_register_import(page, admin_server, screenshots, tmp_path):
    dpo = admin_user(make_caller(Role.DPO).membership)
    workbook = tmp_path / "Verzeichnis-2026.xlsx"
    workbook.write_bytes(register_workbook())
    log_in(page, admin_server, dpo)

    page.goto(f"{admin_server.url}/admin/register/processingactivity/import/")
    page.set_input_files("input[name=file]", str(workbook))
    page.screenshot(path=screenshots / "register-import-1-upload.png", full_page=True)
    page.click("#preview-import")

    plan = page.locator("#import-plan")
    expect(plan).to_be_visible()
    expect(page.locator("#import-summary")).to_contain_text("18 to create")
    expect(plan.locator("tr.action-created")).to_have_count(18)
    zoom = plan.locator("tr", has_text="Zoom Video Communications, Inc.").first
    expect(zoom.locator(".plan-problem")).to_contain_text("no transfer mechanism")
    expect(page.locator("#import-sheets")).to_contain_text("Verarbeitungstätigkeiten")
    page.screenshot(path=screenshots / "register-import-2-preview.png", full_page=True)
    assert not ProcessingActivity.objects.exists()  # the preview writes nothing

    page.click("#apply-import")

    expect(page.locator("#import-applied")).to_contain_text("18 created")
    page.screenshot(path=screenshots / "register-import-3-applied.png", full_page=True)
    organization = dpo.membership.organization
    assert ProcessingActivity.objects.filter(organization=organization).count() == 12
    assert Vendor.objects.filter(organization=organization).count() == 6

    # The same file again: every row unchanged, nothing to apply.
    page.goto(f"{admin_server.url}/admin/register/processingactivity/import/")
    page.set_input_files("input[name=file]", str(workbook))
    page.click("#preview-import")
    expect(page.locator("#import-plan tr.action-unchanged")).to_have_count(18)
    expect(page.locator("#apply-import")).to_have_count(0)
    page.screenshot(path=screenshots / "register-import-4-unchanged.png", full_page=True)
