"""Creating documents and running their generation jobs."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from audit.services import Actor, record_event
from gdpr.composition import SourceRef
from gdpr.composition.additional_information import with_additional_information
from gdpr.doctypes.registry import get_document_type
from gdpr.i18n import DEFAULT_LANGUAGE, activate
from legal_documents import events
from legal_documents.exceptions import UnknownClientCompany
from legal_documents.grounding import sources_for_document
from legal_documents.models import LegalDocument, Stage
from legal_documents.providers import ProviderError, WritingRequest, get_provider
from legal_documents.register_inputs import resolve_register_inputs
from legal_documents.selectors import composition_inputs
from legal_documents.services import jobs
from organizations.models import ClientCompany, Membership
from webhooks.events import DOCUMENT_CREATED

logger = logging.getLogger(__name__)


def resolve_client_company(
    *, membership: Membership, client_company_id: Any
) -> ClientCompany | None:
    if client_company_id is None:
        return None
    company = ClientCompany.objects.filter(
        pk=client_company_id, organization=membership.organization
    ).first()
    if company is None:
        raise UnknownClientCompany()
    return company


@transaction.atomic
def legal_document_create(
    *,
    membership: Membership,
    document_type: str,
    inputs: dict[str, Any],
    actor: Actor,
    language: str = DEFAULT_LANGUAGE,
) -> LegalDocument:
    """Create a document in `processing` and enqueue its generation after commit.

    `inputs` are the type serializer's validated data (JSON-ready). Raises
    UnknownClientCompany (VALIDATION_ERROR) for a client company of another organization
    and GenerationLimitReached (429) when the organization already runs its maximum of generations.
    `language` (validated against gdpr.i18n.COMPLETE_LANGUAGES at the edge) is kept for the
    document's whole life: questionnaire, draft, finalize and iterations write in it.
    """
    spec = get_document_type(document_type)
    company = resolve_client_company(
        membership=membership, client_company_id=inputs.get("clientCompanyId")
    )
    # Register ids become the facts they stand for (UnknownRegisterEntries: 400).
    resolved = resolve_register_inputs(
        organization_id=membership.organization_id, document_type=spec.name, body=inputs
    )
    jobs.claim_generation_slot(membership.organization)
    document = LegalDocument(
        organization=membership.organization,
        creator=membership.user,
        client_company=company,
        document_type=spec.name,
        ruleset_version=spec.ruleset_version,
        inputs=resolved.inputs,
        register_sources=resolved.sources,
        language=language,
        provider=get_provider().name,
    )
    jobs.start_job(document, kind=jobs.JobKind.CREATE, stage=Stage.DRAFT)
    events.notify_webhooks(document=document, event=DOCUMENT_CREATED)
    record_event(
        organization=membership.organization,
        actor=actor,
        action="document.create",
        object_type="document",
        object_id=document.pk,
        details={
            "documentType": spec.name,
            "language": language,
            **register_details(resolved.sources),
        },
    )
    return document


def register_details(sources: dict[str, Any]) -> dict[str, Any]:
    """What the audit event says about the register entries a document was written from."""
    if not sources:
        return {}
    return {
        "registerActivities": sorted(sources.get("activities", {})),
        "registerVendors": sorted(sources.get("vendors", {})),
        "wholeRegister": bool(sources.get("wholeRegister")),
    }


def writing_request(
    document: LegalDocument,
    *,
    inputs: dict[str, Any] | None = None,
    now: datetime | None = None,
    with_sources: bool = True,
) -> WritingRequest:
    """What a provider needs to write this document now.

    A refresh composes the document from other register facts (`inputs`: the ones it was
    written from, then the current ones) at one `now`, without the uploaded sources (they are
    not register facts: a new upload must not count as a changed section).
    """
    return WritingRequest(
        document_type=get_document_type(document.document_type),
        inputs=composition_inputs(document, inputs=inputs),
        answers={key: value["answer"] for key, value in (document.answers or {}).items()},
        finalize_answers=document.finalize_answers or {},
        organization_name=document.organization.name,
        sources=relevant_sources(document) if with_sources else (),
        now=now or timezone.now(),
        language=document.language,
    )


def relevant_sources(document: LegalDocument) -> list[SourceRef]:
    """The organization's uploaded assets most relevant to this document (may be none)."""
    return sources_for_document(document)


REASONS = {
    jobs.JobKind.CREATE: "Generated",
    jobs.JobKind.DRAFT: "Draft regenerated with the questionnaire answers",
    jobs.JobKind.FINALIZE: "Finalized",
}


def run_generation(
    *, document_id: str, job_id: str, token: str | None = None
) -> LegalDocument | None:
    """Write the document with its provider and complete the job.

    Idempotent: a job that is no longer current is skipped. ProviderError fails the
    document with its code; TransientProviderError propagates so that the task retries.
    `token`: the lease of the task's attempt (None: run directly, any attempt).
    """
    document = (
        LegalDocument.objects.select_related("organization", "client_company")
        .filter(pk=document_id)
        .first()
    )
    if document is None or str(document.job_id) != job_id:
        return None
    elapsed = jobs.measure()
    provider = get_provider(document.provider or None)
    stream_id = f"generation-{job_id}"
    on_chunk = _streamer(document_id, stream_id) if provider.name != "template" else None
    try:
        markdown = provider.write_document(writing_request(document), on_chunk=on_chunk)
        # The finalization's free-text answers, whichever provider wrote the rest.
        with activate(document.language):
            markdown = with_additional_information(markdown, document.finalize_questions or [])
    except ProviderError as error:
        if error.__class__ is ProviderError:
            return jobs.fail_job(
                document_id=document_id, job_id=job_id, code=error.code, message=error.message,
                token=token,
            )  # fmt: skip
        raise
    return jobs.complete_job(
        document_id=document_id,
        job_id=job_id,
        markdown=markdown,
        author_id=document.creator_id,
        reason=REASONS.get(document.job_kind, "Generated"),
        duration_seconds=elapsed(),
        token=token,
    )


def _streamer(document_id: str, stream_id: str) -> Callable[[str], None]:
    from legal_documents import events

    def send(text: str) -> None:
        # threadId is the document id (events.py); messageId tells this job's text apart.
        events.send_message_response(document_id=document_id, message_id=stream_id, content=text)

    return send
