"""Helpers of the version, export, package and admin tests: documents with real content."""

from __future__ import annotations

import re

from gdpr.composition import completeness_report
from gdpr.doctypes.registry import get_document_type
from legal_documents.models import LegalDocument
from tests.conftest import Caller
from tests.legal_documents.test_api import create, generate_now

NON_LATIN_NAMES = ("Łódź", "Ærø", "Müller")
DOCUMENTS_URL = "/api/v1/legal-documents"


def generated_document(caller: Caller, document_type: str = "DPIA") -> LegalDocument:
    """A document created through the API and generated in-process (version 1, complete)."""
    response = create(caller, document_type)
    assert response.status_code == 201, response.content
    return generate_now(response.json()["id"])


def edit(caller: Caller, document: LegalDocument, markdown: str, reason: str = "Manual edit"):  # type: ignore[no-untyped-def]
    """PATCH the document's Markdown; returns the response."""
    return caller.client.patch(
        f"{DOCUMENTS_URL}/{document.pk}",
        {"markdown": markdown, "changeReason": reason},
        format="json",
    )


def without_item(markdown: str, item_id: str) -> str:
    """The Markdown with the heading anchored `{#item_id}` and its text removed."""
    lines = markdown.splitlines()
    start = next(index for index, line in enumerate(lines) if f"{{#{item_id}}}" in line)
    level = len(lines[start]) - len(lines[start].lstrip("#"))
    end = next(
        (
            index
            for index in range(start + 1, len(lines))
            if re.match(rf"^#{{1,{level}}}\s", lines[index])
        ),
        len(lines),
    )
    return "\n".join(lines[:start] + lines[end:]) + "\n"


def first_present_item(document: LegalDocument) -> str:
    report = completeness_report(
        document_type=get_document_type(document.document_type),
        markdown=document.content_markdown,
    )
    return next(item.id for item in report.items if item.status == "present")
