"""Reviews API (docs/API.md, Reviews): start a review, read one, list them.

Thin: validate, call the service, serialize. Authentication, roles (auditors never
write), rate limits, organization scoping (another organization's review is 404, recorded
in both trails) and the audit of denied attempts come from OrganizationScopedViewSet.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from common.negotiation import FileFormatParameter
from common.pagination import envelope_pagination
from organizations.access import request_actor
from organizations.viewsets import OrganizationScopedViewSet
from reviews import serializers, services
from reviews.exports import REVIEW_EXPORT_FORMATS, REVIEW_EXPORT_MEDIA_TYPES
from reviews.models import Review

UUID_PATTERN = r"[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}"
FILTERS = {
    "assetId": "asset_id",
    "vendorId": "vendor_id",
    "documentType": "document_type",
    "status": "status",
}


@extend_schema(tags=["reviews"])
class ReviewViewSet(OrganizationScopedViewSet):
    queryset = Review.objects.all()
    serializer_class = serializers.ReviewSerializer
    pagination_class = envelope_pagination("reviews")
    audit_object_type = "review"
    lookup_value_regex = UUID_PATTERN
    # `?format=` names the report's file format, not a renderer.
    content_negotiation_class = FileFormatParameter

    @extend_schema(
        request=serializers.CreateReviewSerializer,
        responses={202: serializers.CreatedReviewSerializer},
        examples=[
            OpenApiExample(
                "A vendor's DPA",
                value={
                    "assetId": "7d0c3f5e-2f5a-4a43-9a2e-1f0b9b8e8a11",
                    "documentType": "DATA_PROCESSING_AGREEMENT",
                    "language": "en",
                    "vendorId": "1b6f0c1e-8a8e-4d0e-9f43-2a7f3c1d9e55",
                },
                request_only=True,
            )
        ],
    )
    def create(self, request: Request) -> Response:
        """Review an uploaded document (a vendor's DPA, a privacy notice) clause by clause.

        Answers 202 `{id, status: "processing"}`; a worker reads the asset (waiting for it
        while it is still processing), checks it item by item and stores the report:
        `GET /api/v1/reviews/{id}`. Progress on `/ws/reviews/{id}/`, webhooks
        `review.completed` / `review.failed`. Writers only (auditors get 403). An asset or
        vendor that is not your organization's, a `documentType` a review does not know, or
        an unsupported `language`: 400 `VALIDATION_ERROR` naming the field.
        """
        body = serializers.CreateReviewSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        review = services.review_create(
            organization=self.organization,
            actor=request_actor(request),
            asset_id=body.validated_data["assetId"],
            document_type=body.validated_data["documentType"],
            language=body.validated_data.get("language"),
            vendor_id=body.validated_data.get("vendorId"),
            requested_by=request.user if request.user.is_authenticated else None,
        )
        return Response(
            {"id": str(review.pk), "status": review.status}, status=status.HTTP_202_ACCEPTED
        )

    @extend_schema(
        parameters=[serializers.ReviewListFiltersSerializer],
        responses=serializers.ReviewListItemSerializer(many=True),
    )
    def list(self, request: Request) -> Response:
        """The organization's reviews, newest first: `{reviews, totalCount, hasMore}`.

        Filters `assetId`, `vendorId`, `documentType`, `status`; `limit` (1..100) and
        `offset` as on every list. List items carry no `items` (read one review for them).
        """
        filters = serializers.ReviewListFiltersSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        queryset = self.filtered(self.get_queryset(), filters.validated_data)
        page = self.paginate_queryset(queryset)
        data = serializers.ReviewListItemSerializer(page, many=True).data
        return self.get_paginated_response(data)

    @staticmethod
    def filtered(queryset: QuerySet[Review], filters: dict[str, Any]) -> QuerySet[Review]:
        conditions = {FILTERS[name]: value for name, value in filters.items() if value is not None}
        return queryset.filter(**conditions).order_by("-created_at", "-pk")

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "format",
                str,
                enum=[*REVIEW_EXPORT_FORMATS],  # (`list` is the view here)
                required=False,
                description="The report as a file download instead of JSON.",
            )
        ],
        responses={
            200: serializers.ReviewSerializer,
            **{
                (200, media_type): OpenApiResponse(OpenApiTypes.BINARY)
                for media_type in REVIEW_EXPORT_MEDIA_TYPES
            },
        },
    )
    def retrieve(self, request: Request, pk: str) -> Response | HttpResponse:
        """A review: `status`, `stage`, and once completed its `verdict`, `counts` and `items`
        (each with verbatim `citations`); `error` once failed. Every role may read it.

        With `?format=md|html|pdf|docx`, the report as a file: each quote with its location
        (400 for another format, 422 when the renderer fails)."""
        review = self.get_object()
        exported = self.export_response(request, review)
        if exported is not None:
            return exported
        self.audit(action="read", obj=review)
        return Response(self.get_serializer(review).data)

    def export_response(self, request: Request, review: Review) -> HttpResponse | None:
        """The report as a file for `?format=`, audited as `review.export`; None: no format."""
        fmt = request.query_params.get("format")
        if fmt is None:
            return None
        exported = services.review_export(review=review, fmt=fmt)
        self.audit(action="export", obj=review, details={"format": fmt.strip().lower()})
        response = HttpResponse(exported.content, content_type=exported.content_type)
        response["Content-Disposition"] = f'attachment; filename="{exported.filename}"'
        response["Content-Length"] = str(len(exported.content))
        return response
