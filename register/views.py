"""Register endpoints: thin — validate, call a service, serialize.

Reads of one entry are audited like documents (`processing_activity.read`, `vendor.read`);
writes are audited by the services (register.services.record_change). Auditors read only
(organizations.permissions). The detail routes take a UUID only, so that a sibling route
such as `/processing-activities/import` is never taken for an id.
"""

from __future__ import annotations

from typing import Any, ClassVar

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from common.pagination import envelope_pagination
from organizations.access import request_actor
from organizations.viewsets import OrganizationScopedViewSet
from register import schema, selectors, services
from register.models import ProcessingActivity, Transfer, Vendor
from register.serializers import (
    ActivityListFiltersSerializer,
    ProcessingActivityListItemSerializer,
    ProcessingActivitySerializer,
    TransferListFiltersSerializer,
    TransferSerializer,
    VendorListFiltersSerializer,
    VendorSerializer,
)

UUID_PATTERN = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"


class RegisterReadViewSet(mixins.RetrieveModelMixin, OrganizationScopedViewSet):
    """A filtered list and an audited read of one register row (UUID ids only)."""

    lookup_value_regex = UUID_PATTERN
    filters_class: ClassVar[type[serializers.Serializer]]
    list_serializer_class: ClassVar[type[serializers.Serializer]]

    def _filters(self, request: Request) -> dict[str, Any]:
        filters = self.filters_class(data=request.query_params)
        filters.is_valid(raise_exception=True)
        return dict(filters.validated_data)

    def _list(self, request: Request, queryset: Any) -> Response:
        page = self.paginate_queryset(queryset)
        data = self.list_serializer_class(page, many=True, context=self.get_serializer_context())
        return self.get_paginated_response(data.data)

    def retrieve(self, request: Request, pk: str) -> Response:
        entry = self.get_object()
        self.audit(action="read", obj=entry)
        return Response(self.get_serializer(entry).data)


class RegisterEntryViewSet(RegisterReadViewSet):
    """CRUD of one kind of register entry; subclasses name the services and serializers."""

    def get_serializer_context(self) -> dict[str, Any]:
        return {**super().get_serializer_context(), "organization": self.organization}

    def _validated(self, request: Request, *, partial: bool) -> dict[str, Any]:
        body = self.get_serializer(data=request.data, partial=partial)
        body.is_valid(raise_exception=True)
        return dict(body.validated_data)

    def _fresh(self, entry: ProcessingActivity | Vendor) -> dict[str, Any]:
        """The entry as written, read again with its links and transfers."""
        return dict(self.get_serializer(self.unscoped_queryset().get(pk=entry.pk)).data)


