"""The base of every API view: authenticated, role-checked, throttled, scoped, audited.

Organization scoping happens here and only here: `get_queryset` filters by the caller's
organization before a subclass sees the queryset, and `get_object` answers 404 for another
organization's object (recording the denied attempt), never 403, so existence does not leak.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Model, QuerySet
from django.http import Http404
from rest_framework import exceptions, viewsets

from audit.models import Outcome
from audit.services import record_event, record_foreign_attempt
from common.throttling import ReadRateThrottle, WriteRateThrottle
from organizations import foreign_ids
from organizations.access import request_actor, request_organization
from organizations.authentication import ApiKeyAuthentication, SessionAuthentication
from organizations.models import Organization
from organizations.permissions import IsOrganizationMember

API_AUTHENTICATION = [ApiKeyAuthentication, SessionAuthentication]
API_PERMISSIONS = [IsOrganizationMember]
API_THROTTLES = [WriteRateThrottle, ReadRateThrottle]


class OrganizationScopedViewSet(viewsets.GenericViewSet):
    authentication_classes = API_AUTHENTICATION
    permission_classes = API_PERMISSIONS
    throttle_classes = API_THROTTLES

    # The model's path to its organization, e.g. "organization" or "asset__organization".
    organization_field: ClassVar[str] = "organization"
    # When set, reads and writes of single objects are recorded as "<type>.<verb>" events.
    audit_object_type: ClassVar[str] = ""

    @property
    def organization(self) -> Organization:
        organization = request_organization(self.request)
        if organization is None:  # permission classes ran first; this is a programming error
            raise exceptions.PermissionDenied("No organization.")
        return organization

    def get_queryset(self) -> QuerySet:
        return self.scope(self.unscoped_queryset())

    def unscoped_queryset(self) -> QuerySet:
        """Override to add select_related/annotations; never filter by organization here."""
        return super().get_queryset()

    def scope(self, queryset: QuerySet) -> QuerySet:
        return queryset.filter(**{self.organization_field: self.organization})

    def get_serializer_context(self) -> dict[str, Any]:
        # Serializer fields note the body ids they refuse here (organizations.foreign_ids).
        if not hasattr(self, "_unknown_references"):
            self._unknown_references: list[foreign_ids.UnknownReference] = []
        return {
            **super().get_serializer_context(),
            foreign_ids.CONTEXT_KEY: self._unknown_references,
        }

    def handle_exception(self, exc: Exception) -> Any:
        """Before the error answers: body ids of another organization go to both trails."""
        references = [
            *getattr(self, "_unknown_references", []),
            *foreign_ids.references_of(exc),
        ]
        if references and request_organization(self.request) is not None:
            self._record_foreign_body_ids(references)
        return super().handle_exception(exc)

    def _record_foreign_body_ids(self, references: list[foreign_ids.UnknownReference]) -> None:
        action = self.request.method.lower()
        for reference, object_id, owner_id in foreign_ids.foreign_owners(
            references, organization_id=self.organization.pk
        ):
            details = {"reason": "object of another organization", "field": reference.field}
            self.audit(action=action, object_id=object_id, outcome=Outcome.DENIED, details=details)
            record_foreign_attempt(
                owner_organization_id=owner_id,
                actor=request_actor(self.request),
                action=f"{reference.object_type}.reference",
                object_type=reference.object_type,
                object_id=object_id,
                details={"field": reference.field},
            )

    def get_object(self) -> Any:
        try:
            return super().get_object()
        except Http404:
            self._record_foreign_lookup()
            raise exceptions.NotFound() from None

    def _record_foreign_lookup(self) -> None:
        """A lookup of an object of another organization is recorded in both trails."""
        lookup = self.kwargs.get(self.lookup_url_kwarg or self.lookup_field)
        action = "read" if self.request.method == "GET" else self.request.method.lower()
        self.record_foreign_reference(
            queryset=self.unscoped_queryset(),
            lookup={self.lookup_field: lookup},
            owner_field=self.organization_field,
            object_id=lookup,
            action=action,
            foreign_action=f"{self.audit_object_type or 'api'}.{action}",
            object_type=self.audit_object_type,
        )

    def record_foreign_reference(
        self,
        *,
        queryset: QuerySet,
        lookup: dict[str, Any],
        object_id: Any,
        action: str,
        foreign_action: str,
        object_type: str,
        owner_field: str = "organization",
    ) -> None:
        """An id that names another organization's object is recorded in both trails.

        For URL lookups (get_object) and ids given in a body (e.g. an import's `assetId`).
        The caller's trail gets the attempt with the caller as actor; the owner's trail gets
        it anonymised (audit.services.record_foreign_attempt), so that the owner's auditors
        see attempts against their objects. An id that exists nowhere records nothing.
        """
        try:
            # Filtering inside the try: a malformed id raises while the filter is built.
            owner_id = queryset.filter(**lookup).values_list(owner_field, flat=True).first()
        except (ValueError, DjangoValidationError):  # a malformed id exists nowhere
            owner_id = None
        if owner_id is None:
            return
        self.audit(
            action=action,
            object_id=object_id,
            outcome=Outcome.DENIED,
            details={"reason": "object of another organization"},
        )
        if owner_id != self.organization.pk:
            record_foreign_attempt(
                owner_organization_id=owner_id,
                actor=request_actor(self.request),
                action=foreign_action,
                object_type=object_type,
                object_id=object_id,
            )

    def audit(
        self,
        *,
        action: str,
        obj: Model | None = None,
        object_id: Any = "",
        outcome: str = Outcome.ALLOWED,
        details: dict[str, Any] | None = None,
    ) -> None:
        """Record `<audit_object_type>.<action>` for the caller's organization."""
        record_event(
            organization=self.organization,
            actor=request_actor(self.request),
            action=f"{self.audit_object_type or 'api'}.{action}",
            outcome=outcome,
            object_type=self.audit_object_type,
            object_id=obj.pk if obj is not None else object_id,
            details=details,
        )
