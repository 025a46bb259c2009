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
    if "language" in filters:
        queryset = queryset.filter(language=filters["language"])
    # List items carry no content: leave the large columns in the database.
    return queryset.defer(*LARGE_COLUMNS).order_by("-created_at")
