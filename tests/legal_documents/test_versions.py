"""Versions of a document: the hash chain, its API, and tampering that `verify` detects."""

from __future__ import annotations

import itertools

import pytest
from django.db import connection

from audit.models import AuditEvent
from legal_documents.models import DocumentVersion, LegalDocument
from legal_documents.services import jobs
from legal_documents.versioning import GENESIS_SHA256, sha256_text
from tests.legal_documents.history_support import DOCUMENTS_URL, edit, generated_document

pytestmark = pytest.mark.django_db


def regenerate(document: LegalDocument, markdown: str) -> LegalDocument:
    """A draft-like regeneration through the job machinery (what a worker does)."""
    jobs.start_job(document, kind=jobs.JobKind.DRAFT, stage="draft")
    jobs.complete_job(
        document_id=str(document.pk),
        job_id=str(document.job_id),
        markdown=markdown,
        author_id=document.creator_id,
        reason="Draft regenerated",
    )
    return LegalDocument.objects.get(pk=document.pk)


@pytest.fixture
def three_versions(dpo) -> LegalDocument:  # type: ignore[no-untyped-def]
    """A generated DPIA (v1), a regeneration (v2) and a manual edit (v3)."""
    document = generated_document(dpo)
    document = regenerate(document, document.content_markdown + "\nRegenerated paragraph.\n")
    response = edit(dpo, document, document.content_markdown + "\nEdited by hand.", "Typo fixed")
    assert response.status_code == 200, response.content
    return LegalDocument.objects.get(pk=document.pk)


def test_each_version_links_to_the_content_hash_of_the_one_before(three_versions):
    versions = list(three_versions.versions.order_by("number"))
    assert [version.number for version in versions] == [1, 2, 3]
    assert versions[0].previous_sha256 == GENESIS_SHA256
    for before, after in itertools.pairwise(versions):
        assert after.previous_sha256 == before.content_sha256
    assert versions[-1].content_sha256 == sha256_text(three_versions.content_markdown)
    assert three_versions.content_sha256 == versions[-1].content_sha256


def test_the_versions_endpoint_lists_hashes_authors_and_reasons(dpo, three_versions):
    response = dpo.client.get(f"{DOCUMENTS_URL}/{three_versions.pk}/versions")
    assert response.status_code == 200
    versions = response.json()["versions"]
    assert [version["version"] for version in versions] == [1, 2, 3]
    assert versions[2]["changeReason"] == "Typo fixed"
    assert versions[2]["author"] == dpo.membership.user.email
    assert versions[2]["previousSha256"] == versions[1]["contentSha256"]
    assert versions[0]["createdAt"].endswith("Z")
    assert "content" not in versions[0]
    assert AuditEvent.objects.filter(
        action="document.read", object_id=str(three_versions.pk), details__view="versions"
    ).exists()


def test_one_version_comes_with_its_own_content(dpo, three_versions):
    first = DocumentVersion.objects.get(document=three_versions, number=1)
    response = dpo.client.get(f"{DOCUMENTS_URL}/{three_versions.pk}/versions/1")
    assert response.status_code == 200
    assert response.json()["content"] == first.content_markdown
    assert "Edited by hand." not in response.json()["content"]


def test_an_unknown_version_number_is_not_found(dpo, three_versions):
    response = dpo.client.get(f"{DOCUMENTS_URL}/{three_versions.pk}/versions/9")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "NOT_FOUND"


def test_an_intact_chain_verifies_and_the_check_is_audited(dpo, three_versions):
    response = dpo.client.get(f"{DOCUMENTS_URL}/{three_versions.pk}/verify")
    assert response.json() == {"valid": True, "versions": 3, "brokenAt": None}
    assert AuditEvent.objects.filter(
        action="document.verify", object_id=str(three_versions.pk), details__valid=True
    ).exists()


def test_verify_detects_a_version_row_changed_in_the_database(dpo, three_versions):
    DocumentVersion.objects.filter(document=three_versions, number=2).update(
        content_markdown="# Rewritten history\n"
    )
    response = dpo.client.get(f"{DOCUMENTS_URL}/{three_versions.pk}/verify")
    assert response.json() == {"valid": False, "versions": 3, "brokenAt": 2}


def test_verify_detects_a_changed_reason_even_with_consistent_content_hashes(dpo, three_versions):
    DocumentVersion.objects.filter(document=three_versions, number=1).update(
        change_reason="Approved by the board"
    )
    response = dpo.client.get(f"{DOCUMENTS_URL}/{three_versions.pk}/verify")
    assert response.json()["brokenAt"] == 1


def test_verify_detects_a_tampered_simple_history_row(dpo, three_versions):
    table = LegalDocument.history.model._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET content_markdown = %s WHERE id = %s AND version = 2",  # noqa: S608
            ["# Forged\n", three_versions.pk],
        )
        assert cursor.rowcount >= 1
    response = dpo.client.get(f"{DOCUMENTS_URL}/{three_versions.pk}/verify")
    assert response.json() == {"valid": False, "versions": 3, "brokenAt": 2}


def test_verify_detects_a_deleted_version(dpo, three_versions):
    DocumentVersion.objects.filter(document=three_versions, number=2).delete()
    response = dpo.client.get(f"{DOCUMENTS_URL}/{three_versions.pk}/verify")
    assert response.json()["valid"] is False


def test_versions_of_another_organization_are_not_found(outsider, three_versions):
    for suffix in ("versions", "versions/1", "verify", "export?format=md"):
        response = outsider.client.get(f"{DOCUMENTS_URL}/{three_versions.pk}/{suffix}")
        assert response.status_code == 404, suffix
        assert response.json()["error"]["code"] == "NOT_FOUND"
