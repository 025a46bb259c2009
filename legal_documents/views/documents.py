"""Legal document endpoints: thin — validate, call a service, serialize."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from common.errors import ApiError
from common.pagination import envelope_pagination
from gdpr.i18n import activate
from legal_documents import schema, selectors, serializers
from legal_documents.models import LegalDocument
from legal_documents.services import documents, manual_edit
from organizations.access import request_actor, request_membership
from organizations.viewsets import OrganizationScopedViewSet


@extend_schema(tags=["legal documents"])
class LegalDocumentViewSet(mixins.RetrieveModelMixin, OrganizationScopedViewSet):
    queryset = LegalDocument.objects.all()
    serializer_class = serializers.DocumentSerializer
    pagination_class = envelope_pagination("documents")
    audit_object_type = "document"

    @extend_schema(
        request=schema.create_body(),
        responses={201: serializers.CreatedDocumentSerializer},
        examples=schema.create_examples(),
        description=(
            "Create a document of any type; generation runs asynchronously. Structured"
            " inputs (objects) and plain texts are both accepted where the schema shows"
            " oneOf; free-text legal bases and transfer mechanisms are recognised and kept"
            " verbatim. One vocabulary serves every type: a field another type uses is"
            " accepted, ignored and listed in `warnings` (FIELD_NOT_USED); a name no type"
            " uses is a VALIDATION_ERROR naming the closest known field. A list field given"
            " one text takes it as a list of one. `dataCategories`/`specialCategories` items"
            " may be {name, category} and `securityMeasures` items {name, family}, naming"
            " the concept by its code."
        ),
    )
    def create(self, request: Request) -> Response:
        body = serializers.CreateDocumentSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        document = documents.legal_document_create(
            membership=request_membership(request),
            document_type=body.validated_data["documentType"],
            inputs=body.validated_data["inputs"],
            actor=request_actor(request),
            language=body.validated_data["language"],
        )
        created = serializers.CreatedDocumentSerializer(
            document, context={"warnings": body.validated_data["warnings"]}
        )
        return Response(created.data, status=status.HTTP_201_CREATED)

    @extend_schema(
        parameters=[serializers.ListFiltersSerializer],
        responses=serializers.DocumentListItemSerializer(many=True),
    )
    def list(self, request: Request) -> Response:
        filters = serializers.ListFiltersSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        queryset = selectors.legal_document_list(
            queryset=self.get_queryset(),
            membership=request_membership(request),
            filters=filters.validated_data,
        )
        page = self.paginate_queryset(queryset)
        data = serializers.DocumentListItemSerializer(page, many=True).data
        return self.get_paginated_response(data)

    def retrieve(self, request: Request, pk: str) -> Response:
        document = self.get_object()
        self.audit(action="read", obj=document)
        return Response(self.get_serializer(document).data)

    @extend_schema(
        request=serializers.ManualEditSerializer,
        responses=serializers.DocumentSerializer,
        description=(
            "A manual edit: a new version with `changeReason`. The response is the document "
            "plus `removedItems`, the mandatory checklist items the edit removed."
        ),
    )
    def partial_update(self, request: Request, pk: str) -> Response:
        document = self.get_object()
        body = serializers.ManualEditSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        result = manual_edit.legal_document_manual_edit(
            document_id=document.pk,
            organization_id=document.organization_id,
            actor=request_actor(request),
            markdown=body.validated_data["markdown"],
            change_reason=body.validated_data["changeReason"],
        )
        data = self.get_serializer(result.document).data
        return Response({**data, "removedItems": result.removed_items})

    @extend_schema(responses=serializers.ComplianceReportSerializer)
    @action(detail=True, methods=["get"])
    def compliance(self, request: Request, pk: str) -> Response:
        document = self.get_object()
        self.audit(action="read", obj=document, details={"view": "compliance"})
        if not document.has_content:
            raise ApiError(
                "CONFLICT", "The document has no content yet; retry once it is completed.",
                status_code=409,
            )  # fmt: skip
        with activate(document.language):  # the requirements in the document's language
            report = selectors.document_completeness(document)
        # The check uses the type's current rules; the document records the rules it was
        # written under (they differ once a rule set is updated).
        return Response({**report.as_dict(), "documentRulesetVersion": document.ruleset_version})
