"""Assets API: upload, list, find, delete, search, download (docs/API.md "Assets").

Thin: validate, call a service or selector, serialize. Authentication, roles (auditors
never write), rate limits, organization scoping (another organization's asset is 404) and
the audit of denied attempts come from OrganizationScopedViewSet.
"""

from __future__ import annotations

import mimetypes

from django.http import FileResponse, HttpResponseRedirect
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from assets import selectors, services
from assets.models import Asset
from assets.search import SearchMode
from assets.serializers import (
    AssetListQuerySerializer,
    AssetSearchQuerySerializer,
    AssetSerializer,
    AssetUploadRequestSerializer,
    AssetUploadSerializer,
    SearchHitSerializer,
    SearchResponseSerializer,
)
from assets.storage import asset_storage, is_local, signed_download_url
from common.errors import ApiError
from common.pagination import envelope_pagination
from common.throttling import SearchRateThrottle
from organizations.viewsets import API_THROTTLES, OrganizationScopedViewSet

UUID_PATTERN = r"[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}"


@extend_schema(tags=["assets"])
class AssetViewSet(mixins.ListModelMixin, OrganizationScopedViewSet):
    queryset = Asset.objects.select_related("organization")
    serializer_class = AssetSerializer
    pagination_class = envelope_pagination("assets")
    audit_object_type = "asset"
    lookup_value_regex = UUID_PATTERN

    def filter_queryset(self, queryset):  # type: ignore[no-untyped-def]
        if self.action != "list":
            return queryset
        query = AssetListQuerySerializer(data=self.request.query_params)
        query.is_valid(raise_exception=True)
        status_filter = query.validated_data.get("status")
        return queryset.filter(status=status_filter) if status_filter else queryset

    @extend_schema(
        parameters=[OpenApiParameter("status", str, enum=["UPLOADED", "PROCESSING",
                                                          "COMPLETED", "FAILED"])],
    )  # fmt: skip
    def list(self, request: Request) -> Response:
        """The organization's assets, newest first: `{assets, totalCount, hasMore}`."""
        return super().list(request)

    def retrieve(self, request: Request, pk: str) -> Response:
        """One asset (the find response), with `error` when FAILED."""
        asset = self.get_object()
        self.audit(action="read", obj=asset)
        return Response(self.get_serializer(asset).data)

    @extend_schema(responses={204: None})
    def destroy(self, request: Request, pk: str) -> Response:
        """Delete the asset, its chunks and vectors, and its stored files."""
        asset = self.get_object()
        services.asset_delete(asset=asset)
        self.audit(action="delete", object_id=pk, details={"sha256": asset.sha256})
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        request={"multipart/form-data": AssetUploadRequestSerializer},
        responses={201: AssetUploadSerializer},
    )
    @action(detail=False, methods=["post"], url_path="upload", parser_classes=[MultiPartParser])
    def upload(self, request: Request) -> Response:
        """Upload one file (multipart part `file`, at most 100 MiB); processed in the background.

        201 with `duplicate: false` for new content; 201 with `duplicate: true` and the
        existing asset when the organization already uploaded the same bytes.
        """
        # Reading the body runs the bounded upload handler: 413 FILE_TOO_LARGE from here.
        uploaded = request.FILES.get("file")
        if uploaded is None:
            raise ApiError(
                "VALIDATION_ERROR",
                "The request is not valid.",
                details={"file": ["No file was submitted in the multipart part `file`."]},
            )
        result = services.asset_upload(
            organization=self.organization, uploader=request.user, uploaded=uploaded
        )
        self.audit(
            action="upload",
            obj=result.asset,
            details={"duplicate": result.duplicate, "sha256": result.asset.sha256},
        )
        serializer = AssetUploadSerializer(
            result.asset, context={**self.get_serializer_context(), "duplicate": result.duplicate}
        )
        return Response(serializer.data, status=status.HTTP_201_CREATED)

    @extend_schema(
        parameters=[AssetSearchQuerySerializer], responses={200: SearchResponseSerializer}
    )
    @action(
        detail=False, methods=["get"], url_path="search",
        throttle_classes=[*API_THROTTLES, SearchRateThrottle],
    )  # fmt: skip
    def search(self, request: Request) -> Response:
        """Chunks of the organization's COMPLETED assets that best match `q`, best first.

        `mode=hybrid` (default) fuses vector, full-text and trigram rankings; each result
        lists the `rankers` that found it, its page, sheet or slide when known and a
        highlighted `snippet`. Searches have their own rate limit per user
        (`RATE_LIMIT_SEARCH`, 429 `RATE_LIMITED`); a search the database does not finish
        within `SEARCH_STATEMENT_TIMEOUT_MS` is 503 `SEARCH_TIMEOUT`.
        """
        query = AssetSearchQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        mode = SearchMode(query.validated_data["mode"])
        hits = selectors.asset_search(
            organization=self.organization,
            query=query.validated_data["q"],
            k=query.validated_data["k"],
            mode=mode,
        )
        self.audit(
            action="search",
            details={"k": query.validated_data["k"], "mode": mode.value, "results": len(hits)},
        )
        return Response({"results": SearchHitSerializer(hits, many=True).data})

    @extend_schema(
        parameters=[OpenApiParameter("file", str, enum=["original", "converted"])],
        responses={
            (200, "application/octet-stream"): OpenApiResponse(OpenApiTypes.BINARY),
            302: OpenApiResponse(description="Redirect to a short-lived signed S3 URL"),
        },
    )
    @action(detail=True, methods=["get"], url_path="download")
    def download(self, request: Request, pk: str) -> FileResponse | HttpResponseRedirect:
        """The original file (or `?file=converted`) as an attachment; on S3 a signed redirect."""
        asset = self.get_object()
        wanted = request.query_params.get("file", "original")
        if wanted not in ("original", "converted"):
            raise ApiError(
                "VALIDATION_ERROR",
                "The request is not valid.",
                details={"file": [f"'{wanted}' is not one of: original, converted."]},
            )
        converted = wanted == "converted"
        key = asset.converted_file.name if converted else asset.original_file.name
        if not key:
            raise ApiError("NOT_FOUND", "This asset has no converted file.", status_code=404)
        name = asset.converted_file_name if converted else asset.original_file_name
        self.audit(action="download", obj=asset, details={"file": "converted" if converted
                                                          else "original"})  # fmt: skip
        storage = asset_storage()
        if not is_local(storage):
            return HttpResponseRedirect(signed_download_url(key, file_name=name))
        content_type = asset.media_type if not converted else mimetypes.guess_type(key)[0]
        return FileResponse(
            storage.open(key, "rb"),
            as_attachment=True,
            filename=name,
            content_type=content_type or "application/octet-stream",
        )
