"""The webhook API: register, list, delete endpoints and read their delivery attempts."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from common.pagination import envelope_pagination
from organizations.access import request_actor
from organizations.permissions import ADMIN_ONLY
from organizations.viewsets import OrganizationScopedViewSet
from webhooks import services
from webhooks.models import WebhookEndpoint
from webhooks.serializers import (
    RegisteredWebhookEndpointSerializer,
    WebhookDeliverySerializer,
    WebhookEndpointCreateSerializer,
    WebhookEndpointSerializer,
)

MANAGING_ACTIONS = frozenset({"create", "destroy"})


@extend_schema(tags=["webhooks"])
class WebhookEndpointViewSet(mixins.ListModelMixin, OrganizationScopedViewSet):
    """Endpoints of the caller's organization (business and enterprise plans).

    Every member lists endpoints and their deliveries; only organization admins register
    and delete them (the same policy as the admin, organizations/auditors.py).
    """

    queryset = WebhookEndpoint.objects.all()
    serializer_class = WebhookEndpointSerializer
    pagination_class = envelope_pagination("webhooks")
    audit_object_type = "webhook"

    @property
    def allowed_roles(self) -> frozenset[str] | None:
        """Read by IsOrganizationMember: the roles allowed for the current action."""
        return ADMIN_ONLY if self.action in MANAGING_ACTIONS else None

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)  # authentication and roles first
        services.require_webhooks_plan(self.organization)

    def get_serializer_class(self) -> type:
        if self.action == "create":
            return WebhookEndpointCreateSerializer
        if self.action == "deliveries":
            return WebhookDeliverySerializer
        return WebhookEndpointSerializer

    @extend_schema(responses={201: RegisteredWebhookEndpointSerializer})
    def create(self, request: Request) -> Response:
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        registered = services.webhook_endpoint_create(
            organization=self.organization,
            actor=request_actor(request),
            **serializer.validated_data,
        )
        body = RegisteredWebhookEndpointSerializer(
            registered.endpoint, context={"secret": registered.secret}
        ).data
        return Response(body, status=status.HTTP_201_CREATED)

    def destroy(self, request: Request, pk: str) -> Response:
        services.webhook_endpoint_delete(endpoint=self.get_object(), actor=request_actor(request))
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(responses=WebhookDeliverySerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=envelope_pagination("deliveries"))
    def deliveries(self, request: Request, pk: str) -> Response:
        """Every attempt to deliver to this endpoint, newest first."""
        endpoint = self.get_object()
        page = self.paginate_queryset(endpoint.deliveries.order_by("-created_at", "-attempt"))
        return self.get_paginated_response(self.get_serializer(page, many=True).data)
