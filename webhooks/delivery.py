"""One delivery attempt: claim it, vet the target again, sign, POST, record, queue the retry.

Standard Webhooks format: headers `webhook-id` (the event id, the same for every attempt),
`webhook-timestamp` (of this attempt) and `webhook-signature: v1,<base64 HMAC-SHA256>`,
signed with the `standardwebhooks` package over the exact body bytes sent.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from standardwebhooks.webhooks import Webhook

from common.background import leases
from webhooks import ssrf
from webhooks.endpoint_secrets import SecretUnavailableError
from webhooks.models import DeliveryStatus, WebhookDelivery
from webhooks.work import KIND

logger = logging.getLogger(__name__)

USER_AGENT = "legaldocs-webhooks/1"


@dataclass(frozen=True)
class AttemptResult:
    status_code: int | None
    duration_ms: int | None
    error: str
    retryable: bool

    @property
    def succeeded(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


def retry_delays() -> list[float]:
    """Seconds to wait before attempt 2, 3, ...; its length + 1 is the number of attempts."""
    return [float(delay) for delay in settings.WEBHOOK_RETRY_DELAYS_SECONDS]


def serialize_body(payload: dict[str, Any]) -> str:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False)


def signed_headers(*, secret: str, event_id: str, body: str, at: datetime) -> dict[str, str]:
    """The Standard Webhooks headers for `body` sent at `at` (a UTC datetime)."""
    signature = Webhook(secret).sign(event_id, at, body)
    return {
        "webhook-id": event_id,
        "webhook-timestamp": str(int(at.timestamp())),
        "webhook-signature": signature,
        "content-type": "application/json",
        "user-agent": USER_AGENT,
    }


def _post(target: ssrf.VettedTarget, *, headers: dict[str, str], body: str) -> AttemptResult:
    """POST to the vetted address, never following redirects (they would skip the guard)."""
    timeout = float(settings.WEBHOOK_TIMEOUT_SECONDS)
    url = httpx.URL(target.url)
    host_header = url.netloc.decode("ascii")
    request_url = url.copy_with(host=target.address)
    started = time.monotonic()
    try:
        # trust_env=False: a proxy from the environment would resolve the name again.
        with httpx.Client(timeout=timeout, follow_redirects=False, trust_env=False) as client:
            request = client.build_request(
                "POST",
                request_url,
                headers={**headers, "host": host_header},
                content=body.encode(),
                # TLS: the certificate is checked against the original name, not the IP.
                extensions={"sni_hostname": target.host},
            )
            # The receiver's answer body is never read: it could be arbitrarily large.
            response = client.send(request, stream=True)
            response.close()
    except httpx.TimeoutException:
        elapsed = int((time.monotonic() - started) * 1000)
        return AttemptResult(None, elapsed, f"Timed out after {timeout:g} s.", retryable=True)
    except httpx.HTTPError as error:
        elapsed = int((time.monotonic() - started) * 1000)
        message = f"{type(error).__name__}: {error}"[:1000]
        return AttemptResult(None, elapsed, message, retryable=True)
    elapsed = int((time.monotonic() - started) * 1000)
    code = response.status_code
    error = "" if 200 <= code < 300 else f"The receiver answered HTTP {code}."
    return AttemptResult(code, elapsed, error, retryable=True)


def _attempt(delivery: WebhookDelivery) -> AttemptResult:
    endpoint = delivery.endpoint
    if not endpoint.is_active:
        return AttemptResult(None, None, "The endpoint is disabled.", retryable=False)
    try:
        target = ssrf.vet_url(endpoint.url)
    except ssrf.UnsafeTargetError as refusal:
        return AttemptResult(None, None, f"Refused: {refusal}", retryable=False)
    try:
        secret = endpoint.get_secret()
    except SecretUnavailableError as error:
        return AttemptResult(None, None, str(error), retryable=False)
    body = serialize_body(delivery.payload)
    headers = signed_headers(
        secret=secret, event_id=delivery.event_id, body=body, at=datetime.now(tz=UTC)
    )
    return _post(target, headers=headers, body=body)


def webhook_delivery_attempt(*, delivery_id: Any) -> WebhookDelivery | None:
    """Make the pending attempt `delivery_id`; return the next attempt it queued, if any.

    Outcome on the row: `succeeded` on a 2xx answer; `retrying` when the answer was not 2xx
    or the request failed (connection error, timeout) and attempts remain, with a new
    `pending` row for the next attempt, queued (common.background) to be sent after the
    configured delay; `failed` after the last attempt, or at once when the target is refused
    by the SSRF guard, the endpoint is disabled or its secret cannot be decrypted (retrying
    would not help). An attempt that is missing or already made is skipped (returns None),
    as is one whose endpoint was deleted meanwhile; one being made by another worker raises
    LeaseHeldError (Celery tasks are acks_late and Redis redelivers long countdowns: the
    lease sends each attempt once; a lease older than its expiry belonged to a worker that
    died mid-request and is taken over).
    """
    lease = leases.claim(KIND, delivery_id, status=DeliveryStatus.PENDING)
    if lease is None:
        return None
    delivery = WebhookDelivery.objects.select_related("endpoint").get(pk=delivery_id)
    result = _attempt(delivery)
    delays = retry_delays()
    next_delivery = None
    with transaction.atomic():
        # The endpoint (and with it this row) may have been deleted during the request; or
        # the lease expired and another worker took the attempt over: it records it.
        held = leases.holding(KIND, delivery_id, lease.token)
        if held is None:
            return None
        held.status_code = result.status_code
        held.duration_ms = result.duration_ms
        held.error = result.error
        if result.succeeded:
            held.status = DeliveryStatus.SUCCEEDED
        elif result.retryable and held.attempt <= len(delays):
            held.status = DeliveryStatus.RETRYING
            delay = delays[held.attempt - 1]
            held.next_attempt_at = timezone.now() + timedelta(seconds=delay)
            next_delivery = WebhookDelivery(
                endpoint_id=held.endpoint_id,
                event_id=held.event_id,
                event=held.event,
                payload=held.payload,
                attempt=held.attempt + 1,
                next_attempt_at=held.next_attempt_at,
            )
        else:
            held.status = DeliveryStatus.FAILED
        held.save(
            update_fields=["status", "status_code", "duration_ms", "error", "next_attempt_at"]
        )
        leases.finish(held)
        if next_delivery is not None:
            leases.queue(KIND, next_delivery, delay=delay)
    logger.info(
        "webhook attempt %s of %s to endpoint %s: %s %s",
        held.attempt,
        held.event_id,
        held.endpoint_id,
        held.status,
        result.status_code or result.error,
    )
    return next_delivery
