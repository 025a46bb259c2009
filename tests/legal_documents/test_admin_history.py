"""Admin of legal documents: history diff, export buttons, chain check, organization scope."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from audit.models import AuditEvent
from legal_documents.models import DocumentVersion, LegalDocument
from tests.factories import MembershipFactory, UserFactory
from tests.legal_documents.history_support import edit, generated_document
from tests.support.second_factor import verified_login

pytestmark = pytest.mark.django_db


def staff_client(organization) -> Client:  # type: ignore[no-untyped-def]
    """A staff member of `organization` with the view permissions of legal_documents."""
    user = UserFactory(is_staff=True)
    MembershipFactory(user=user, organization=organization)
    user.user_permissions.set(
        Permission.objects.filter(
            content_type__app_label="legal_documents", codename__startswith="view_"
        )
    )
    client = Client()
    verified_login(client, user)
    return client


@pytest.fixture
def document(dpo) -> LegalDocument:  # type: ignore[no-untyped-def]
    """A generated DPIA edited once (two versions, two history rows with content)."""
    generated = generated_document(dpo)
    markdown = generated.content_markdown + "\nA <b>bold</b> claim added by hand."
    assert edit(dpo, generated, markdown, "Claim added").status_code == 200
    return LegalDocument.objects.get(pk=generated.pk)


def change_url(document: LegalDocument) -> str:
    return reverse("admin:legal_documents_legaldocument_change", args=[document.pk])


def test_the_change_page_shows_the_chain_check_and_an_export_button_per_format(dpo, document):
    page = staff_client(dpo.organization).get(change_url(document))
    assert page.status_code == 200
    html = page.content.decode()
    assert "valid (2 versions)" in html
    for fmt in ("html", "pdf", "md", "txt", "docx"):
        assert f"/export/{fmt}/" in html
    assert "&lt;b&gt;bold&lt;/b&gt;" in html  # the preview shows Markdown, never runs it


def test_a_broken_chain_is_shown_on_the_change_page(dpo, document):
    DocumentVersion.objects.filter(document=document, number=1).update(content_markdown="x")
    html = staff_client(dpo.organization).get(change_url(document)).content.decode()
    assert "BROKEN at version 1" in html


def test_an_admin_export_downloads_the_file_and_is_audited(dpo, document):
    url = reverse("admin:legal_documents_legaldocument_export", args=[document.pk, "md"])
    response = staff_client(dpo.organization).get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="dpia-v2.md"'
    assert response.content.decode() == document.content_markdown
    event = AuditEvent.objects.get(action="document.export", object_id=str(document.pk))
    assert event.details["via"] == "admin"


def test_the_history_page_lists_versions_with_their_changes(dpo, document):
    url = reverse("admin:legal_documents_legaldocument_history", args=[document.pk])
    response = staff_client(dpo.organization).get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Claim added" in html  # the change reason of the manual edit
    assert "Content markdown" in html or "content_markdown" in html  # the diff column
    assert "Revert" not in html


def test_another_organizations_document_history_and_exports_are_not_found(dpo, outsider, document):
    client = staff_client(outsider.organization)
    history = reverse("admin:legal_documents_legaldocument_history", args=[document.pk])
    assert client.get(history).status_code == 404
    export = reverse("admin:legal_documents_legaldocument_export", args=[document.pk, "pdf"])
    assert client.get(export).status_code == 404
    record = document.history.order_by("history_id").first()
    old_version = reverse(
        "admin:legal_documents_legaldocument_simple_history",
        args=[document.pk, record.history_id],
    )
    assert client.get(old_version).status_code == 404
    listing = client.get(reverse("admin:legal_documents_legaldocument_changelist"))
    assert str(document.pk) not in listing.content.decode()


def test_versions_and_packages_are_read_only_even_for_a_superuser(dpo, document):
    superuser = UserFactory(is_staff=True, is_superuser=True)
    client = Client()
    verified_login(client, superuser)
    version = document.versions.get(number=1)
    url = reverse("admin:legal_documents_documentversion_change", args=[version.pk])
    response = client.post(url, {"change_reason": "rewritten"})
    assert response.status_code == 403
    assert client.get(reverse("admin:legal_documents_documentversion_add")).status_code == 403
    assert client.get(reverse("admin:legal_documents_documentationpackage_add")).status_code == 403
    assert client.get(change_url(document)).status_code == 200
