"""A manual edit of a document's Markdown (`PATCH /legal-documents/{id}`): a new version.

The edit goes through the same completeness check as generated content; the result says
which mandatory checklist items the edit removed, so that a DPO notices a deleted section.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from audit.services import Actor, record_event
from legal_documents import events
from legal_documents.exceptions import DocumentBusy, DocumentHasNoContent, DocumentNotFound
from legal_documents.models import LegalDocument, Status
from legal_documents.selectors import document_completeness
from legal_documents.services import jobs
from legal_documents.versioning import record_version
from webhooks.events import DOCUMENT_UPDATED

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class ManualEditResult:
    document: LegalDocument
    # Ids of mandatory checklist items present before the edit and missing after it.
    removed_items: list[str]


def present_items(document: LegalDocument, markdown: str) -> set[str]:
    """Ids of the checklist items the Markdown fills (empty for no content)."""
    if not markdown:
        return set()
    report = document_completeness(document, markdown)
    return {item.id for item in report.items if item.status == "present"}


def legal_document_manual_edit(
    *,
    document_id: Any,
    organization_id: Any,
    actor: Actor,
    markdown: str,
    change_reason: str,
) -> ManualEditResult:
    """Replace the content with `markdown` as the next version, by `actor`, for a reason.

    The document row is locked for the whole step, so a concurrent job or edit waits and the
    version numbers stay gapless. Stage is unchanged; a document whose last job failed is
    `completed` again (it now has content its author vouched for).
    Raises ContentTooLong (400) over the content cap (DOCUMENT_MAX_CONTENT_CHARS, 100,000
    characters by default), DocumentNotFound (404) outside
    the organization, DocumentBusy / DocumentHasNoContent (409) while a job is processing or
    when the document has no content yet (generate it first). Records `document.update` in
    the same transaction. After commit: a WebSocket status event and the `document.updated`
    webhook.
    """
    # Checked before the row lock too (set_content checks again): no lock for a refusal.
    jobs.check_content_length(markdown)
    with transaction.atomic():
        document = (
            LegalDocument.objects.select_for_update()
            .filter(pk=document_id, organization_id=organization_id)
            .first()
        )
        if document is None:
            raise DocumentNotFound()
        if document.status == Status.PROCESSING:
            raise DocumentBusy(
                gettext_noop("The document is being processed; edit it once the job has finished.")
            )
        if not document.has_content:
            raise DocumentHasNoContent(
                gettext_noop("The document has no content yet; generate it first.")
            )
        before = present_items(document, document.content_markdown)
        jobs.set_content(document, markdown)
        document.status = Status.COMPLETED
        document.error_code = document.error_message = ""
        document.completed_at = timezone.now()
        document._change_reason = change_reason  # type: ignore[attr-defined]  # simple-history
        document.save()
        record_version(document=document, author_id=actor.user_id, reason=change_reason)
        after = document_completeness(document, markdown)
        removed = [
            item.id for item in after.items if item.status == "missing" and item.id in before
        ]
        record_event(
            organization=document.organization,
            actor=actor,
            action="document.update",
            object_type="document",
            object_id=document.pk,
            details={"version": document.version, "changeReason": change_reason,
                     "removedItems": removed},
        )  # fmt: skip
        events.notify_webhooks(document=document, event=DOCUMENT_UPDATED)
        transaction.on_commit(lambda: _announce(document))
    return ManualEditResult(document=document, removed_items=removed)


def _announce(document: LegalDocument) -> None:
    """WebSocket status after commit; neither it nor the webhook may fail the edit."""
    events.send_document_status(
        document_id=document.pk,
        status=document.status,
        stage=document.stage,
        version=document.version,
    )
