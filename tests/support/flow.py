"""Helpers of the guided-flow tests: documents with content, jobs run in-process, listeners."""

from __future__ import annotations

import asyncio
import threading
from datetime import timedelta
from typing import Any

from channels.layers import DEFAULT_CHANNEL_LAYER, channel_layers
from django.utils import timezone

from gdpr.doctypes.base import DocumentType
from legal_documents.events import document_group
from legal_documents.models import DocumentIteration, LegalDocument, Status
from legal_documents.services.documents import run_generation
from legal_documents.services.flow import run_iteration
from tests.legal_documents.samples import FULL_INPUTS

URL = "/api/v1/legal-documents"


def full_inputs(document_type: str) -> dict[str, Any]:
    inputs = dict(FULL_INPUTS[document_type])
    if document_type == "BREACH_NOTIFICATION":
        # Discovered an hour ago: the 72-hour deadline is still ahead, no delay to explain.
        inputs["discoveredAt"] = (timezone.now() - timedelta(hours=1)).isoformat()
    return inputs


def run_job(document_id: str) -> LegalDocument:
    """Run the document's queued job in-process, as the worker would."""
    document = LegalDocument.objects.get(pk=document_id)
    assert document.status == Status.PROCESSING, document.status
    if document.job_kind == "iterate":
        iteration = DocumentIteration.objects.get(document=document, status=Status.PROCESSING)
        run_iteration(
            document_id=document_id, job_id=str(document.job_id), iteration_id=str(iteration.pk)
        )
    else:
        run_generation(document_id=document_id, job_id=str(document.job_id))
    return LegalDocument.objects.get(pk=document_id)


def completed_document(
    caller: Any, document_type: str = "PRIVACY_POLICY", **extra_inputs: Any
) -> LegalDocument:
    """A document created through the API and generated (version 1)."""
    body = {"documentType": document_type, **full_inputs(document_type), **extra_inputs}
    response = caller.client.post(URL, body, format="json")
    assert response.status_code == 201, response.content
    document = run_job(response.json()["id"])
    assert document.status == Status.COMPLETED
    return document


def answers_reaching_every_question(spec: DocumentType) -> dict[str, Any]:
    """Answers in questionnaire order that open the conditional questions when they can."""
    answers: dict[str, Any] = {}
    for question in spec.questions:
        if not question.is_asked(answers):
            continue
        dependants = [q for q in spec.questions if q.condition and q.condition[0] == question.id]
        if dependants:
            answers[question.id] = dependants[0].condition[1]  # type: ignore[index]
        elif question.answer_type == "boolean":
            answers[question.id] = True
        elif question.answer_type == "choice":
            answers[question.id] = question.options[-1]
        elif question.answer_type == "multiChoice":
            answers[question.id] = list(question.options[:2])
        elif question.answer_type == "date":
            answers[question.id] = "2026-06-30"
        else:
            answers[question.id] = f"Answer to {question.id}: agreed with the board."
    return answers


class GroupListener:
    """A channel of the real channel layer in the document's group, read by a thread.

    It reads while the job runs, as a WebSocket consumer would (a channel holds at most
    `capacity` unread messages; a streamed edit sends more than that).
    """

    def __init__(self, document_id: Any, until: str = "message-response-finished") -> None:
        self.group = document_group(document_id)
        self.until = until
        self.received: list[dict[str, Any]] = []
        self._ready = threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._listen()), daemon=True)
        self._thread.start()
        assert self._ready.wait(10), "the listener could not join the group"

    async def _listen(self) -> None:
        layer = channel_layers.make_backend(DEFAULT_CHANNEL_LAYER)
        channel = await layer.new_channel()
        await layer.group_add(self.group, channel)
        self._ready.set()
        try:
            while True:
                message = await asyncio.wait_for(layer.receive(channel), 30)
                self.received.append({"event": message["event"], "data": message["data"]})
                if message["event"].endswith(self.until):
                    return
        finally:
            await layer.group_discard(self.group, channel)

    def collect(self, timeout: float = 30) -> list[dict[str, Any]]:
        """Every event received up to and including the first named `until`."""
        self._thread.join(timeout)
        assert not self._thread.is_alive(), f"no {self.until} event; got {self.received}"
        return self.received
