"""List pages cost the same number of queries for 3 rows as for 30; bulk actions work."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from audit.models import AuditEvent
from audit.services import Actor, record_event
from legal_documents.models import DocumentationPackage, DocumentVersion, LegalDocument
from legal_documents.packages.services import documentation_package_build
from tests.factories import ClientCompanyFactory, LegalDocumentFactory, MembershipFactory

pytestmark = pytest.mark.django_db

LISTS = [
    "legal_documents_legaldocument",
    "legal_documents_documentversion",
    "legal_documents_documentationpackage",
    "audit_auditevent",
    "organizations_clientcompany",
    "organizations_membership",
]


def add_rows(organization, count: int) -> None:  # type: ignore[no-untyped-def]
    """`count` rows of every listed model, each with its related rows different."""
    for index in range(count):
        company = ClientCompanyFactory(organization=organization)
        document = LegalDocumentFactory(organization=organization, client_company=company)
        DocumentVersion.objects.create(
            document=document, number=1, content_markdown="x", content_sha256="a" * 64,
            previous_sha256="0" * 64, chain_sha256=f"{index:064d}", stage="draft",
            author=document.creator, change_reason="Generated", created_at=document.created_at,
        )  # fmt: skip
        DocumentationPackage.objects.create(organization=organization)
        record_event(
            organization=organization,
            actor=Actor(label=f"user {index}", user_id=document.creator_id),
            action="document.read",
            object_type="document",
            object_id=document.pk,
        )
        MembershipFactory(organization=organization)


def queries_of(client, url: str) -> int:  # type: ignore[no-untyped-def]
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured.captured_queries)


@pytest.mark.parametrize("model", LISTS)
def test_a_list_page_of_30_rows_costs_the_queries_of_3_rows(dpo_staff, model):
    url = reverse(f"admin:{model}_changelist")
    add_rows(dpo_staff.organization, 3)
    few = queries_of(dpo_staff.client, url)
    add_rows(dpo_staff.organization, 27)
    many = queries_of(dpo_staff.client, url)
    assert many == few, f"{model}: {few} queries for 3 rows, {many} for 30"


def test_the_document_list_stays_within_its_query_budget(dpo_staff, django_assert_max_num_queries):
    add_rows(dpo_staff.organization, 30)
    with django_assert_max_num_queries(20):
        dpo_staff.client.get(reverse("admin:legal_documents_legaldocument_changelist"))


def test_export_selected_downloads_a_zip_of_markdown_and_pdf_and_audits_each(dpo_staff, document):
    changelist = reverse("admin:legal_documents_legaldocument_changelist")
    response = dpo_staff.client.post(
        changelist, {"action": "export_selected", "_selected_action": [str(document.pk)]}
    )
    assert response.status_code == 200
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    names = sorted(archive.namelist())
    assert names == [f"{document.pk}/dpia-v1.md", f"{document.pk}/dpia-v1.pdf"]
    assert archive.read(names[1]).startswith(b"%PDF")
    event = AuditEvent.objects.get(action="document.export", object_id=str(document.pk))
    assert event.details["bulk"] is True


def test_rebuild_requests_a_new_package_with_the_same_filters(dpo_staff, document):
    package = DocumentationPackage.objects.create(
        organization=dpo_staff.organization, filters={"documentTypes": ["DPIA"]}
    )
    documentation_package_build(package_id=str(package.pk))
    changelist = reverse("admin:legal_documents_documentationpackage_changelist")
    dpo_staff.client.post(
        changelist, {"action": "rebuild_selected", "_selected_action": [str(package.pk)]}
    )
    rebuilt = DocumentationPackage.objects.exclude(pk=package.pk).get()
    assert rebuilt.filters == {"documentTypes": ["DPIA"]}
    assert rebuilt.status == "processing"


def test_the_document_list_filters_by_status_and_searches_by_creator(dpo_staff):
    completed = LegalDocumentFactory(organization=dpo_staff.organization)
    LegalDocumentFactory(organization=dpo_staff.organization, status="failed")
    url = reverse("admin:legal_documents_legaldocument_changelist")
    listed = dpo_staff.client.get(url, {"status__exact": "completed"}).context["cl"].result_list
    assert [row.pk for row in listed] == [completed.pk]
    found = dpo_staff.client.get(url, {"q": completed.creator.email}).context["cl"].result_list
    assert [row.pk for row in found] == [completed.pk]
    assert LegalDocument.objects.count() == 2
