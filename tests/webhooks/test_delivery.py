"""Delivering document events: Standard Webhooks signatures, retries, timeouts, re-vetting.

Deliveries go to a real HTTP server on the loopback interface (allowed by the development
switches) and run the Celery task in this process.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone
from kombu.exceptions import OperationalError as KombuOperationalError
from standardwebhooks.webhooks import Webhook

from common.background import sweeper
from common.background.leases import LeaseHeldError
from config.celery import app as celery_app
from organizations.models import Plan
from tests.factories import OrganizationFactory
from tests.webhooks.factories import WebhookDeliveryFactory, WebhookEndpointFactory
from webhooks import delivery as delivery_module
from webhooks.delivery import webhook_delivery_attempt
from webhooks.models import DeliveryStatus, WebhookDelivery
from webhooks.services import webhook_deliveries_create
from webhooks.tasks import deliver_webhook_task
from webhooks.work import KIND

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("local_targets", "eager_tasks")]

SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
DATA = {"documentType": "dpia", "status": "COMPLETED", "stage": "final"}


def dispatch(organization, event="document.finalized"):  # type: ignore[no-untyped-def]
    return webhook_deliveries_create(
        subject_id="7d7c0d6e-3a4c-4e0c-9a39-9ad0b1b7a001",
        organization_id=organization.pk,
        event=event,
        data=DATA,
    )


def attempts(endpoint) -> list[WebhookDelivery]:  # type: ignore[no-untyped-def]
    return list(WebhookDelivery.objects.filter(endpoint=endpoint).order_by("attempt"))


def test_the_receiver_gets_a_payload_it_can_verify_with_standard_webhooks(
    receiver, django_capture_on_commit_callbacks
):
    endpoint = WebhookEndpointFactory(url=receiver.url(), secret=SECRET)
    with django_capture_on_commit_callbacks(execute=True):
        dispatch(endpoint.organization)

    [request] = receiver.received
    assert request.path == "/hooks/legaldocs"
    assert request.headers["content-type"] == "application/json"
    assert request.headers["webhook-signature"].startswith("v1,")
    payload = Webhook(SECRET).verify(request.body, request.headers)
    assert set(payload) == {"event", "documentId", "organizationId", "timestamp", "data"}
    assert payload["event"] == "document.finalized"
    assert payload["documentId"] == "7d7c0d6e-3a4c-4e0c-9a39-9ad0b1b7a001"
    assert payload["organizationId"] == str(endpoint.organization_id)
    assert payload["data"] == DATA
    [delivery] = attempts(endpoint)
    assert request.headers["webhook-id"] == delivery.event_id
    assert (delivery.status, delivery.status_code, delivery.error) == ("succeeded", 200, "")
    assert delivery.duration_ms is not None


def test_a_signature_made_with_another_secret_does_not_verify(receiver):
    endpoint = WebhookEndpointFactory(url=receiver.url(), secret=SECRET)
    deliver_webhook_task(str(dispatch(endpoint.organization)[0].pk))
    [request] = receiver.received
    with pytest.raises(Exception, match="No matching signature"):
        Webhook("whsec_" + "A" * 43 + "=").verify(request.body, request.headers)
    tampered = json.loads(request.body) | {"event": "document.created"}
    with pytest.raises(Exception, match="No matching signature"):
        Webhook(SECRET).verify(json.dumps(tampered), request.headers)


def test_it_connects_to_the_vetted_address_sending_the_original_host_name(receiver, dns):
    dns["receiver.example.com"] = ["127.0.0.1"]  # nothing else could resolve this name
    endpoint = WebhookEndpointFactory(url=receiver.url("receiver.example.com"), secret=SECRET)
    deliver_webhook_task(str(dispatch(endpoint.organization)[0].pk))
    [request] = receiver.received
    assert request.headers["host"] == f"receiver.example.com:{receiver.port}"
    assert attempts(endpoint)[0].status == "succeeded"


def test_a_failing_receiver_is_retried_and_every_attempt_is_stored(
    receiver, django_capture_on_commit_callbacks
):
    receiver.responses = [500, 503, 204]
    endpoint = WebhookEndpointFactory(url=receiver.url(), secret=SECRET)
    delivery_id = str(dispatch(endpoint.organization)[0].pk)
    with django_capture_on_commit_callbacks(execute=True):  # the retries are sent on commit
        deliver_webhook_task(delivery_id)

    stored = attempts(endpoint)
    assert [(row.attempt, row.status, row.status_code) for row in stored] == [
        (1, "retrying", 500),
        (2, "retrying", 503),
        (3, "succeeded", 204),
    ]
    assert stored[0].error == "The receiver answered HTTP 500."
    assert all(row.duration_ms is not None for row in stored)
    assert all(row.next_attempt_at for row in stored[:2])
    assert len({row.event_id for row in stored}) == 1
    # Each attempt is signed again, with the same message id, and verifies.
    assert len(receiver.received) == 3
    for request in receiver.received:
        Webhook(SECRET).verify(request.body, request.headers)
        assert request.headers["webhook-id"] == stored[0].event_id


def test_after_the_last_attempt_the_delivery_is_failed(
    receiver, settings, dpo, django_capture_on_commit_callbacks
):
    settings.WEBHOOK_RETRY_DELAYS_SECONDS = [0, 0]
    receiver.responses = [500, 500, 500, 500]
    endpoint = WebhookEndpointFactory(url=receiver.url(), secret=SECRET)
    delivery_id = str(dispatch(endpoint.organization)[0].pk)
    with django_capture_on_commit_callbacks(execute=True):
        deliver_webhook_task(delivery_id)

    assert [(row.attempt, row.status) for row in attempts(endpoint)] == [
        (1, "retrying"),
        (2, "retrying"),
        (3, "failed"),
    ]
    assert len(receiver.received) == 3


def test_a_receiver_that_times_out_is_recorded_and_retried(
    receiver, settings, django_capture_on_commit_callbacks
):
    settings.WEBHOOK_TIMEOUT_SECONDS = 0.3
    settings.WEBHOOK_RETRY_DELAYS_SECONDS = [0]
    receiver.responses = [("sleep", 1.5), 200]
    endpoint = WebhookEndpointFactory(url=receiver.url(), secret=SECRET)
    delivery_id = str(dispatch(endpoint.organization)[0].pk)
    with django_capture_on_commit_callbacks(execute=True):
        deliver_webhook_task(delivery_id)

    timed_out, retried = attempts(endpoint)
    assert (timed_out.status, timed_out.status_code) == ("retrying", None)
    assert timed_out.error == "Timed out after 0.3 s."
    assert timed_out.duration_ms >= 300
    assert (retried.attempt, retried.status, retried.status_code) == (2, "succeeded", 200)


def test_a_target_that_now_resolves_to_a_private_address_is_refused_at_delivery(
    receiver, dns, settings
):
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    dns["hooks.example.com"] = ["93.184.215.14"]
    endpoint = WebhookEndpointFactory(url="http://hooks.example.com/in", secret=SECRET)
    dns["hooks.example.com"] = ["10.0.0.8"]  # DNS changed since the registration
    deliver_webhook_task(str(dispatch(endpoint.organization)[0].pk))

    [refused] = attempts(endpoint)
    assert refused.status == DeliveryStatus.FAILED
    assert refused.status_code is None
    assert "10.0.0.8, a private address" in refused.error
    assert refused.error.startswith("Refused:")


def test_only_active_endpoints_subscribed_to_the_event_receive_it(receiver):
    organization = OrganizationFactory()
    wanted = WebhookEndpointFactory(organization=organization, url=receiver.url(),
                                    events=["document.drafted"])  # fmt: skip
    WebhookEndpointFactory(organization=organization, url=receiver.url(),
                           events=["document.created"])  # fmt: skip
    WebhookEndpointFactory(organization=organization, url=receiver.url(), is_active=False)
    WebhookEndpointFactory(url=receiver.url())  # another organization

    deliveries = dispatch(organization, event="document.drafted")
    assert [delivery.endpoint_id for delivery in deliveries] == [wanted.pk]


def test_a_free_organization_dispatches_nothing(receiver):
    endpoint = WebhookEndpointFactory(
        organization=OrganizationFactory(plan=Plan.FREE), url=receiver.url()
    )
    assert dispatch(endpoint.organization) == []


def test_an_unknown_event_is_a_programming_error():
    with pytest.raises(ValueError, match="Unknown webhook event"):
        dispatch(OrganizationFactory(), event="document.exploded")


def test_a_redelivered_task_does_not_send_the_attempt_twice(receiver):
    endpoint = WebhookEndpointFactory(url=receiver.url(), secret=SECRET)
    delivery_id = str(dispatch(endpoint.organization)[0].pk)
    deliver_webhook_task(delivery_id)
    deliver_webhook_task(delivery_id)
    assert len(receiver.received) == 1


def test_deliveries_run_only_on_the_webhooks_queue():
    route = celery_app.amqp.router.route({}, deliver_webhook_task.name, args=("x",))
    assert route["queue"].name == "webhooks"


def test_an_attempt_claimed_by_a_live_worker_is_not_sent_again(receiver):
    endpoint = WebhookEndpointFactory(url=receiver.url(), secret=SECRET)
    delivery = dispatch(endpoint.organization)[0]
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        lease_state="leased", lease_expires_at=timezone.now() + timedelta(seconds=60)
    )
    with pytest.raises(LeaseHeldError):
        webhook_delivery_attempt(delivery_id=delivery.pk)
    assert receiver.received == []


def test_an_attempt_claimed_by_a_worker_that_died_is_taken_over(receiver):
    endpoint = WebhookEndpointFactory(url=receiver.url(), secret=SECRET)
    delivery = dispatch(endpoint.organization)[0]
    long_ago = timezone.now() - timedelta(hours=1)
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        lease_state="leased", lease_expires_at=long_ago, attempts=1
    )
    deliver_webhook_task(str(delivery.pk))
    assert len(receiver.received) == 1
    delivery.refresh_from_db()
    assert delivery.status == "succeeded"


def test_an_endpoint_deleted_during_the_request_stops_its_deliveries(receiver, monkeypatch):
    endpoint = WebhookEndpointFactory(url=receiver.url(), secret=SECRET)
    delivery = dispatch(endpoint.organization)[0]
    receiver.responses = [500]
    original_post = delivery_module._post

    def post_then_delete(*args, **kwargs):  # type: ignore[no-untyped-def]
        result = original_post(*args, **kwargs)
        endpoint.delete()
        return result

    monkeypatch.setattr(delivery_module, "_post", post_then_delete)
    deliver_webhook_task(str(delivery.pk))
    assert not WebhookDelivery.objects.exists()
    assert len(receiver.received) == 1


def broker_down(*args, **kwargs):  # type: ignore[no-untyped-def]
    raise KombuOperationalError("Error 111 connecting to localhost:6379. Connection refused.")


def test_an_event_whose_enqueue_failed_is_delivered_after_the_sweep(
    receiver, monkeypatch, django_capture_on_commit_callbacks
):
    endpoint = WebhookEndpointFactory(url=receiver.url(), secret=SECRET)
    with monkeypatch.context() as broker, django_capture_on_commit_callbacks(execute=True):
        broker.setattr(deliver_webhook_task, "apply_async", broker_down)
        [delivery] = dispatch(endpoint.organization)
    assert receiver.received == []
    assert attempts(endpoint)[0].lease_state == "queued"  # the sweeper sends it again
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        due_at=timezone.now() - timedelta(minutes=5)
    )

    assert sweeper.sweep(KIND)["resent"] == 1

    assert len(receiver.received) == 1
    assert attempts(endpoint)[0].status == DeliveryStatus.SUCCEEDED


def test_the_sweep_sends_abandoned_attempts_but_not_those_due_later_or_being_made(
    receiver, django_capture_on_commit_callbacks
):
    endpoint = WebhookEndpointFactory(url=receiver.url(), secret=SECRET)
    now = timezone.now()
    due_later = WebhookDeliveryFactory(
        endpoint=endpoint,
        next_attempt_at=now + timedelta(hours=1),
        lease_state="queued",
        due_at=now + timedelta(hours=1),
    )
    being_made = WebhookDeliveryFactory(
        endpoint=endpoint,
        next_attempt_at=now - timedelta(minutes=5),
        lease_state="leased",
        lease_expires_at=now + timedelta(seconds=55),
        attempts=1,
    )
    # Its worker died mid-request and its task stopped looking: nothing would send it.
    abandoned = WebhookDeliveryFactory(
        endpoint=endpoint,
        next_attempt_at=now - timedelta(minutes=10),
        lease_state="leased",
        lease_expires_at=now - timedelta(minutes=9),
        attempts=1,
    )

    with django_capture_on_commit_callbacks(execute=True):
        assert sweeper.sweep(KIND) == {"requeued": 1, "failed": 0, "resent": 0}

    assert [request.headers["webhook-id"] for request in receiver.received] == [abandoned.event_id]
    statuses = dict(WebhookDelivery.objects.values_list("pk", "status"))
    assert statuses[due_later.pk] == statuses[being_made.pk] == DeliveryStatus.PENDING
    assert statuses[abandoned.pk] == DeliveryStatus.SUCCEEDED
