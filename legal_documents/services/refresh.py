"""`POST /legal-documents/{id}/refresh`: a new version written from the current register.

Synchronous: the text is composed by the rules (the template writer, deterministic and
fast, whatever provider wrote the document), so no job is queued. The register facts the
content was written from (`document.inputs`) and the current ones are both composed;
`legal_documents.refreshing.merge_refresh` keeps the current text of every section whose
composed text did not change (manual edits included) and takes the new text elsewhere.
The version records the refresh with a reason naming what changed; `stale_since` is
cleared and `register_sources` moves to the current revisions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from audit.services import Actor, record_event
from common.domain import ContentTooLong
from gdpr.composition.additional_information import with_additional_information
from legal_documents import events
from legal_documents.exceptions import (
    DocumentBusy,
    DocumentHasNoContent,
    DocumentNotFound,
    NotFromRegister,
    RegisterEntryGone,
    UnknownRegisterEntries,
)
from legal_documents.models import LegalDocument, Status
from legal_documents.refreshing import merge_refresh
from legal_documents.register_inputs import ACTIVITY_IDS, VENDOR_ID, resolve_register_inputs
from legal_documents.services import jobs
from legal_documents.services.documents import writing_request
from legal_documents.versioning import record_version
from register.models import ProcessingActivity, Vendor
from webhooks.events import DOCUMENT_UPDATED

MAX_REASON = 500


@dataclass(frozen=True)
class RefreshResult:
    document: LegalDocument
    # "Activity 'Payroll'", "Vendor 'Cloud GmbH'" ... whose revision moved (or that went).
    changed_entries: list[str]
    # Sections that took the register's new text.
    rewritten_sections: list[str]
    new_version: bool


def _template(document: LegalDocument, *, inputs: dict[str, Any], now: Any) -> str:
    """The document composed by the rules from `inputs`, as generation composes it."""
    return writing_request(document, inputs=inputs, now=now, with_sources=False).template_markdown()


def _body(document: LegalDocument) -> dict[str, Any]:
    """The create body as the caller gave it: explicit facts and the register ids."""
    inputs = document.inputs or {}
    explicit = document.register_sources.get("explicit", [])
    body = {key: inputs[key] for key in explicit if key in inputs}
    for key in (ACTIVITY_IDS, VENDOR_ID):
        if key in inputs:
            body[key] = inputs[key]
    return body


def _changed_entries(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    changed = []
    for key, model, label in (
        ("activities", ProcessingActivity, "Activity"),
        ("vendors", Vendor, "Vendor"),
    ):
        old, new = before.get(key, {}), after.get(key, {})
        moved = {pk for pk in set(old) | set(new) if old.get(pk) != new.get(pk)}
        names = {
            str(pk): name
            for pk, name in model.objects.filter(pk__in=moved).values_list("pk", "name")
        }
        for pk in sorted(moved, key=lambda value: names.get(value, "")):
            verb = "added" if pk not in old else ("removed" if pk not in new else "changed")
            changed.append(f"{label} '{names.get(pk, pk)}' {verb}")
    return changed


def _reason(changed: list[str], rewritten: list[str]) -> str:
    what = "; ".join(changed) or "no register entry changed"
    sections = ", ".join(rewritten) or "none"
    reason = f"Refreshed from the register: {what}. Sections rewritten: {sections}."
    return reason if len(reason) <= MAX_REASON else reason[: MAX_REASON - 1] + "…"


def legal_document_refresh(
    *, document_id: Any, organization_id: Any, actor: Actor
) -> RefreshResult:
    """Write the next version from the current register (see the module docstring).

    Raises DocumentNotFound (404) outside the organization; NotFromRegister (409) for a
    document written from its body alone, DocumentBusy (409) while a job runs,
    DocumentHasNoContent (409) before the first version, and RegisterEntryGone (409) when
    an entry the document names was deleted from the register; ContentTooLong (400) when
    the refreshed text would be over the content cap (DOCUMENT_MAX_CONTENT_CHARS: a whole
    register grown by an import), the document then left exactly as it was. Audited as
    `document.refresh`; a new version sends `document.updated`.
    """
    with transaction.atomic():
        document = (
            LegalDocument.objects.select_for_update(of=("self",))
            .select_related("organization", "client_company")
            .filter(pk=document_id, organization_id=organization_id)
            .first()
        )
        if document is None:
            raise DocumentNotFound()
        if document.status == Status.PROCESSING:
            raise DocumentBusy("The document is being processed; refresh it once it is completed.")
        if not document.register_sources:
            raise NotFromRegister(
                "The document was written from its create body alone, not from the register;"
                " there is nothing to refresh."
            )
        if not document.has_content:
            raise DocumentHasNoContent("The document has no content yet; generate it first.")
        try:
            resolved = resolve_register_inputs(
                organization_id=organization_id,
                document_type=document.document_type,
                body=_body(document),
            )
        except UnknownRegisterEntries as error:
            raise RegisterEntryGone(
                "An entry this document was written from is no longer in the register; create"
                " the document again from the entries that remain.",
                details=error.details,
            ) from error
        now = timezone.now()
        merge = merge_refresh(
            current=document.content_markdown,
            old=_template(document, inputs=document.inputs or {}, now=now),
            new=_template(document, inputs=resolved.inputs, now=now),
        )
        markdown = with_additional_information(merge.markdown, document.finalize_questions or [])
        changed = _changed_entries(document.register_sources, resolved.sources)
        document.inputs = resolved.inputs
        document.register_sources = resolved.sources
        document.stale_since = None
        new_version = markdown.strip() != document.content_markdown.strip()
        reason = _reason(changed, merge.rewritten)
        if new_version:
            try:
                jobs.set_content(document, markdown)
            except ContentTooLong as error:
                # Raised before anything is saved: the transaction rolls back, the document
                # keeps its version, content, sources and staleness.
                raise ContentTooLong(
                    f"The refreshed document would be over the content cap. {error.message}"
                    " Write the record for fewer activities (processingActivityIds) instead.",
                    details=error.details,
                ) from error
            document._change_reason = reason  # type: ignore[attr-defined]  # simple-history
        document.save()
        if new_version:
            record_version(document=document, author_id=actor.user_id, reason=reason)
            events.notify_webhooks(document=document, event=DOCUMENT_UPDATED)
        record_event(
            organization=document.organization,
            actor=actor,
            action="document.refresh",
            object_type="document",
            object_id=document.pk,
            details={"version": document.version, "newVersion": new_version,
                     "changedEntries": changed, "rewrittenSections": merge.rewritten},
        )  # fmt: skip
        document_pk, status, stage, version = (
            document.pk,
            document.status,
            document.stage,
            document.version,
        )
        transaction.on_commit(
            lambda: events.send_document_status(
                document_id=document_pk, status=status, stage=stage, version=version
            )
        )
    return RefreshResult(
        document=document,
        changed_entries=changed,
        rewritten_sections=merge.rewritten,
        new_version=new_version,
    )
