"""Factories of webhook endpoints and deliveries."""

from __future__ import annotations

import factory

from tests.factories import OrganizationFactory
from webhooks.endpoint_secrets import generate_secret
from webhooks.events import DOCUMENT_CREATED, DOCUMENT_EVENTS
from webhooks.models import WebhookDelivery, WebhookEndpoint


class WebhookEndpointFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = WebhookEndpoint
        skip_postgeneration_save = True

    organization = factory.SubFactory(OrganizationFactory)
    url = factory.Sequence(lambda n: f"https://receiver{n}.example.com/hooks")
    events = factory.LazyFunction(lambda: list(DOCUMENT_EVENTS))

    @factory.post_generation
    def secret(self, create: bool, extracted: str | None, **kwargs: object) -> None:
        """`WebhookEndpointFactory(secret="whsec_...")` sets a known signing secret."""
        self.set_secret(extracted or generate_secret())
        if create:
            self.save(update_fields=["secret_encrypted"])


class WebhookDeliveryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = WebhookDelivery

    endpoint = factory.SubFactory(WebhookEndpointFactory)
    event_id = factory.Sequence(lambda n: f"msg_{n:032x}")
    event = DOCUMENT_CREATED
    payload = factory.LazyAttribute(
        lambda delivery: {
            "event": delivery.event,
            "documentId": "00000000-0000-0000-0000-000000000001",
            "organizationId": str(delivery.endpoint.organization_id),
            "timestamp": "2025-01-01T00:00:00Z",
            "data": {"documentType": "dpia", "status": "COMPLETED"},
        }
    )
