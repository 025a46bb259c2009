"""The admin shows stale documents (list column and filter, a notice) and refreshes them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from audit.models import AuditEvent
from legal_documents.models import LegalDocument
from tests.admin.support import change_url, flow_url
from tests.legal_documents.test_register_documents import _save, create, seed_register

pytestmark = pytest.mark.django_db
CHANGELIST = "admin:legal_documents_legaldocument_changelist"


@pytest.fixture
def stale_dpa(dpo, dpo_staff, django_capture_on_commit_callbacks, staleness_task_here):  # type: ignore[no-untyped-def]
    register = seed_register(dpo.organization)
    dpa = create(dpo, "DATA_PROCESSING_AGREEMENT", vendorId=str(register["lohncloud"].pk))
    fresh = create(dpo, "DPIA", processingActivityIds=[str(register["customers"].pk)])
    with django_capture_on_commit_callbacks(execute=True):
        _save(register["lohncloud"], country="Switzerland")
    return LegalDocument.objects.get(pk=dpa.pk), fresh


def test_the_list_shows_and_filters_stale_documents(dpo_staff, stale_dpa):
    dpa, fresh = stale_dpa
    url = reverse(CHANGELIST)
    stale_page = dpo_staff.client.get(url, {"stale": "yes"})
    assert stale_page.status_code == 200
    shown = {str(document.pk) for document in stale_page.context["cl"].result_list}
    assert shown == {str(dpa.pk)}
    fresh_page = dpo_staff.client.get(url, {"stale": "no"})
    assert str(fresh.pk) in {str(d.pk) for d in fresh_page.context["cl"].result_list}
    assert "column-stale_flag" in dpo_staff.client.get(url).content.decode()


def test_the_change_page_warns_and_refresh_writes_a_new_version(dpo_staff, stale_dpa):
    dpa, fresh = stale_dpa
    html = dpo_staff.client.get(change_url(dpa)).content.decode()
    assert 'id="stale-notice"' in html and 'id="refresh-form"' in html
    assert 'id="stale-notice"' not in dpo_staff.client.get(change_url(fresh)).content.decode()

    response = dpo_staff.client.post(flow_url(dpa, "refresh"))
    assert response.status_code == 302
    refreshed = LegalDocument.objects.get(pk=dpa.pk)
    assert refreshed.stale_since is None and refreshed.version == 2
    assert "Switzerland" in refreshed.content_markdown
    assert AuditEvent.objects.filter(action="document.refresh", object_id=str(dpa.pk)).exists()


def test_an_auditor_sees_the_notice_but_cannot_refresh(auditor_staff, stale_dpa):
    dpa, _ = stale_dpa
    html = auditor_staff.client.get(change_url(dpa)).content.decode()
    assert 'id="stale-notice"' in html and 'id="refresh-form"' not in html
    assert auditor_staff.client.post(flow_url(dpa, "refresh")).status_code == 403
    assert LegalDocument.objects.get(pk=dpa.pk).stale_since is not None


def test_the_create_form_offers_the_organizations_register_entries(dpo_staff, outsider):
    from tests.admin.support import add_url

    own = seed_register(dpo_staff.organization)
    foreign = seed_register(outsider.organization)
    html = dpo_staff.client.get(add_url("PRIVACY_POLICY")).content.decode()
    assert f'value="{own["payroll"].pk}"' in html
    assert f'value="{foreign["payroll"].pk}"' not in html
    response = dpo_staff.client.post(
        add_url("PRIVACY_POLICY"),
        {"documentType": "PRIVACY_POLICY", "companyName": "Acme GmbH",
         "processingActivityIds": [str(own["newsletter"].pk)]},
    )  # fmt: skip
    assert response.status_code == 302, response.content
    document = LegalDocument.objects.get(document_type="PRIVACY_POLICY")
    assert document.inputs["processingActivityIds"] == [str(own["newsletter"].pk)]
    assert list(document.register_sources["activities"]) == [str(own["newsletter"].pk)]
    dpa_html = dpo_staff.client.get(add_url("DATA_PROCESSING_AGREEMENT")).content.decode()
    assert f'value="{own["crm"].pk}"' in dpa_html
    assert f'value="{foreign["crm"].pk}"' not in dpa_html
