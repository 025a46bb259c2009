"""Reads of legal documents."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from legal_documents.models import LegalDocument
from organizations.models import Membership, Role


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
    return queryset.order_by("-created_at")
