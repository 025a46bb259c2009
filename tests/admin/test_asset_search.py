"""A DPO uploads a source in the admin and finds it by searching; never another org's."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from assets.ingestion import asset_process
from assets.models import Asset
from audit.models import AuditEvent
from tests.admin.conftest import StaffMember

pytestmark = pytest.mark.django_db

POLICY = b"Video recordings of the warehouse are erased after 72 hours.\n"


def upload_in_admin(member: StaffMember, name: str, content: bytes) -> Asset:
    """Upload through the Asset admin's add form, then process in-process."""
    file = SimpleUploadedFile(name, content, content_type="text/plain")
    response = member.client.post(
        reverse("admin:assets_asset_add"),
        {"organization": str(member.organization.pk), "upload": file},
    )
    assert response.status_code == 302, response.content[:2000]
    asset = Asset.objects.get(organization=member.organization, original_file_name=name)
    asset_process(asset_id=str(asset.pk))
    return asset


def test_a_dpo_finds_an_uploaded_asset_by_searching_and_the_search_is_audited(dpo_staff):
    asset = upload_in_admin(dpo_staff, "cctv-retention.txt", POLICY)
    url = reverse("admin:legal_documents_asset_search")
    response = dpo_staff.client.get(url, {"q": "how long are warehouse recordings kept"})
    html = response.content.decode()
    assert response.status_code == 200
    assert "cctv-retention.txt" in html
    assert reverse("admin:assets_asset_change", args=[asset.pk]) in html
    event = AuditEvent.objects.get(action="asset.search")
    assert event.details["via"] == "admin"


def test_the_asset_search_never_shows_another_organizations_assets(dpo_staff, outsider_staff):
    upload_in_admin(dpo_staff, "cctv-retention.txt", POLICY)
    url = reverse("admin:legal_documents_asset_search")
    html = outsider_staff.client.get(url, {"q": "warehouse recordings erased"}).content.decode()
    assert "cctv-retention.txt" not in html
    assert "Nothing found" in html
