"""Closing a document's legal clock: a breach notified to the authority, a request answered.

A breach notification's 72 hours (Art. 33(1)) end when the supervisory authority is notified,
a data subject request's month (Art. 12(3)) when the request is answered. Each is one input
of the document (`CLOSING_INPUTS`): `notifiedAt` (the breach notification's own input,
which its timeline states) and `answeredAt` (the request form's). Either can be given in the
create body, or set later through this service (the API's `close` action, the admin's
action). Whoever reads a clock (the register report, the reminders) reads these inputs.
"""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

from django.db import transaction
from django.utils import timezone

from audit.services import Actor, record_event
from common.domain import InvalidInput
from legal_documents.models import LegalDocument

# The input that stops each type's clock; the types with no clock have none.
CLOSING_INPUTS: dict[str, str] = {
    "BREACH_NOTIFICATION": "notifiedAt",
    "DATA_SUBJECT_REQUEST_FORM": "answeredAt",
}


def closing_input(document: LegalDocument) -> str | None:
    """The input that closes the document's clock, or None for a type without one."""
    return CLOSING_INPUTS.get(document.document_type)


def clock_closed_at(document: LegalDocument) -> str | None:
    """When the document's clock was closed (the input as stored), or None while it runs."""
    name = closing_input(document)
    value = (document.inputs or {}).get(name) if name else None
    return str(value) if value else None


@transaction.atomic
def legal_document_close_clock(
    *,
    document_id: UUID | str,
    organization_id: UUID | str,
    actor: Actor,
    at: datetime | None = None,
) -> LegalDocument:
    """Record that the document's clock is closed at `at` (default now), audited.

    Raises InvalidInput for a type without a clock. Closing again moves the time (a correction
    is recorded like the first one, and kept in the document's history).
    """
    document = LegalDocument.objects.select_for_update().get(
        pk=document_id, organization_id=organization_id
    )
    name = closing_input(document)
    if name is None:
        raise InvalidInput(
            "Only a breach notification (notified) or a data subject request form (answered)"
            " has a deadline to close.",
            details={"documentType": document.document_type, "validTypes": sorted(CLOSING_INPUTS)},
        )
    when = (at or timezone.now()).astimezone(UTC)
    stamp = when.isoformat().replace("+00:00", "Z")
    previous = (document.inputs or {}).get(name)
    document.inputs = {**(document.inputs or {}), name: stamp}
    document._change_reason = f"{name} set to {stamp}"  # type: ignore[attr-defined]
    document.save(update_fields=["inputs", "updated_at"])
    record_event(
        organization=document.organization,
        actor=actor,
        action="legal_document.clock_closed",
        object_type="document",
        object_id=document.pk,
        details={"input": name, "at": stamp, "previous": previous},
    )
    return document
