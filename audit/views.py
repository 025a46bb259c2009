from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from audit.models import AuditEvent, Outcome
from audit.serializers import AuditEventSerializer
from common.pagination import envelope_pagination
from organizations.permissions import ADMIN_AND_AUDITOR
from organizations.viewsets import OrganizationScopedViewSet


class AuditEventFilters(serializers.Serializer):
    documentId = serializers.UUIDField(required=False)  # noqa: N815
    assetId = serializers.UUIDField(required=False)  # noqa: N815
    action = serializers.CharField(required=False, max_length=64)
    outcome = serializers.ChoiceField(choices=Outcome.choices, required=False)


@extend_schema(
    tags=["audit"],
    parameters=[
        OpenApiParameter("documentId", OpenApiTypes.UUID),
        OpenApiParameter("assetId", OpenApiTypes.UUID),
        OpenApiParameter("action", OpenApiTypes.STR),
        OpenApiParameter("outcome", OpenApiTypes.STR, enum=["allowed", "denied"]),
    ],
)
class AuditEventViewSet(mixins.ListModelMixin, OrganizationScopedViewSet):
    """The organization's audit trail, newest first (roles admin and auditor)."""

    queryset = AuditEvent.objects.all()
    serializer_class = AuditEventSerializer
    pagination_class = envelope_pagination("events")
    allowed_roles = ADMIN_AND_AUDITOR

    def list(self, request: Request) -> Response:
        filters = AuditEventFilters(data=request.query_params)
        filters.is_valid(raise_exception=True)
        queryset = self.get_queryset()
        data = filters.validated_data
        if "documentId" in data:
            queryset = queryset.filter(object_type="document", object_id=str(data["documentId"]))
        if "assetId" in data:
            queryset = queryset.filter(object_type="asset", object_id=str(data["assetId"]))
        if "action" in data:
            queryset = queryset.filter(action=data["action"])
        if "outcome" in data:
            queryset = queryset.filter(outcome=data["outcome"])
        page = self.paginate_queryset(queryset.order_by("-id"))
        return self.get_paginated_response(self.get_serializer(page, many=True).data)
