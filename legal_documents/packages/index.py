"""The documentation index: one row per document, as JSON objects or as CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from datetime import date
from typing import Any

from django.db.models import QuerySet

from legal_documents.models import LegalDocument
from legal_documents.selectors import document_completeness

INDEX_COLUMNS = (
    "id", "documentType", "stage", "status", "version", "createdAt", "updatedAt",
    "contentSha256", "complete", "missingItems",
)  # fmt: skip


def iso(value: Any) -> str | None:
    return value.isoformat().replace("+00:00", "Z") if value else None


def filtered_documents(
    queryset: QuerySet[LegalDocument],
    *,
    document_types: Iterable[str] | None = None,
    created_from: date | None = None,
    created_to: date | None = None,
) -> QuerySet[LegalDocument]:
    """`queryset` (already organization-scoped) narrowed by type and creation date (inclusive)."""
    if document_types:
        queryset = queryset.filter(document_type__in=list(document_types))
    if created_from is not None:
        queryset = queryset.filter(created_at__date__gte=created_from)
    if created_to is not None:
        queryset = queryset.filter(created_at__date__lte=created_to)
    return queryset.order_by("created_at", "id")


def index_row(document: LegalDocument) -> dict[str, Any]:
    """One index entry; `complete` is null and `missingItems` empty while there is no content."""
    complete: bool | None = None
    missing: list[str] = []
    if document.has_content:
        report = document_completeness(document)
        complete, missing = report.complete, list(report.missing)
    return {
        "id": str(document.pk),
        "documentType": document.document_type,
        "stage": document.stage,
        "status": document.status,
        "version": document.version,
        "createdAt": iso(document.created_at),
        "updatedAt": iso(document.updated_at),
        "contentSha256": document.content_sha256,
        "complete": complete,
        "missingItems": missing,
    }


def index_rows(documents: Iterable[LegalDocument]) -> list[dict[str, Any]]:
    return [index_row(document) for document in documents]


def index_csv(rows: Iterable[dict[str, Any]]) -> str:
    """The rows as CSV with a header; `missingItems` joined by `;`, booleans as true/false."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(INDEX_COLUMNS)
    for row in rows:
        writer.writerow([_csv_value(row[column]) for column in INDEX_COLUMNS])
    return buffer.getvalue()


def _csv_value(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ";".join(str(item) for item in value)
    text = str(value)
    # A cell starting with = + - @ is a formula to spreadsheet software (CSV injection).
    return f"'{text}" if text[:1] in {"=", "+", "-", "@"} else text
