"""The audit trail in the admin: read-only, filtered, and its hash chain verified on demand."""

from __future__ import annotations

from typing import Any

from django.apps import apps as django_apps
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import CharField, QuerySet
from django.db.models.functions import Cast
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import URLPattern, path
from django.utils.translation import gettext, gettext_lazy

from audit.models import AuditEvent
from audit.services import record_event, verify_chain
from common.admin_readonly import ReadOnlyAdminMixin
from organizations.admin_scoping import (
    OrganizationScopedAdmin,
    admin_actor,
    admin_membership,
    admin_organization,
)
from organizations.models import Membership, Organization, Role


class ActorUserFilter(admin.SimpleListFilter):
    """By member: only the members of the staff user's organization are offered."""

    title = gettext_lazy("user")
    parameter_name = "actor_user"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        memberships = Membership.objects.select_related("user").order_by("user__email")
        if not request.user.is_superuser:
            memberships = memberships.filter(organization=admin_organization(request))
        return [(str(m.user_id), m.user.email or m.user.get_username()) for m in memberships]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        value = self.value()
        return queryset.filter(actor_user_id=value) if value and value.isdigit() else queryset


class DocumentFilter(admin.SimpleListFilter):
    """By document: set from a document's "Audit events" link (`?object_id=` does the same)."""

    title = gettext_lazy("document")
    parameter_name = "document"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        value = self.value()
        return [(value, value)] if value else []

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        value = self.value()
        if not value:
            return queryset
        return queryset.filter(object_type="document", object_id=value)


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdminMixin, OrganizationScopedAdmin):
    """Read-only for everybody, superusers included: the trail is append-only."""

    change_list_template = "admin/audit/auditevent/audit_change_list.html"
    list_display = ["at", "actor", "action", "object_type", "object_id", "outcome", "ip"]
    list_filter = ["outcome", "action", "object_type", ActorUserFilter, DocumentFilter]
    search_fields = ["actor", "object_id", "action"]
    date_hierarchy = "at"
    list_select_related = ["organization"]
    readonly_fields = [field.name for field in AuditEvent._meta.fields]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        """Admins and auditors: the organization's trail. DPOs: the events of the documents
        they see in the admin (their organization's), not the keys, members and logins
        (e-mail and IP addresses) of everybody else; the API does not give DPOs the trail."""
        queryset = super().get_queryset(request)
        membership = admin_membership(request)
        if request.user.is_superuser or membership is None or membership.role != Role.DPO:
            return queryset
        # Looked up by name: audit sits below legal_documents (docs/ARCHITECTURE.md layers).
        documents = django_apps.get_model("legal_documents", "LegalDocument")
        visible_documents = documents.objects.filter(
            organization=membership.organization
        ).values_list(Cast("id", output_field=CharField()), flat=True)
        return queryset.filter(object_type="document", object_id__in=visible_documents)

    def get_urls(self) -> list[URLPattern]:
        chain = path(
            "chain/", self.admin_site.admin_view(self.chain_view), name="audit_auditevent_chain"
        )
        return [chain, *super().get_urls()]

    def chain_view(self, request: HttpRequest) -> HttpResponse:
        """Verify the hash chain of the staff user's organization (superusers: of every one)."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        if request.user.is_superuser:
            organizations = list(Organization.objects.order_by("name"))
        else:
            organization = admin_organization(request)
            organizations = [organization] if organization else []
        results = []
        for organization in organizations:
            broken = verify_chain(organization_id=organization.pk)
            count = AuditEvent.objects.filter(organization=organization).count()
            results.append({"organization": organization, "events": count, "break": broken})
            record_event(
                organization=organization,
                actor=admin_actor(request),
                action="audit.verify",
                object_type="organization",
                object_id=organization.pk,
                details={"valid": broken is None, "via": "admin"},
            )
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": gettext("Audit trail: hash chain check"),
            "results": results,
        }
        return TemplateResponse(request, "admin/audit/auditevent/chain_check.html", context)
