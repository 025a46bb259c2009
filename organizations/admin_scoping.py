"""Admin classes scoped to the staff user's organization (superusers see everything)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from audit.services import Actor
from organizations.models import Membership, Organization, Role


def admin_membership(request: HttpRequest) -> Membership | None:
    if not hasattr(request, "_admin_membership"):
        request._admin_membership = (  # type: ignore[attr-defined]
            Membership.objects.select_related("organization").filter(user=request.user).first()
        )
    return request._admin_membership  # type: ignore[attr-defined]


def admin_organization(request: HttpRequest) -> Organization | None:
    membership = admin_membership(request)
    return membership.organization if membership else None


def admin_actor(request: HttpRequest) -> Actor:
    """The staff user as the actor of audit events (marked as acting through the admin)."""
    return Actor(
        label=f"{request.user.email or request.user.get_username()} (admin)",
        user_id=request.user.pk,
        ip=request.META.get("REMOTE_ADDR"),
    )


def is_auditor(request: HttpRequest) -> bool:
    membership = admin_membership(request)
    return bool(membership and membership.role == Role.AUDITOR and not request.user.is_superuser)


class OrganizationScopedAdmin(admin.ModelAdmin):
    """Every list, change page, popup and history of the model is limited to one organization."""

    organization_field = "organization"

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        organization = admin_organization(request)
        if organization is None:
            return queryset.none()
        return queryset.filter(**{self.organization_field: organization})

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        # Related-object choices (and their popups) never offer another organization's rows.
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if request.user.is_superuser or field is None:
            return field
        organization = admin_organization(request)
        model = db_field.remote_field.model
        if model is Organization:
            field.queryset = field.queryset.filter(pk=getattr(organization, "pk", None))
        elif hasattr(model, "organization"):
            field.queryset = field.queryset.filter(organization=organization)
        return field

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return not is_auditor(request) and super().has_add_permission(request, *args)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not is_auditor(request) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not is_auditor(request) and super().has_delete_permission(request, obj)
