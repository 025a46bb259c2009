"""A DPO uploads a source in the admin and finds it by searching; never another org's."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.urls import reverse

from assets.ingestion import asset_process
from assets.models import Asset
from audit.models import AuditEvent
from tests.admin.conftest import StaffMember
from tests.support.search_queries import (
    captured_statements,
    lexemes,
    searched_tsqueries,
    table_locked,
)

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


# --- The same limits as the API's search (tests/assets/test_search_limits.py) -------------
FOUR_HUNDRED_ORS = " or ".join("abcdefghijklmnopqrstuvwxyz0123456789"[n % 36] for n in range(400))


def test_the_admin_search_asks_for_at_most_the_term_cap(dpo_staff, settings):
    settings.SEARCH_MAX_TERMS = 32
    upload_in_admin(dpo_staff, "cctv-retention.txt", POLICY)
    url = reverse("admin:legal_documents_asset_search")

    with captured_statements() as captured:
        response = dpo_staff.client.get(url, {"q": FOUR_HUNDRED_ORS})

    assert response.status_code == 200
    tsqueries = searched_tsqueries(captured)
    assert tsqueries, "the admin search sent no full-text query"
    assert all(len(lexemes(tsquery)) <= 32 for tsquery in tsqueries), tsqueries


def test_the_admin_search_shares_the_api_search_budget(dpo, dpo_staff, settings):
    settings.RATE_LIMIT_SEARCH = "2/min"
    url = reverse("admin:legal_documents_asset_search")

    assert (
        dpo.client.get("/api/v1/assets/search", {"q": "retention", "mode": "text"}).status_code
        == 200
    )
    assert dpo_staff.client.get(url, {"q": "retention"}).status_code == 200
    refused = dpo_staff.client.get(url, {"q": "retention"})

    assert refused.status_code == 429
    assert "Too many searches" in refused.content.decode()
    assert AuditEvent.objects.filter(action="asset.search", details__via="admin").count() == 1


def test_a_search_timeout_in_the_admin_is_a_message_not_a_server_error(dpo_staff, settings):
    settings.SEARCH_STATEMENT_TIMEOUT_MS = 200
    url = reverse("admin:legal_documents_asset_search")
    with connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = '5s'")

    with table_locked("assets_asset"):
        response = dpo_staff.client.get(url, {"q": "retention"})

    assert response.status_code == 503
    assert "The search took longer than 200 ms" in response.content.decode()