@extend_schema(tags=["processing register"])
class ProcessingActivityViewSet(RegisterEntryViewSet):
    queryset = ProcessingActivity.objects.all()
    serializer_class = ProcessingActivitySerializer
    list_serializer_class = ProcessingActivityListItemSerializer
    filters_class = ActivityListFiltersSerializer
    pagination_class = envelope_pagination("processingActivities")
    audit_object_type = "processing_activity"

    def unscoped_queryset(self) -> Any:
        return ProcessingActivity.objects.prefetch_related("vendors", "transfers")

    @extend_schema(
        parameters=[ActivityListFiltersSerializer],
        responses=ProcessingActivityListItemSerializer(many=True),
        description="The register's processing activities by name, filtered.",
    )
    def list(self, request: Request) -> Response:
        queryset = selectors.activity_list(
            queryset=self.get_queryset(), filters=self._filters(request)
        )
        return self._list(request, queryset)

    @extend_schema(
        examples=schema.activity_examples(),
        description="Add a processing activity. List fields take texts or objects as the"
        " document create body does; legal bases and Art. 9(2) conditions are recognised"
        " into codes and kept with their wording. A recipient outside the EEA becomes a"
        " transfer. 409 CONFLICT when the name is in use.",
    )
    def create(self, request: Request) -> Response:
        activity = services.activity_create(
            organization=self.organization,
            actor=request_actor(request),
            data=self._validated(request, partial=False),
        )
        return Response(self._fresh(activity), status=status.HTTP_201_CREATED)

    @extend_schema(
        examples=schema.activity_examples(),
        description="Change the fields given (a partial update). The revision moves and the"
        " documents written from the activity become stale, unless nothing changed.",
    )
    def partial_update(self, request: Request, pk: str) -> Response:
        activity = services.activity_update(
            activity=self.get_object(),
            actor=request_actor(request),
            data=self._validated(request, partial=True),
        )
        return Response(self._fresh(activity))

    @extend_schema(
        examples=schema.activity_examples(),
        description="Update with a full body (`name` required); fields left out keep their values.",
    )
    def update(self, request: Request, pk: str) -> Response:
        activity = services.activity_update(
            activity=self.get_object(),
            actor=request_actor(request),
            data=self._validated(request, partial=False),
        )
        return Response(self._fresh(activity))

    @extend_schema(responses={204: None})
    def destroy(self, request: Request, pk: str) -> Response:
        services.activity_delete(activity=self.get_object(), actor=request_actor(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(tags=["processing register"])
class VendorViewSet(RegisterEntryViewSet):
    queryset = Vendor.objects.all()
    serializer_class = VendorSerializer
    list_serializer_class = VendorSerializer
    filters_class = VendorListFiltersSerializer
    pagination_class = envelope_pagination("vendors")
    audit_object_type = "vendor"

    def unscoped_queryset(self) -> Any:
        return Vendor.objects.prefetch_related("activities", "transfers")

    @extend_schema(
        parameters=[VendorListFiltersSerializer],
        responses=VendorSerializer(many=True),
        description="The register's vendors (processors and other recipients), filtered.",
    )
    def list(self, request: Request) -> Response:
        queryset = selectors.vendor_list(
            queryset=self.get_queryset(), filters=self._filters(request)
        )
        return self._list(request, queryset)

    @extend_schema(
        examples=schema.vendor_examples(),
        description="Add a vendor. `transferMechanism` takes a code or text (recognised, the"
        " text kept in `transferMechanismWording`); a vendor or sub-processor outside the EEA"
        " becomes a transfer. 409 CONFLICT when the name is in use.",
    )
    def create(self, request: Request) -> Response:
        vendor = services.vendor_create(
            organization=self.organization,
            actor=request_actor(request),
            data=self._validated(request, partial=False),
        )
        return Response(self._fresh(vendor), status=status.HTTP_201_CREATED)

    @extend_schema(
        examples=schema.vendor_examples(),
        description="Change the fields given. The activities using the vendor and the"
        " documents written from them are told (stale), unless nothing changed.",
    )
    def partial_update(self, request: Request, pk: str) -> Response:
        vendor = services.vendor_update(
            vendor=self.get_object(),
            actor=request_actor(request),
            data=self._validated(request, partial=True),
        )
        return Response(self._fresh(vendor))

    @extend_schema(
        examples=schema.vendor_examples(),
        description="Update with a full body (`name` required); fields left out keep their values.",
    )
    def update(self, request: Request, pk: str) -> Response:
        vendor = services.vendor_update(
            vendor=self.get_object(),
            actor=request_actor(request),
            data=self._validated(request, partial=False),
        )
        return Response(self._fresh(vendor))

    @extend_schema(responses={204: None})
    def destroy(self, request: Request, pk: str) -> Response:
        services.vendor_delete(vendor=self.get_object(), actor=request_actor(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(tags=["processing register"])
class TransferViewSet(RegisterReadViewSet):
    """Transfers outside the EEA, read-only: the services keep them from vendors and recipients."""

    queryset = Transfer.objects.all()
    serializer_class = TransferSerializer
    list_serializer_class = TransferSerializer
    filters_class = TransferListFiltersSerializer
    pagination_class = envelope_pagination("transfers")
    audit_object_type = "transfer"

    @extend_schema(
        parameters=[TransferListFiltersSerializer], responses=TransferSerializer(many=True)
    )
    def list(self, request: Request) -> Response:
        queryset = selectors.transfer_list(
            queryset=self.get_queryset(), filters=self._filters(request)
        )
        return self._list(request, queryset)
