"""Reads of legal documents."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from legal_documents.models import LegalDocument
from organizations.models import Membership, Role

LARGE_COLUMNS = ("content_markdown", "content_html", "content_text", "inputs", "answers",
                 "finalize_answers")  # fmt: skip


def legal_document_list(
    *, queryset: QuerySet[LegalDocument], membership: Membership, filters: dict[str, Any]
) -> QuerySet[LegalDocument]:
    """The caller's documents, newest first (`queryset` is already organization-scoped).

    A DPO lists the documents they created; admins and auditors list the organization's.
    """
    if membership.role == Role.DPO:
        queryset = queryset.filter(creator=membership.user)
    if "documentType" in filters:
        queryset = queryset.filter(document_type=filters["documentType"])
    if "status" in filters:
        queryset = queryset.filter(status=filters["status"])
    if filters.get("stale") is not None:
        queryset = queryset.filter(stale_since__isnull=not filters["stale"])
    # List items carry no content: leave the large columns in the database.
    return queryset.defer(*LARGE_COLUMNS).order_by("-created_at")


def document_completeness(document: LegalDocument, markdown: str | None = None) -> Any:
    """The completeness report of the document's content (or of `markdown` for it).

    A whole register repeats items (b)-(g) once per activity: each occurrence must be filled.
    """
    from gdpr.composition import completeness_report
    from gdpr.composition.register import is_register_inputs
    from gdpr.doctypes.registry import get_document_type

    return completeness_report(
        document_type=get_document_type(document.document_type),
        markdown=document.content_markdown if markdown is None else markdown,
        every_occurrence=is_register_inputs(document.inputs or {}),
    )
