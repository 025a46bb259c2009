"""The register import in the admin: preview (writes nothing), confirm (applies), roles."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from register.models import ProcessingActivity, Vendor
from tests.admin.conftest import StaffMember
from tests.support.register_workbook import register_workbook

pytestmark = pytest.mark.django_db

URL = "/admin/register/processingactivity/import/"


def preview(member: StaffMember, content: bytes, name: str = "register.xlsx"):
    upload = SimpleUploadedFile(name, content)
    return member.client.post(URL, {"file": upload})


def token_of(html: str) -> str:
    found = re.search(r'name="token" value="([^"]+)"', html)
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

    applied = dpo_staff.client.post(URL, {"token": token_of(html)}).content.decode()

    assert 'id="import-applied"' in applied
    assert ProcessingActivity.objects.filter(organization=dpo_staff.organization).count() == 12
    assert Vendor.objects.filter(organization=dpo_staff.organization).count() == 6
    # The token is spent: confirming twice does not import twice.
    again = dpo_staff.client.post(URL, {"token": token_of(html)}).content.decode()
    assert "expired or was already applied" in again


def test_a_second_preview_of_the_same_file_has_nothing_to_apply(dpo_staff):
    html = preview(dpo_staff, register_workbook()).content.decode()
    dpo_staff.client.post(URL, {"token": token_of(html)})

    html = preview(dpo_staff, register_workbook()).content.decode()

    assert html.count('class="action-unchanged"') == 18
    assert 'id="apply-import"' not in html


def test_the_preview_of_a_file_without_headers_lists_the_headers_found(dpo_staff):
    html = preview(dpo_staff, b"Kunde;Umsatz\nMeier;100\n", "export.csv").content.decode()

    assert 'id="import-error"' in html
    assert "Kunde, Umsatz" in html


def test_a_token_of_another_staff_member_applies_nothing(dpo_staff, outsider_staff):
    html = preview(dpo_staff, register_workbook()).content.decode()

    response = outsider_staff.client.post(URL, {"token": token_of(html)})

    assert "expired or was already applied" in response.content.decode()
    assert not ProcessingActivity.objects.exists()


def test_auditors_may_not_import_in_the_admin(auditor_staff):
    assert auditor_staff.client.get(URL).status_code == 403
    assert preview(auditor_staff, register_workbook()).status_code == 403
    assert not ProcessingActivity.objects.exists()
