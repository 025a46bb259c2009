"""The register import in the admin: preview (writes nothing), confirm (applies), roles."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from register.models import ProcessingActivity, RegisterImport, Vendor
from tests.admin.conftest import StaffMember
from tests.support.register_workbook import register_workbook

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("register_imports_here")]

URL = "/admin/register/processingactivity/import/"


def preview(member: StaffMember, content: bytes, name: str = "register.xlsx"):
    """Upload: a dry-run import (run here at once), then its page (the preview)."""
    upload = SimpleUploadedFile(name, content)
    return member.client.post(URL, {"file": upload}, follow=True)


def confirm(member: StaffMember, token: str):
    return member.client.post(URL, {"confirm": token}, follow=True)


def token_of(html: str) -> str:
    found = re.search(r'name="confirm" value="([^"]+)"', html)
    assert found, html[:3000]
    return found.group(1)


def test_the_preview_shows_the_plan_and_confirming_applies_it(dpo_staff):
    assert reverse("register_processingactivity_import") == URL
    response = preview(dpo_staff, register_workbook())
    html = response.content.decode()

    assert response.status_code == 200
    assert html.count('class="action-created"') == 18
    assert "outside the EEA (United States) with no transfer mechanism" in html
    assert not ProcessingActivity.objects.exists()

    applied = confirm(dpo_staff, token_of(html)).content.decode()

    assert 'id="import-applied"' in applied
    assert ProcessingActivity.objects.filter(organization=dpo_staff.organization).count() == 12
    assert Vendor.objects.filter(organization=dpo_staff.organization).count() == 6
    # The token is spent: confirming twice does not import twice.
    again = confirm(dpo_staff, token_of(html)).content.decode()
    assert "expired or was already applied" in again


def test_a_second_preview_of_the_same_file_has_nothing_to_apply(dpo_staff):
    html = preview(dpo_staff, register_workbook()).content.decode()
    confirm(dpo_staff, token_of(html))

    html = preview(dpo_staff, register_workbook()).content.decode()

    assert html.count('class="action-unchanged"') == 18
    assert 'id="apply-import"' not in html


def test_the_preview_of_a_file_without_headers_lists_the_headers_found(dpo_staff):
    html = preview(dpo_staff, b"Kunde;Umsatz\nMeier;100\n", "export.csv").content.decode()

    assert 'id="import-error"' in html
    assert "Kunde, Umsatz" in html


def test_a_token_of_another_staff_member_applies_nothing(dpo_staff, outsider_staff):
    html = preview(dpo_staff, register_workbook()).content.decode()

    response = confirm(outsider_staff, token_of(html))

    assert "expired or was already applied" in response.content.decode()
    assert not ProcessingActivity.objects.exists()


def test_auditors_may_not_import_in_the_admin(auditor_staff):
    assert auditor_staff.client.get(URL).status_code == 403
    assert preview(auditor_staff, register_workbook()).status_code == 403
    assert not RegisterImport.objects.exists()
    assert not ProcessingActivity.objects.exists()


def test_the_preview_is_an_import_row_whose_file_waits_for_the_confirmation(dpo_staff):
    # Previews sat in Redis, 2 MiB each for 30 minutes, unthrottled (issue 25, item 11):
    # now the dry-run import row holds the (bounded) plan, its file waits in the storage.
    html = preview(dpo_staff, register_workbook()).content.decode()
    previewed = RegisterImport.objects.get(pk=token_of(html))

    assert (previewed.dry_run, previewed.via, previewed.status) == (True, "admin", "completed")
    assert previewed.file_key and previewed.keep_file_until is not None
    confirm(dpo_staff, token_of(html))

    applied = RegisterImport.objects.get(dry_run=False)
    previewed.refresh_from_db()
    assert applied.status == "completed"
    assert previewed.file_key == applied.file_key == ""  # the file is gone once applied


def test_a_running_import_shows_a_page_that_refreshes_itself(dpo_staff, monkeypatch):
    from common.background import leases

    # No worker took it yet.
    monkeypatch.setattr(leases, "send_on_commit", lambda *args, **kwargs: None)

    response = preview(dpo_staff, register_workbook())

    html = response.content.decode()
    assert 'id="import-running"' in html
    assert 'http-equiv="refresh"' in html
    assert 'id="register-upload"' not in html


def test_previews_past_the_running_limit_are_refused(dpo_staff, monkeypatch, settings):
    from common.background import leases

    settings.REGISTER_IMPORT_MAX_RUNNING = 1
    monkeypatch.setattr(leases, "send_on_commit", lambda *args, **kwargs: None)
    preview(dpo_staff, register_workbook())

    html = preview(dpo_staff, register_workbook()).content.decode()

    assert 'id="import-error"' in html
    assert "At most 1 register imports" in html
    assert RegisterImport.objects.count() == 1
