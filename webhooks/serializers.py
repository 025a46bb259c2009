"""JSON shapes of the webhook API (camelCase, docs/API.md)."""

from __future__ import annotations

from rest_framework import serializers

from webhooks.events import WEBHOOK_EVENTS
from webhooks.models import WebhookDelivery, WebhookEndpoint


class WebhookEndpointCreateSerializer(serializers.Serializer):
    url = serializers.URLField(max_length=2000)
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=WEBHOOK_EVENTS), allow_empty=False, max_length=20
    )


class WebhookEndpointSerializer(serializers.ModelSerializer):
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=WEBHOOK_EVENTS), read_only=True
    )
    isActive = serializers.BooleanField(source="is_active", read_only=True)  # noqa: N815
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)  # noqa: N815

    class Meta:
        model = WebhookEndpoint
        fields = ["id", "url", "events", "isActive", "createdAt"]
        read_only_fields = fields


class RegisteredWebhookEndpointSerializer(WebhookEndpointSerializer):
    """The answer to a registration: the only time the signing secret is shown."""

    secret = serializers.SerializerMethodField()

    class Meta(WebhookEndpointSerializer.Meta):
        fields = [*WebhookEndpointSerializer.Meta.fields, "secret"]
        read_only_fields = fields

    def get_secret(self, endpoint: WebhookEndpoint) -> str:
        return self.context["secret"]


class WebhookDeliverySerializer(serializers.ModelSerializer):
    eventId = serializers.CharField(source="event_id", read_only=True)  # noqa: N815
    statusCode = serializers.IntegerField(source="status_code", read_only=True)  # noqa: N815
    durationMs = serializers.IntegerField(source="duration_ms", read_only=True)  # noqa: N815
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)  # noqa: N815

    class Meta:
        model = WebhookDelivery
        fields = [
            "id",
            "eventId",
            "event",
            "attempt",
            "status",
            "statusCode",
            "durationMs",
            "error",
            "createdAt",
        ]
        read_only_fields = fields
