"""The admin with structured inputs: client company details and object create inputs."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from legal_documents.models import LegalDocument
from organizations.models import ClientCompany
from tests.admin.support import add_url, run_job
from tests.factories import ClientCompanyFactory

pytestmark = pytest.mark.django_db

COMPANY_ADD = "admin:organizations_clientcompany_add"
COMPANY_CHANGE = "admin:organizations_clientcompany_change"


def _company_form(staff, details: str) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {"organization": str(staff.organization.pk), "name": "Nordwind", "details": details}


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("Speicherstadt 5, Hamburg", "Speicherstadt 5, Hamburg"),
        (
            '{"address": "Speicherstadt 5", "dpo": {"name": "Dr. Lena Vogt"}, "fleetSize": 140}',
            {"address": "Speicherstadt 5", "dpo": {"name": "Dr. Lena Vogt"}, "fleetSize": 140},
        ),
    ],
)
def test_client_company_details_are_a_text_or_a_json_object_in_the_admin(dpo_staff, typed, stored):
    response = dpo_staff.client.post(reverse(COMPANY_ADD), _company_form(dpo_staff, typed))
    assert response.status_code == 302, response.context["adminform"].form.errors
    company = ClientCompany.objects.get(organization=dpo_staff.organization)
    assert company.details == stored
    page = dpo_staff.client.get(reverse(COMPANY_CHANGE, args=[company.pk])).content.decode()
    assert "Speicherstadt 5" in page


def test_an_invalid_details_object_is_a_form_error(dpo_staff):
    response = dpo_staff.client.post(reverse(COMPANY_ADD), _company_form(dpo_staff, '{"dpo": 7}'))
    assert response.status_code == 200
    assert "details" in response.context["adminform"].form.errors
    assert not ClientCompany.objects.exists()


def test_a_company_stored_with_a_text_shows_the_text_unquoted(dpo_staff):
    company = ClientCompanyFactory(organization=dpo_staff.organization, details="Łódź, Poland")
    page = dpo_staff.client.get(reverse(COMPANY_CHANGE, args=[company.pk])).content.decode()
    assert ">\nŁódź, Poland</textarea>" in page  # not the JSON string "\"Łódź, Poland\""


def test_a_breach_object_and_company_details_object_through_the_create_form(dpo_staff):
    details = {"address": "Speicherstadt 5", "dpo": {"name": "Dr. Lena Vogt"}}
    response = dpo_staff.client.post(
        add_url("BREACH_NOTIFICATION"),
        {
            "documentType": "BREACH_NOTIFICATION",
            "companyName": "Nordwind Logistik GmbH",
            "companyDetails": json.dumps(details),
            "breach": "discoveredAt: 2026-03-01T08:30:00Z\n"
            "nature: Reports exposed on a public link\n"
            "categories: Driver ID; Driving events\n"
            "dataSubjectsAffected: 160",
        },
    )
    assert response.status_code == 302, response.context["form"].errors
    document = LegalDocument.objects.get(organization=dpo_staff.organization)
    assert document.inputs["companyDetails"] == details
    assert document.inputs["breach"] == {
        "discoveredAt": "2026-03-01T08:30:00Z",
        "nature": "Reports exposed on a public link",
        "dataSubjectsAffected": 160,
        "categories": ["Driver ID", "Driving events"],
    }
    markdown = run_job(document).content_markdown
    assert "Reports exposed on a public link" in markdown
    assert "Dr. Lena Vogt" in markdown


def test_the_client_company_list_searches_inside_details_texts_and_objects(dpo_staff):
    ClientCompanyFactory(organization=dpo_staff.organization, name="Text", details="Łódź")
    ClientCompanyFactory(
        organization=dpo_staff.organization, name="Object", details={"address": "Hamburg"}
    )
    url = reverse("admin:organizations_clientcompany_changelist")
    for query, name in (("Łódź", "Text"), ("hamburg", "Object")):
        response = dpo_staff.client.get(url, {"q": query})
        assert [company.name for company in response.context["cl"].result_list] == [name]
