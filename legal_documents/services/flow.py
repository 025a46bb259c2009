"""The guided flow after creation: draft, finalize (`generate`) and iterate.

Every step is a job of `legal_documents.services.jobs`: the document turns `processing`
with a new job id (one generation slot of the organization), a Celery task does the work
and `complete_job` stores the result as the next hash-chained version. A document that is
already processing refuses a new step with 409 CONFLICT. An iteration ends with its job, in
the same transaction (completed, failed, or ended by the lease: `end_job_failed`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from audit.services import Actor, record_event
from gdpr.composition import ensure_checklist
from gdpr.composition.additional_information import with_additional_information
from gdpr.composition.completeness import item_blocks
from gdpr.doctypes.registry import get_document_type
from gdpr.i18n import activate
from legal_documents import events
from legal_documents.exceptions import DocumentBusy, DocumentHasNoContent, IterationLimitReached
from legal_documents.models import DocumentIteration, DocumentVersion, LegalDocument, Stage, Status
from legal_documents.providers import EditResult, ProviderError, get_provider
from legal_documents.questionnaire import merge_answers
from legal_documents.services import jobs
from legal_documents.services.documents import writing_request

logger = logging.getLogger(__name__)

MAX_ITERATIONS = settings.MAX_ITERATIONS_PER_DOCUMENT
ASSET_SEARCH_TOOL = "asset_search"


def _lock_idle(document: LegalDocument) -> LegalDocument:
    """The document locked for update; 409 CONFLICT while a job runs on it."""
    locked = (
        LegalDocument.objects.select_for_update(of=("self",))
        .select_related("organization")
        .get(pk=document.pk)
    )
    if locked.status == Status.PROCESSING:
        raise DocumentBusy(
            gettext_noop("The document is being processed; retry once it is completed or failed.")
        )
    return locked


def _audit(document: LegalDocument, actor: Actor, action: str, **details: Any) -> None:
    record_event(
        organization=document.organization,
        actor=actor,
        action=f"document.{action}",
        object_type="document",
        object_id=document.pk,
        details=details or None,
    )


@transaction.atomic
def document_draft(*, document: LegalDocument, actor: Actor) -> LegalDocument:
    """Regenerate the draft with the questionnaire answers (stage `draft`).

    Raises CONFLICT (409) while processing, GENERATION_LIMIT (429) when the organization
    runs its maximum of jobs.
    """
    locked = _lock_idle(document)
    jobs.claim_generation_slot(locked.organization)
    jobs.start_job(locked, kind=jobs.JobKind.DRAFT, stage=Stage.DRAFT)
    _audit(locked, actor, "draft", answered=len(locked.answers or {}))
    return locked


@transaction.atomic
def document_finalize(
    *,
    document: LegalDocument,
    finalize_answers: Mapping[str, Any],
    actor: Actor,
    finalize_questions: Sequence[Mapping[str, str]] | None = None,
) -> LegalDocument:
    """Generate the final document (stage `final`) with the validated `finalize_answers`.

    They replace the previous finalize answers, are also recorded as questionnaire answers
    (so the questionnaire shows them) and are written into the document by composition.
    `finalize_questions` are validated free-text `{question, answer}` pairs: given, they
    replace the stored ones (None keeps them); they are written into an "Additional
    information" section of this and every later version. Raises CONFLICT (409) while
    processing, GENERATION_LIMIT (429) at the organization's maximum of jobs.
    """
    locked = _lock_idle(document)
    jobs.claim_generation_slot(locked.organization)
    kept = {key: value for key, value in finalize_answers.items() if value is not None}
    merge_answers(locked, finalize_answers)
    locked.finalize_answers = kept
    if finalize_questions is not None:
        locked.finalize_questions = [
            {"question": pair["question"], "answer": pair["answer"]} for pair in finalize_questions
        ]
    jobs.start_job(locked, kind=jobs.JobKind.FINALIZE, stage=Stage.FINAL)
    _audit(
        locked, actor, "finalize",
        questionIds=sorted(kept), freeTextQuestions=len(locked.finalize_questions or []),
    )  # fmt: skip
    return locked


@transaction.atomic
def document_iterate(*, document: LegalDocument, message: str, actor: Actor) -> DocumentIteration:
    """Record an iteration and enqueue its edit; the stage is kept.

    The iteration's thread is the document (SEED.md: `threadId` is the document id).

    Raises CONFLICT (409) while processing or before the document has content,
    ITERATION_LIMIT (429) after MAX_ITERATIONS iterations of this document, and
    GENERATION_LIMIT (429) at the organization's maximum of jobs.
    """
    locked = _lock_idle(document)
    if not locked.has_content:
        raise DocumentHasNoContent(gettext_noop("The document has no content to edit yet."))
    count = DocumentIteration.objects.filter(document=locked).count()
    if count >= MAX_ITERATIONS:
        raise IterationLimitReached(iterations=count, limit=MAX_ITERATIONS)
    jobs.claim_generation_slot(locked.organization)
    iteration = DocumentIteration.objects.create(
        document=locked,
        thread_id=locked.pk,
        author_id=actor.user_id,
        message=message,
    )
    jobs.start_job(locked, kind=jobs.JobKind.ITERATE, stage=locked.stage)
    _audit(locked, actor, "iterate", iterationId=str(iteration.pk))
    return iteration


# --- the worker side ----------------------------------------------------------------------
def run_iteration(
    *, document_id: str, job_id: str, iteration_id: str, token: str | None = None
) -> DocumentIteration | None:
    """Apply the iteration's message with the document's provider and complete the job.

    Streams `message-response` events (`tool` for grounding, `ai` for the model's text and
    the reply), then `message-response-finished`. The checklist guard puts back any
    mandatory item the edit dropped. Idempotent: a job that is no longer current is
    skipped. A permanent ProviderError fails the job and the iteration; a
    TransientProviderError propagates so that the task retries. `token`: the lease of the
    task's attempt (None: run directly, any attempt).
    """
    iteration = DocumentIteration.objects.filter(pk=iteration_id).first()
    document = (
        LegalDocument.objects.select_related("organization", "client_company")
        .filter(pk=document_id)
        .first()
    )
    if iteration is None or document is None or str(document.job_id) != job_id:
        return None
    elapsed = jobs.measure()
    message_id = str(iteration.message_id)
    request = writing_request(document)
    if request.sources:
        names = ", ".join(source.file_name for source in request.sources)
        _say(
            iteration,
            f"Found {len(request.sources)} relevant source(s): {names}",
            ASSET_SEARCH_TOOL,
        )
    # The provider configured now: a document written offline gets free-form edits as soon
    # as a language model is configured.
    provider = get_provider()

    def stream(text: str) -> None:
        events.send_message_response(
            document_id=document_id, message_id=message_id, content=text,
            iteration_id=iteration_id,
        )  # fmt: skip

    try:
        result = provider.edit_document(
            document.content_markdown,
            iteration.message,
            request,
            on_chunk=stream if provider.name != "template" else None,
        )
    except ProviderError as error:
        if error.__class__ is ProviderError:
            fail_iteration(
                document_id=document_id, job_id=job_id, iteration_id=iteration_id,
                code=error.code, message=error.message, token=token,
            )  # fmt: skip
            return DocumentIteration.objects.get(pk=iteration_id)
        raise
    for tool_event in result.tool_events:
        _say(iteration, tool_event.get("content", ""), tool_event.get("toolName", "tool"))
    markdown, reply = guarded(document, result, request.template_markdown())
    _say(iteration, reply)
    # The job and its iteration end together: no thread is left open by a lost worker.
    with transaction.atomic():
        completed = jobs.complete_job(
            document_id=document_id,
            job_id=job_id,
            markdown=markdown,
            author_id=iteration.author_id,
            reason=f"Iteration: {iteration.message[:400]}",
            duration_seconds=elapsed(),
            token=token,
        )
        if completed is None and jobs.is_running(document_id=document_id, job_id=job_id):
            return None  # another attempt of this job holds the lease: it finishes the thread
        _finish(iteration, completed, reply, changed=markdown is not None)
    events.send_message_finished(document_id=document_id, iteration_id=iteration_id)
    return iteration


def guarded(document: LegalDocument, result: EditResult, fallback: str) -> tuple[str | None, str]:
    """The edit after the checklist guard (None: no change) and the reply to send."""
    if result.markdown is None:
        return None, result.reply
    spec = get_document_type(document.document_type)
    markdown = ensure_checklist(
        document_type=spec, markdown=result.markdown, fallback_markdown=fallback
    )
    # The finalization's free-text answers stay, as the mandatory items do (their heading in
    # the document's language).
    with activate(document.language):
        markdown = with_additional_information(markdown, document.finalize_questions or [])
    edited_items, kept_items = set(item_blocks(result.markdown)), set(item_blocks(markdown))
    restored = [item for item in spec.checklist if item.id in kept_items - edited_items]
    reply = result.reply
    if restored:
        names = ", ".join(f"{item.title} ({item.article})" for item in restored)
        reply += f" Legally required items were put back by the checklist guard: {names}."
    if markdown.strip() == document.content_markdown.strip():
        return None, reply + " The document is unchanged."
    return markdown, reply


def _say(iteration: DocumentIteration, content: str, tool_name: str | None = None) -> None:
    events.send_message_response(
        document_id=iteration.document_id,
        message_id=str(iteration.message_id),
        content=content,
        kind="tool" if tool_name else "ai",
        tool_name=tool_name,
        iteration_id=str(iteration.pk),
    )


def _finish(
    iteration: DocumentIteration, document: LegalDocument | None, reply: str, *, changed: bool
) -> None:
    iteration.response = reply
    iteration.completed_at = timezone.now()
    if document is None:  # superseded while running: the job no longer owned the document
        iteration.status = Status.FAILED
    elif document.error_code:  # the job failed (e.g. CONTENT_TOO_LONG); the content is kept
        iteration.status = Status.FAILED
        iteration.response = f"{reply} ({document.error_code}: {document.error_message})"
    else:
        iteration.status = Status.COMPLETED
        if changed:
            iteration.resulting_version = DocumentVersion.objects.filter(
                document=document, number=document.version
            ).first()
    iteration.save()


def fail_iteration(
    *,
    document_id: str,
    job_id: str,
    iteration_id: str,
    code: str,
    message: str,
    token: str | None = None,
) -> None:
    """Fail the job and the iteration, tell the subscribers, and finish the thread."""
    response = f"The edit failed ({code}): {message}"
    with transaction.atomic():
        jobs.fail_job(
            document_id=document_id, job_id=job_id, code=code, message=message, token=token
        )
        iteration = DocumentIteration.objects.filter(pk=iteration_id).first()
        closed = iteration is not None and _close(iteration, response)
    if iteration is not None and closed:
        _tell_closed(iteration, response)


def end_job_failed(document: LegalDocument, reason: str) -> None:
    """DOCUMENT_JOB's `end_failed` (the lease ends the job: workers lost, or never sent):
    the job fails and, for an edit, its iteration with it (on the locked document; the
    thread hears it once the sweeper's transaction commits)."""
    code, message = jobs.failure_of(reason)
    jobs.record_failure(document, code, message)
    if document.job_kind != jobs.JobKind.ITERATE:
        return
    response = f"The edit failed ({code}): {message}"
    for iteration in DocumentIteration.objects.filter(document=document, status=Status.PROCESSING):
        if _close(iteration, response):
            transaction.on_commit(partial(_tell_closed, iteration, response))


def _close(iteration: DocumentIteration, response: str) -> bool:
    """Fail an iteration still processing; False when it had already finished (e.g. by a
    redelivered task: nothing more to tell)."""
    updated = DocumentIteration.objects.filter(pk=iteration.pk, status=Status.PROCESSING).update(
        status=Status.FAILED, response=response[:5000], completed_at=timezone.now()
    )
    return bool(updated)


def _tell_closed(iteration: DocumentIteration, response: str) -> None:
    _say(iteration, response)
    events.send_message_finished(document_id=iteration.document_id, iteration_id=str(iteration.pk))
