"""What a generation provider is: something that writes a document's Markdown.

Providers never touch the database; `legal_documents.services.generation` gives them a
`WritingRequest` and stores what they return after the checklist guard.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from gdpr.composition import SourceRef, compose
from gdpr.doctypes.base import DocumentType
from gdpr.i18n import DEFAULT_LANGUAGE

# Receives each streamed piece of text (token, sentence, section) as it is written.
ChunkCallback = Callable[[str], None]


class ProviderError(Exception):
    """A permanent failure: the document becomes `failed` with this code and message."""

    def __init__(self, code: str, message: str) -> None:
        # Both in args: the exception travels through Celery's (pickled) retry machinery.
        super().__init__(code, message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return self.message


class TransientProviderError(ProviderError):
    """A failure worth retrying (timeout, connection reset, 429/5xx from the model)."""


@dataclass(frozen=True)
class WritingRequest:
    document_type: DocumentType
    inputs: Mapping[str, Any]
    answers: Mapping[str, Any] = field(default_factory=dict)
    finalize_answers: Mapping[str, Any] = field(default_factory=dict)
    organization_name: str | None = None
    sources: Sequence[SourceRef] = ()
    now: datetime | None = None
    # The document's language (gdpr.i18n.SUPPORTED_LANGUAGES): every provider writes in it.
    language: str = DEFAULT_LANGUAGE

    def template_markdown(self) -> str:
        """The template provider's text: complete, and the fallback for every other writer."""
        return compose(
            document_type=self.document_type,
            inputs=self.inputs,
            answers=self.answers,
            finalize_answers=self.finalize_answers,
            organization_name=self.organization_name,
            sources=self.sources,
            now=self.now,
            language=self.language,
        )


@dataclass(frozen=True)
class EditResult:
    """The outcome of an iteration message: new Markdown (None: unchanged) and a reply."""

    markdown: str | None
    reply: str
    tool_events: tuple[dict[str, str], ...] = ()


class Provider(Protocol):
    name: str

    def write_document(self, request: WritingRequest, on_chunk: ChunkCallback | None = None) -> str:
        """The whole document as Markdown."""
        ...

    def edit_document(
        self,
        markdown: str,
        message: str,
        request: WritingRequest,
        on_chunk: ChunkCallback | None = None,
    ) -> EditResult:
        """Apply an iteration message to the Markdown."""
        ...
