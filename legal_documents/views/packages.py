"""The documentation index and inspection packages (their two route collections)."""

from __future__ import annotations

from typing import Any

from django.http import FileResponse, HttpResponse
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import mixins, serializers, status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from common.negotiation import FileFormatParameter
from common.pagination import envelope_pagination
from legal_documents.models import DocumentationPackage, LegalDocument
from legal_documents.packages import services as packages
from legal_documents.packages.index import filtered_documents, index_csv, index_rows
from legal_documents.serializers import DocumentTypeField
from organizations.access import request_actor
from organizations.viewsets import OrganizationScopedViewSet


class IndexEntrySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    documentType = serializers.CharField()  # noqa: N815
    stage = serializers.CharField()
    status = serializers.CharField()
    version = serializers.IntegerField()
    createdAt = serializers.DateTimeField()  # noqa: N815
    updatedAt = serializers.DateTimeField()  # noqa: N815
    contentSha256 = serializers.CharField()  # noqa: N815
    complete = serializers.BooleanField(allow_null=True)
    missingItems = serializers.ListField(child=serializers.CharField())  # noqa: N815


class IndexQuerySerializer(serializers.Serializer):
    format = serializers.ChoiceField(choices=["json", "csv"], required=False, default="json")


@extend_schema(tags=["documentation"])
class DocumentationIndexViewSet(OrganizationScopedViewSet):
    """Every document of the organization (all roles), with version, hash and completeness."""

    queryset = LegalDocument.objects.all()
    pagination_class = envelope_pagination("documents")
    audit_object_type = "documentation-index"
    content_negotiation_class = FileFormatParameter

    @extend_schema(
        parameters=[IndexQuerySerializer],
        responses={
            200: IndexEntrySerializer(many=True),
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR),
        },
    )
    def list(self, request: Request) -> Response | HttpResponse:
        query = IndexQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        documents = filtered_documents(self.get_queryset())
        self.audit(action="read", details={"format": query.validated_data["format"]})
        if query.validated_data["format"] == "csv":
            response = HttpResponse(
                index_csv(index_rows(documents.iterator(chunk_size=500))),
                content_type="text/csv; charset=utf-8",
            )
            stamp = timezone.now().strftime("%Y%m%d")
            filename = f"documentation-index-{stamp}.csv"
            response["Content-Disposition"] = f'attachment; filename="{filename}"'
            return response
        page = self.paginate_queryset(documents)
        return self.get_paginated_response(index_rows(page))


class PackageRequestSerializer(serializers.Serializer):
    documentTypes = serializers.ListField(  # noqa: N815
        child=DocumentTypeField(), required=False, allow_empty=False
    )
    createdFrom = serializers.DateField(required=False)  # noqa: N815
    createdTo = serializers.DateField(required=False)  # noqa: N815

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        start, end = attrs.get("createdFrom"), attrs.get("createdTo")
        if start and end and start > end:
            raise serializers.ValidationError({"createdTo": ["Must not be before createdFrom."]})
        return attrs


class PackageSerializer(serializers.ModelSerializer):
    status = serializers.CharField()
    createdAt = serializers.DateTimeField(source="created_at")  # noqa: N815
    completedAt = serializers.DateTimeField(source="completed_at", allow_null=True)  # noqa: N815
    documentCount = serializers.IntegerField(source="document_count", allow_null=True)  # noqa: N815
    sizeBytes = serializers.IntegerField(source="size_bytes", allow_null=True)  # noqa: N815
    sha256 = serializers.SerializerMethodField()
    downloadUrl = serializers.SerializerMethodField()  # noqa: N815
    error = serializers.SerializerMethodField()
    filters = serializers.JSONField()

    class Meta:
        model = DocumentationPackage
        fields = [
            "id", "status", "createdAt", "completedAt", "documentCount", "sizeBytes", "sha256",
            "downloadUrl", "error", "filters",
        ]  # fmt: skip
        read_only_fields = fields

    def get_sha256(self, package: DocumentationPackage) -> str | None:
        return package.sha256 or None

    def get_downloadUrl(self, package: DocumentationPackage) -> str | None:  # noqa: N802
        """The audited download endpoint (never a raw storage URL); null until completed."""
        if not package.file_name:
            return None
        path = reverse("documentation-package-download", args=[package.pk])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path

    def get_error(self, package: DocumentationPackage) -> str | None:
        return package.error or None


@extend_schema(tags=["documentation"])
class DocumentationPackageViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, OrganizationScopedViewSet
):
    """Inspection packages: request one (built by Celery), poll it, download its ZIP."""

    queryset = DocumentationPackage.objects.select_related("organization")
    serializer_class = PackageSerializer
    pagination_class = envelope_pagination("packages")
    audit_object_type = "package"

    @extend_schema(request=PackageRequestSerializer, responses={202: PackageSerializer})
    def create(self, request: Request) -> Response:
        body = PackageRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        package = packages.documentation_package_request(
            organization=self.organization,
            actor=request_actor(request),
            filters=dict(body.validated_data),
        )
        return Response(self.get_serializer(package).data, status=status.HTTP_202_ACCEPTED)

    def retrieve(self, request: Request, pk: str) -> Response:
        package = self.get_object()
        self.audit(action="read", obj=package)
        return Response(self.get_serializer(package).data)

    @extend_schema(
        parameters=[OpenApiParameter("pk", OpenApiTypes.UUID, OpenApiParameter.PATH)],
        responses={(200, "application/zip"): OpenApiResponse(OpenApiTypes.BINARY)},
    )
    @action(detail=True, methods=["get"])
    def download(self, request: Request, pk: str) -> FileResponse:
        """The ZIP as an attachment (streamed); 409 CONFLICT until the package is completed."""
        package = self.get_object()
        stream = packages.documentation_package_open(package)
        self.audit(action="download", obj=package, details={"sha256": package.sha256})
        filename = f"inspection-package-{package.created_at:%Y%m%d}-{str(package.pk)[:8]}.zip"
        return FileResponse(
            stream, as_attachment=True, filename=filename, content_type="application/zip"
        )
