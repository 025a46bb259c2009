"""Admin: endpoints (secret shown once, on creation) and their delivery attempts (read-only)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.http import HttpRequest
from django.utils.translation import gettext

from audit.services import record_event
from organizations.admin_scoping import OrganizationScopedAdmin, admin_actor
from webhooks import services, ssrf
from webhooks.endpoint_secrets import generate_secret
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


def _audit(
    request: HttpRequest, organization: Any, action: str, endpoint_id: Any, details: dict
) -> None:
    """As the API records it (`webhook.create`, `webhook.delete`), marked as via the admin."""
    record_event(
        organization=organization,
        actor=admin_actor(request),
        action=f"webhook.{action}",
        object_type="webhook",
        object_id=endpoint_id,
        details=details,
    )


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
        details = {"url": obj.url, "events": obj.events, "via": "admin"}
        organization, endpoint_id = obj.organization, obj.pk
        services.webhook_endpoint_delete(endpoint=obj)
        _audit(request, organization, "delete", endpoint_id, details)

    def delete_queryset(self, request: HttpRequest, queryset: Any) -> None:
        for endpoint in queryset.select_related("organization"):
            self.delete_model(request, endpoint)

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if change:
            super().save_model(request, obj, form, change)
            return
        secret = generate_secret()
        obj.set_secret(secret)
        super().save_model(request, obj, form, change)
        _audit(
            request,
            obj.organization,
            "create",
            obj.pk,
            {"url": obj.url, "events": obj.events, "via": "admin"},
        )
        messages.warning(
            request,
            gettext("Signing secret of %(url)s (copy it now, it is not shown again): %(secret)s")
            % {"url": obj.url, "secret": secret},
        )


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(OrganizationScopedAdmin):
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

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
