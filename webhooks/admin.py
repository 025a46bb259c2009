"""Admin: endpoints (secret shown once, on creation) and their delivery attempts (read-only)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.http import HttpRequest
from django.utils.translation import gettext

from common.admin_readonly import ReadOnlyAdminMixin
from organizations.admin_scoping import OrganizationScopedAdmin, admin_actor
from webhooks import services, ssrf
from webhooks.events import WEBHOOK_EVENTS
from webhooks.models import WebhookDelivery, WebhookEndpoint


class WebhookEndpointForm(forms.ModelForm):
    url = forms.URLField(max_length=2000, assume_scheme="https")
    events = forms.MultipleChoiceField(
        choices=[(event, event) for event in WEBHOOK_EVENTS],
        widget=forms.CheckboxSelectMultiple,
    )

    class Meta:
        model = WebhookEndpoint
        fields = ["organization", "url", "events", "is_active"]

    def clean_url(self) -> str:
        url = self.cleaned_data["url"]
        try:
            ssrf.vet_url(url)
        except ssrf.UnsafeTargetError as refusal:
            raise forms.ValidationError(str(refusal)) from None
        return url

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        organization = cleaned.get("organization")
        if organization is not None and not services.organization_has_webhooks(organization):
            self.add_error(
                "organization", gettext("Webhooks need the business or enterprise plan.")
            )
        return cleaned


@admin.register(WebhookEndpoint)
class WebhookEndpointAdmin(OrganizationScopedAdmin):
    form = WebhookEndpointForm
    list_display = ["url", "organization", "events", "is_active", "created_at"]
    list_filter = ["is_active"]
    search_fields = ["url"]
    list_select_related = ["organization"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        # The subscribing organization is fixed once created.
        return ["organization"] if obj is not None else []

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        # The delivery attempts go with their endpoint (as through the API), although nobody
        # may delete attempts on their own.
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        perms_needed.discard(WebhookDelivery._meta.verbose_name)
        return deleted, counts, perms_needed, protected

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        services.webhook_endpoint_delete(endpoint=obj, actor=admin_actor(request), via="admin")

    def delete_queryset(self, request: HttpRequest, queryset: Any) -> None:
        for endpoint in queryset.select_related("organization"):
            self.delete_model(request, endpoint)

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if change:
            super().save_model(request, obj, form, change)
            return
        # Created (and audited) by the service, as through the API; the form has checked
        # the plan and the URL, which the service checks again.
        registered = services.webhook_endpoint_create(
            organization=obj.organization,
            url=obj.url,
            events=obj.events,
            is_active=obj.is_active,
            actor=admin_actor(request),
            via="admin",
        )
        # The admin goes on with the form's instance (history entry, redirect): make it the
        # row just saved.
        obj.pk = registered.endpoint.pk
        obj.refresh_from_db()
        messages.warning(
            request,
            gettext("Signing secret of %(url)s (copy it now, it is not shown again): %(secret)s")
            % {"url": obj.url, "secret": registered.secret},
        )


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(ReadOnlyAdminMixin, OrganizationScopedAdmin):
    """Read-only: the attempts are a record of what was sent."""

    organization_field = "endpoint__organization"
    list_display = [
        "created_at",
        "endpoint",
        "event",
        "event_id",
        "attempt",
        "status",
        "status_code",
        "duration_ms",
        "error",
    ]
    list_filter = ["status", "event"]
    search_fields = ["event_id", "endpoint__url"]
    list_select_related = ["endpoint"]
    readonly_fields = [field.name for field in WebhookDelivery._meta.fields]
