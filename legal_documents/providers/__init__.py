"""Provider selection: `template` unless a language model is configured (see README)."""

from __future__ import annotations

from django.conf import settings

from legal_documents.providers.base import (
    ChunkCallback,
    EditResult,
    Provider,
    ProviderError,
    TransientProviderError,
    WritingRequest,
)


def get_provider(name: str | None = None) -> Provider:
    """The provider `name`, or the configured one (GENERATION_PROVIDER)."""
    chosen = name or settings.GENERATION_PROVIDER
    if chosen == "openai":
        from legal_documents.providers.openai import OpenAIProvider

        return OpenAIProvider.from_settings()
    from legal_documents.providers.template import TemplateProvider

    return TemplateProvider()


__all__ = [
    "ChunkCallback",
    "EditResult",
    "Provider",
    "ProviderError",
    "TransientProviderError",
    "WritingRequest",
    "get_provider",
]
