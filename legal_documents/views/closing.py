"""`POST /api/v1/legal-documents/{id}/close`: a breach notified, a request answered.

Registered beside the main viewset; scoping, roles (auditors cannot write), throttling and
the audit of foreign lookups come from OrganizationScopedViewSet; the service audits.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from legal_documents.models import LegalDocument
from legal_documents.serializers import DocumentSerializer
from legal_documents.services.closing import legal_document_close_clock
from organizations.access import request_actor
from organizations.viewsets import OrganizationScopedViewSet


class CloseBodySerializer(serializers.Serializer):
    at = serializers.DateTimeField(
        required=False, help_text="When the authority was notified / the request answered; now."
    )


class LegalDocumentClosingViewSet(OrganizationScopedViewSet):
    queryset = LegalDocument.objects.select_related("organization")
    serializer_class = DocumentSerializer
    audit_object_type = "document"

    @extend_schema(
        request=CloseBodySerializer,
        responses={200: DocumentSerializer},
        description=(
            "Close the document's legal clock: a BREACH_NOTIFICATION notified to the"
            " supervisory authority (sets the input `notifiedAt`), a DATA_SUBJECT_REQUEST_FORM"
            " answered (sets `answeredAt`), at `at` (default now). Its reminders stop and the"
            " register report no longer counts it open. 400 VALIDATION_ERROR for any other"
            " type. Writers only."
        ),
    )
    @action(detail=True, methods=["post"])
    def close(self, request: Request, pk: str) -> Response:
        document = self.get_object()
        body = CloseBodySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        closed = legal_document_close_clock(
            document_id=document.pk,
            organization_id=document.organization_id,
            actor=request_actor(request),
            at=body.validated_data.get("at"),
        )
        return Response(DocumentSerializer(closed).data)
