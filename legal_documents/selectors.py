"""Reads of legal documents."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db.models import Count, QuerySet
from django.utils import timezone

from gdpr.assessment import assess
from legal_documents.models import LegalDocument, Status
from legal_documents.questionnaire import answer_values
from organizations.models import Membership, Role

logger = logging.getLogger(__name__)

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
    if filters.get("stale") is not None:
        queryset = queryset.filter(stale_since__isnull=not filters["stale"])
    # List items carry no content: leave the large columns in the database.
    return queryset.defer(*LARGE_COLUMNS).order_by("-created_at")


# -- what the processing register's consistency report and the DPO's start page read ----------
REPORT_COLUMNS = ("id", "organization_id", "document_type", "status", "stage", "inputs",
                  "answers", "finalize_answers", "register_sources", "content_markdown",
                  "created_at", "stale_since")  # fmt: skip


def documents_of_types(
    *, organization_id: Any, document_types: tuple[str, ...]
) -> QuerySet[LegalDocument]:
    """The organization's documents of `document_types`, oldest first, with what the
    consistency report reads (inputs, answers, register sources, content)."""
    return (
        LegalDocument.objects.filter(
            organization_id=organization_id, document_type__in=document_types
        )
        .only(*REPORT_COLUMNS)
        .order_by("created_at", "pk")
    )


def document_counts_by_status(*, organization_id: Any) -> dict[str, int]:
    """`{status: count}` of the organization's documents (every status, 0 when none)."""
    counts = dict.fromkeys(Status.values, 0)
    rows = (
        LegalDocument.objects.filter(organization_id=organization_id)
        .values_list("status")
        .annotate(total=Count("pk"))
        .order_by()
    )
    counts.update(dict(rows))
    return counts


def stale_documents(*, organization_id: Any) -> QuerySet[LegalDocument]:
    """The organization's documents whose register sources changed, longest stale first.

    Their inputs are read: a document is named by what they say it is about (`naming`)."""
    return (
        LegalDocument.objects.filter(organization_id=organization_id, stale_since__isnull=False)
        .defer(*(column for column in LARGE_COLUMNS if column != "inputs"))
        .order_by("stale_since", "pk")
    )


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


def composition_inputs(
    document: LegalDocument, *, inputs: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The stored inputs (or `inputs` given for the document) as the writers read them: a
    client company's current name and details stand for the company the document is written
    for."""
    inputs = dict(document.inputs if inputs is None else inputs)
    company = document.client_company  # None (and no query) without a client company
    if company is not None:
        inputs["companyName"] = company.name
        inputs["companyDetails"] = company.details
    return inputs


def legal_document_assessment(
    *, document: LegalDocument, now: datetime | None = None
) -> dict[str, Any] | None:
    """The language-neutral assessment (`gdpr.assessment.assess`) of the document's stored
    inputs and answers (finalize answers win), computed now; None when it cannot be computed,
    so that reading a document never fails on it (the error is logged)."""
    answers = {**answer_values(document), **(document.finalize_answers or {})}
    try:
        return assess(
            document_type=document.document_type,
            inputs=composition_inputs(document),
            answers=answers,
            now=now or timezone.now(),
        )
    except Exception:
        logger.exception("assessment of document %s failed", document.pk)
        return None
