"""Versions, chain check and exports of a document (`/legal-documents/{id}/...`).

Detail actions only, registered on the `legal-documents` prefix under their own basename so
that they add routes beside the main viewset's without shadowing them.
"""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from common.errors import ApiError
from common.negotiation import FileFormatParameter
from legal_documents.exports import EXPORT_FORMATS, EXPORT_MEDIA_TYPES
from legal_documents.models import DocumentVersion, LegalDocument
from legal_documents.services.exporting import document_version, legal_document_export
from legal_documents.versioning import verify_document_chain
from organizations.viewsets import OrganizationScopedViewSet


class VersionSerializer(serializers.ModelSerializer):
    version = serializers.IntegerField(source="number")
    createdAt = serializers.DateTimeField(source="created_at")  # noqa: N815
    author = serializers.SerializerMethodField()
    changeReason = serializers.CharField(source="change_reason")  # noqa: N815
    contentSha256 = serializers.CharField(source="content_sha256")  # noqa: N815
    previousSha256 = serializers.CharField(source="previous_sha256")  # noqa: N815

    class Meta:
        model = DocumentVersion
        fields = [
            "version", "createdAt", "author", "changeReason", "contentSha256",
            "previousSha256", "stage",
        ]  # fmt: skip
        read_only_fields = fields

    def get_author(self, version: DocumentVersion) -> str | None:
        """The author's e-mail; null for versions without an author (a deleted user)."""
        return version.author.email if version.author else None


class VersionWithContentSerializer(VersionSerializer):
    content = serializers.CharField(source="content_markdown")

    class Meta(VersionSerializer.Meta):
        fields = [*VersionSerializer.Meta.fields, "content"]
        read_only_fields = fields


class VersionListSerializer(serializers.Serializer):
    versions = VersionSerializer(many=True)


class ChainCheckSerializer(serializers.Serializer):
    valid = serializers.BooleanField()
    versions = serializers.IntegerField()
    brokenAt = serializers.IntegerField(allow_null=True)  # noqa: N815


class ExportQuerySerializer(serializers.Serializer):
    format = serializers.CharField()
    version = serializers.IntegerField(min_value=1, required=False)


@extend_schema(tags=["legal documents"])
class DocumentHistoryViewSet(OrganizationScopedViewSet):
    queryset = LegalDocument.objects.select_related("organization")
    audit_object_type = "document"
    content_negotiation_class = FileFormatParameter

    @extend_schema(responses=VersionListSerializer)
    @action(detail=True, methods=["get"])
    def versions(self, request: Request, pk: str) -> Response:
        """Every version, oldest first (without content)."""
        document = self.get_object()
        self.audit(action="read", obj=document, details={"view": "versions"})
        versions = document.versions.select_related("author").order_by("number")
        return Response({"versions": VersionSerializer(versions, many=True).data})

    @extend_schema(
        parameters=[OpenApiParameter("n", int, OpenApiParameter.PATH)],
        responses=VersionWithContentSerializer,
        operation_id="legal_documents_version_retrieve",
    )
    @action(detail=True, methods=["get"], url_path=r"versions/(?P<n>[0-9]+)")
    def version(self, request: Request, pk: str, n: str) -> Response:
        """One version with its Markdown `content`; 404 NOT_FOUND for an unknown number."""
        document = self.get_object()
        self.audit(action="read", obj=document, details={"view": "version", "version": int(n)})
        return Response(VersionWithContentSerializer(document_version(document, int(n))).data)

    @extend_schema(responses=ChainCheckSerializer)
    @action(detail=True, methods=["get"])
    def verify(self, request: Request, pk: str) -> Response:
        """The hash chain of the versions (and their simple-history rows) checked."""
        document = self.get_object()
        check = verify_document_chain(document)
        self.audit(
            action="verify", obj=document, details={**check.as_dict(), "reason": check.reason}
        )
        return Response(check.as_dict())

    @extend_schema(
        parameters=[
            OpenApiParameter("format", str, enum=list(EXPORT_FORMATS), required=True),
            OpenApiParameter("version", int, description="A past version (default: current)."),
        ],
        responses={
            (200, media_type): OpenApiResponse(OpenApiTypes.BINARY)
            for media_type in EXPORT_MEDIA_TYPES
        },
    )
    @action(detail=True, methods=["get"])
    def export(self, request: Request, pk: str) -> HttpResponse:
        """The document as a file download; errors: 400 format, 404 version, 409, 422."""
        document = self.get_object()
        query = ExportQuerySerializer(data=request.query_params)
        if not query.is_valid():
            raise ApiError(
                "VALIDATION_ERROR",
                f"Give format as one of: {', '.join(EXPORT_FORMATS)}; version as a number.",
                details={**query.errors, "validFormats": list(EXPORT_FORMATS)},
            )
        fmt = query.validated_data["format"].strip().lower()
        version_number = query.validated_data.get("version")
        exported = legal_document_export(document=document, fmt=fmt, version_number=version_number)
        self.audit(
            action="export",
            obj=document,
            details={"format": fmt, "version": version_number or document.version},
        )
        response = HttpResponse(exported.content, content_type=exported.content_type)
        response["Content-Disposition"] = f'attachment; filename="{exported.filename}"'
        response["Content-Length"] = str(len(exported.content))
        return response
