"""Each version's chain hash is signed with the evidence key: a version chain rewritten
consistently in the database (every hash recomputed, the history rows too) fails `verify`."""

from __future__ import annotations

import pytest
from django.db import connection

from legal_documents.models import DocumentVersion, LegalDocument
from legal_documents.versioning import GENESIS_SHA256, chain_hash, sha256_text
from tests.legal_documents.history_support import DOCUMENTS_URL, edit, generated_document

pytestmark = pytest.mark.django_db

OLD_KEY = "the-key-before-the-rotation-0123456789abcdef"
NEW_KEY = "the-key-after-the-rotation-fedcba9876543210"


@pytest.fixture
def three_versions(dpo) -> LegalDocument:  # type: ignore[no-untyped-def]
    """A generated DPIA (v1) edited twice by hand (v2, v3)."""
    document = generated_document(dpo)
    for number in (2, 3):
        response = edit(dpo, document, document.content_markdown + f"\nEdit {number}.", "Edit")
        assert response.status_code == 200, response.content
        document = LegalDocument.objects.get(pk=document.pk)
    return document


def verify(caller, document: LegalDocument) -> dict:  # type: ignore[no-untyped-def]
    response = caller.client.get(f"{DOCUMENTS_URL}/{document.pk}/verify")
    assert response.status_code == 200
    return response.json()


def rewrite_version_consistently(document: LegalDocument, number: int, markdown: str) -> None:
    """Replace one version's text and recompute every hash from it on, as SQL access allows;
    the simple-history rows of that version get the same text."""
    versions = list(DocumentVersion.objects.filter(document=document).order_by("number"))
    previous_content = previous_chain = GENESIS_SHA256
    for version in versions:
        if version.number == number:
            version.content_markdown = markdown
        if version.number >= number:
            version.content_sha256 = sha256_text(version.content_markdown)
            version.previous_sha256 = previous_content
            version.chain_sha256 = chain_hash(
                number=version.number,
                content_sha256=version.content_sha256,
                previous_sha256=version.previous_sha256,
                previous_chain_sha256=previous_chain,
                stage=version.stage,
                author_id=version.author_id,
                change_reason=version.change_reason,
                created_at=version.created_at,
            )
            DocumentVersion.objects.filter(pk=version.pk).update(
                content_markdown=version.content_markdown,
                content_sha256=version.content_sha256,
                previous_sha256=version.previous_sha256,
                chain_sha256=version.chain_sha256,
            )
        previous_content, previous_chain = version.content_sha256, version.chain_sha256
    table = LegalDocument.history.model._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET content_markdown = %s WHERE id = %s AND version = %s",  # noqa: S608
            [markdown, document.pk, number],
        )


def test_an_intact_signed_chain_verifies(dpo, three_versions):
    assert verify(dpo, three_versions) == {"valid": True, "versions": 3, "brokenAt": None}
    signed = DocumentVersion.objects.filter(document=three_versions).exclude(signature="")
    assert signed.count() == 3


def test_a_consistently_rewritten_version_chain_is_detected(dpo, three_versions):
    rewrite_version_consistently(three_versions, 2, "# Rewritten history\n")
    assert verify(dpo, three_versions) == {"valid": False, "versions": 3, "brokenAt": 2}


def test_a_version_row_inserted_without_a_signature_is_detected(dpo, three_versions):
    last = DocumentVersion.objects.get(document=three_versions, number=3)
    DocumentVersion.objects.filter(pk=last.pk).update(signature="", signature_key_id="")
    assert verify(dpo, three_versions)["brokenAt"] == 3


def test_a_wrong_key_fails_verification(dpo, three_versions, settings):
    settings.EVIDENCE_SIGNING_KEY = NEW_KEY
    assert verify(dpo, three_versions) == {"valid": False, "versions": 3, "brokenAt": 1}


def test_after_a_rotation_old_versions_verify_with_the_old_key(dpo, settings):
    settings.EVIDENCE_SIGNING_KEY = OLD_KEY
    document = generated_document(dpo)
    settings.EVIDENCE_SIGNING_KEY = NEW_KEY
    settings.EVIDENCE_SIGNING_OLD_KEYS = [OLD_KEY]
    assert edit(dpo, document, document.content_markdown + "\nAfter.", "Edit").status_code == 200
    document = LegalDocument.objects.get(pk=document.pk)
    assert verify(dpo, document) == {"valid": True, "versions": 2, "brokenAt": None}
    key_ids = list(document.versions.order_by("number").values_list("signature_key_id", flat=True))
    assert key_ids[0] != key_ids[1]
    settings.EVIDENCE_SIGNING_OLD_KEYS = []
    assert verify(dpo, document) == {"valid": False, "versions": 2, "brokenAt": 1}
