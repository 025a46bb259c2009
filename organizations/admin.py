from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import Exists, JSONField, OuterRef, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext, gettext_lazy, ngettext
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from organizations import second_factor, services
from organizations.admin_scoping import (
    OrganizationScopedAdmin,
    admin_actor,
    admin_membership,
    admin_organization,
)
from organizations.fields import CompanyDetailsFormField
from organizations.models import ApiKey, ClientCompany, Membership, Organization, Role

# django-otp's own device pages list every user's devices, across organizations, with their
# secrets: members manage theirs on the second-factor page, and organization admins reset a
# member's from the members list (organizations/second_factor.py).
for _device_model in (TOTPDevice, StaticDevice):
    if admin.site.is_registered(_device_model):
        admin.site.unregister(_device_model)


@admin.register(Organization)
class OrganizationAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "plan", "container_name", "created_at"]
    list_filter = ["plan"]
    search_fields = ["name", "slug"]
    readonly_fields = ["container_name", "created_at"]
    prepopulated_fields = {"slug": ["name"]}

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        organization = admin_organization(request)
        return queryset.filter(pk=getattr(organization, "pk", None))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return request.user.is_superuser

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_superuser


@admin.register(Membership)
class MembershipAdmin(OrganizationScopedAdmin):
    list_display = ["user", "organization", "role", "has_second_factor", "created_at"]
    list_filter = ["role"]
    search_fields = ["user__email", "user__username"]
    list_select_related = ["user", "organization"]
    autocomplete_fields = ["user"]
    actions = ["reset_second_factor"]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        enrolled = TOTPDevice.objects.filter(user=OuterRef("user"), confirmed=True)
        return super().get_queryset(request).annotate(second_factor_enrolled=Exists(enrolled))

    @admin.display(boolean=True, description=gettext_lazy("Two-factor authentication"))
    def has_second_factor(self, obj: Membership) -> bool:
        return bool(getattr(obj, "second_factor_enrolled", False))

    def has_reset_second_factor_permission(self, request: HttpRequest) -> bool:
        """Organization admins (of their own members: the list is scoped) and superusers."""
        if request.user.is_superuser:
            return True
        membership = admin_membership(request)
        return membership is not None and membership.role == Role.ADMIN

    # A lost phone: the member enrols again at their next admin visit (audited).
    @admin.action(
        description=gettext_lazy("Reset the two-factor authentication of the selected members"),
        permissions=["reset_second_factor"],
    )
    def reset_second_factor(self, request: HttpRequest, queryset: QuerySet) -> None:
        count = 0
        for membership in queryset.select_related("user", "organization"):
            second_factor.second_factor_reset(user=membership.user, actor=admin_actor(request))
            count += 1
        self.message_user(
            request,
            ngettext(
                "The two-factor authentication of %(count)d member was reset.",
                "The two-factor authentication of %(count)d members was reset.",
                count,
            )
            % {"count": count},
        )


@admin.register(ClientCompany)
class ClientCompanyAdmin(OrganizationScopedAdmin):
    list_display = ["name", "organization", "created_at"]
    formfield_overrides = {JSONField: {"form_class": CompanyDetailsFormField}}
    search_fields = ["name", "details"]
    list_select_related = ["organization"]
    date_hierarchy = "created_at"


@admin.register(ApiKey)
class ApiKeyAdmin(OrganizationScopedAdmin):
    organization_field = "membership__organization"
    list_display = ["prefix", "name", "membership", "created_at", "last_used_at", "revoked_at"]
    list_filter = ["revoked_at"]
    search_fields = ["prefix", "name", "membership__user__email"]
    list_select_related = ["membership__user", "membership__organization"]
    fields = ["membership", "name", "prefix", "created_at", "last_used_at", "revoked_at"]
    readonly_fields = ["prefix", "created_at", "last_used_at", "revoked_at"]
    actions = ["revoke_selected"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        # A key's owner never changes; only its label may be edited.
        return [*self.readonly_fields, "membership"] if obj else list(self.readonly_fields)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if db_field.name == "membership" and not request.user.is_superuser:
            field.queryset = field.queryset.filter(organization=admin_organization(request))
        return field

    def save_model(self, request: HttpRequest, obj: ApiKey, form: Any, change: bool) -> None:
        if change:
            super().save_model(request, obj, form, change)
            return
        issued = services.api_key_create(
            membership=obj.membership, name=obj.name, actor=admin_actor(request)
        )
        obj.pk = issued.api_key.pk
        obj.prefix = issued.api_key.prefix
        messages.warning(
            request,
            gettext("The new API key is %(key)s — copy it now, it will not be shown again.")
            % {"key": issued.raw_key},
        )

    # Organization admins only: DPOs and auditors view keys but hold no change permission.
    @admin.action(description=gettext_lazy("Revoke selected keys"), permissions=["change"])
    def revoke_selected(self, request: HttpRequest, queryset: QuerySet) -> None:
        for api_key in queryset.select_related("membership__organization"):
            services.api_key_revoke(api_key=api_key, actor=admin_actor(request))
        self.message_user(request, gettext("Keys revoked."))
