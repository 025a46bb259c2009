"""Bench only: bare Django views returning the same JSON as the document API.

No DRF, no authentication, no throttling, no audit event: a plain function view with a
query and the same fields (the compliance summary as stored with the document).
`bench_api.py` compares the API against these in the same run, on the same server process,
to measure what the framework, authentication, throttling and audit cost.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, JsonResponse
from django.urls import path

from config.urls import urlpatterns as project_urlpatterns
from legal_documents.models import LegalDocument, Status
from legal_documents.services.jobs import estimated_completion


def _iso(value: Any) -> str | None:
    return value.isoformat().replace("+00:00", "Z") if value is not None else None


def _document(document: LegalDocument, *, detail: bool) -> dict[str, Any]:
    compliance = None
    if document.has_content and document.compliance_complete is not None:
        compliance = {
            "complete": document.compliance_complete,
            "missing": document.compliance_missing,
        }
    data: dict[str, Any] = {
        "id": str(document.pk),
        "documentType": document.document_type,
        "status": document.status,
        "stage": document.stage,
        "version": document.version,
        "rulesetVersion": document.ruleset_version,
        "clientCompanyId": document.client_company_id and str(document.client_company_id),
        "dpoUserId": document.creator_id,
        "error": (
            {"code": document.error_code, "message": document.error_message}
            if document.status == Status.FAILED
            else None
        ),
        "compliance": compliance,
        "createdAt": _iso(document.created_at),
        "updatedAt": _iso(document.updated_at),
        "completedAt": _iso(document.completed_at),
        "estimatedCompletionTime": estimated_completion(document),
    }
    if detail:
        data["inputs"] = document.inputs
        data["content"] = (
            {
                "markdown": document.content_markdown,
                "html": document.content_html,
                "text": document.content_text,
            }
            if document.status == Status.COMPLETED and document.has_content
            else None
        )
    return data


def bare_document(request: HttpRequest, pk: str) -> JsonResponse:
    document = LegalDocument.objects.filter(pk=pk).first()
    if document is None:
        raise Http404
    return JsonResponse(_document(document, detail=True))


def bare_document_list(request: HttpRequest) -> JsonResponse:
    organization_id = request.GET["organization"]
    queryset = LegalDocument.objects.filter(organization_id=organization_id).order_by("-created_at")
    total = queryset.count()
    page = list(queryset[:20])
    return JsonResponse(
        {
            "documents": [_document(document, detail=False) for document in page],
            "totalCount": total,
            "hasMore": total > len(page),
        }
    )


urlpatterns = [
    path("bare/legal-documents/<uuid:pk>", bare_document),
    path("bare/legal-documents", bare_document_list),
    *project_urlpatterns,
]
