"""The `openai` provider: LangChain's ChatOpenAI writes each section's narrative.

The template skeleton fixes the structure: the model rewrites the body of each section and
must keep every heading line. Whatever it drops is put back from the template text by
`ensure_checklist`, so a model can never remove a legally required item. Any
OpenAI-compatible endpoint works (OPENAI_BASE_URL).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from django.conf import settings

from gdpr.composition import document_skeleton, ensure_checklist
from gdpr.composition.markdown import MARKER_WORDS
from gdpr.composition.register import is_register_inputs
from gdpr.composition.skeleton import SectionDraft
from gdpr.i18n.detect import foreign_sentences, sentences, without_values
from legal_documents.providers.base import (
    ChunkCallback,
    EditResult,
    ProviderError,
    TransientProviderError,
    WritingRequest,
)

logger = logging.getLogger(__name__)

WRITER_INSTRUCTIONS = """You are an experienced EU data protection lawyer writing a GDPR \
document for a Data Protection Officer. You receive one section of the document in \
Markdown. Rewrite it as polished, precise, professional prose, grounded only in the facts \
given in the section and in the organization's sources. Rules:
- Write in {language_name} only: the whole section, in the legal register of that language.
- Use the terms of the {language_name} version of the GDPR as the section does (do not \
replace them with synonyms) and cite articles as the section cites them.
- Keep every heading line exactly as given (same level, same text), in the same order.
- Keep every fact, figure, date, deadline and article reference; invent no facts.
- Keep every "**[{marker}]**" marker where information is missing.
- Keep tables as Markdown tables. Answer with the Markdown of the section only."""

REWRITE_REQUEST = """Parts of your answer are not written in {language_name}:
{sentences}
Rewrite the whole section in {language_name}, with the same rules. Names, quotations and \
values given by the organization stay as they are."""

EDITOR_INSTRUCTIONS = """You are an experienced EU data protection lawyer editing a GDPR \
document in Markdown for a Data Protection Officer. The document is written in \
{language_name}: write every text you add or change in {language_name}. Apply the requested \
change and return the whole document in Markdown. Keep every heading line of a legally \
required item, and every fact you were not asked to change. Answer with the Markdown only."""

# The language names the model is told (in English, which every model follows best).
LANGUAGE_NAMES = {
    "en": "English",
    "de": "German",
    "fr": "French",
    "es": "Spanish",
    "it": "Italian",
}


def transient_errors() -> tuple[type[BaseException], ...]:
    """The errors of an OpenAI-compatible endpoint that may clear on another try."""
    import httpx
    import openai

    return (
        openai.APITimeoutError,
        openai.APIConnectionError,
        openai.RateLimitError,
        openai.InternalServerError,
        httpx.TimeoutException,
        httpx.TransportError,
    )


class OpenAIProvider:
    name = "openai"

    def __init__(self, *, model: str, api_key: str, base_url: str | None, timeout: float) -> None:
        self.model = model
        self.api_key = api_key
        self.base_url = base_url
        self.timeout = timeout

    @classmethod
    def from_settings(cls) -> OpenAIProvider:
        return cls(
            model=settings.LLM_MODEL,
            api_key=settings.OPENAI_API_KEY or "",
            base_url=settings.OPENAI_BASE_URL,
            timeout=settings.LLM_TIMEOUT_SECONDS,
        )

    def _chat(self) -> Any:
        from langchain_openai import ChatOpenAI

        return ChatOpenAI(
            model=self.model,
            api_key=self.api_key,
            base_url=self.base_url,
            timeout=self.timeout,
            max_retries=0,  # Celery retries the whole job with backoff
            streaming=True,
            temperature=0.2,
        )

    def _stream(self, messages: list[tuple[str, str]], on_chunk: ChunkCallback | None) -> str:
        import openai

        pieces: list[str] = []
        try:
            for chunk in self._chat().stream(messages):
                text = chunk.content if isinstance(chunk.content, str) else ""
                if text:
                    pieces.append(text)
                    if on_chunk is not None:
                        on_chunk(text)
        except transient_errors() as error:
            raise TransientProviderError(
                "PROVIDER_UNAVAILABLE", f"Language model: {error}"
            ) from error
        except openai.OpenAIError as error:
            raise ProviderError("PROVIDER_ERROR", f"Language model refused: {error}") from error
        return "".join(pieces)

    def write_document(self, request: WritingRequest, on_chunk: ChunkCallback | None = None) -> str:
        if is_register_inputs(request.inputs):
            # A whole register is a table of facts per activity, not prose to rewrite: the
            # template writes it (one model call per activity would add nothing but cost).
            return request.template_markdown()
        skeleton = document_skeleton(
            request.document_type,
            request.inputs,
            request.answers,
            request.finalize_answers,
            organization_name=request.organization_name,
            sources=request.sources,
            now=request.now,
            language=request.language,
        )
        written = [skeleton.front_matter]
        for section in skeleton.sections:
            written.append(self._write_section(section, request, on_chunk))
            if on_chunk is not None:
                on_chunk("\n\n")
        if skeleton.annex:
            written.append(skeleton.annex)
        markdown = "\n\n".join(part.strip() for part in written if part.strip()) + "\n"
        return ensure_checklist(
            document_type=request.document_type,
            markdown=markdown,
            fallback_markdown=skeleton.markdown,
        )

    def _write_section(
        self, section: SectionDraft, request: WritingRequest, on_chunk: ChunkCallback | None
    ) -> str:
        """The model's section, checked for its language: asked once more, then the template's.

        A sentence counts as foreign when the function words of another language dominate
        it (`gdpr.i18n.detect`), leaving out the organization's own values and the
        template's sentences (both may be in any language).
        """
        messages = self._section_messages(section, request)
        text = self._stream(messages, on_chunk)
        foreign = _foreign_sentences(text, section, request)
        if foreign:
            language_name = LANGUAGE_NAMES[request.language]
            rewrite = REWRITE_REQUEST.format(
                language_name=language_name,
                sentences="\n".join(f"- {sentence}" for sentence in foreign[:10]),
            )
            text = self._stream([*messages, ("assistant", text), ("user", rewrite)], on_chunk)
            if _foreign_sentences(text, section, request):
                logger.warning(
                    "section %s not written in %s after a rewrite: template text kept",
                    section.id,
                    request.language,
                )
                return section.markdown
        return _keep_section_heading(section, text)

    def edit_document(
        self,
        markdown: str,
        message: str,
        request: WritingRequest,
        on_chunk: ChunkCallback | None = None,
    ) -> EditResult:
        edited = self._stream(
            [
                (
                    "system",
                    EDITOR_INSTRUCTIONS.format(language_name=LANGUAGE_NAMES[request.language]),
                ),
                ("user", f"{markdown}\n\n---\nRequested change: {message}"),
            ],
            on_chunk,
        )
        if not edited.strip():
            return EditResult(
                markdown=None, reply="The language model returned no text; nothing changed."
            )
        return EditResult(markdown=edited.strip() + "\n", reply="Applied the requested change.")

    @staticmethod
    def _section_messages(section: SectionDraft, request: WritingRequest) -> list[tuple[str, str]]:
        sources = "\n".join(_source_lines(request))
        user = section.markdown
        if sources:
            user += f"\n\n---\nSources of the organization (cite by file name):\n{sources}"
        instructions = WRITER_INSTRUCTIONS.format(
            language_name=LANGUAGE_NAMES[request.language],
            marker=MARKER_WORDS[request.language],
        )
        return [("system", instructions), ("user", user)]


def _source_lines(request: WritingRequest) -> Iterable[str]:
    for source in request.sources:
        yield f"- {source.file_name}: {source.excerpt}"


def _user_values(value: Any) -> Iterable[str]:
    if isinstance(value, Mapping):
        for part in value.values():
            yield from _user_values(part)
    elif isinstance(value, list | tuple):
        for part in value:
            yield from _user_values(part)
    elif isinstance(value, str):
        yield value


def _foreign_sentences(text: str, section: SectionDraft, request: WritingRequest) -> list[str]:
    """The sentences of `text` in another language than the document's."""
    values = [
        *_user_values(request.inputs),
        *_user_values(request.answers),
        *_user_values(request.finalize_answers),
        request.organization_name or "",
        *(source.file_name for source in request.sources),
        *(source.excerpt for source in request.sources),
    ]
    template = set(sentences(without_values(section.markdown, values)))
    return [
        sentence
        for sentence, _language in foreign_sentences(without_values(text, values), request.language)
        if sentence not in template
    ]


def _keep_section_heading(section: SectionDraft, text: str) -> str:
    """A model that dropped the section heading gets it back (the items are checked later)."""
    if section.heading.strip() not in text:
        return f"{section.heading}\n\n{text.strip()}"
    return text.strip()
