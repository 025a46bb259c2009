"""The ``openai`` provider: LangChain's OpenAIEmbeddings against any OpenAI-compatible API."""

from __future__ import annotations

from typing import Any

from assets.processing.embeddings.base import DEFAULT_DIMENSIONS, EmbeddingProvider

DEFAULT_MODEL = "text-embedding-3-small"
OPENAI_API_URL = "https://api.openai.com/v1"
# Sent when no key is configured (the client refuses to start without one): a local server
# without authentication accepts it, OpenAI's API answers 401.
NO_KEY = "no-key"


class OpenAIEmbeddingProvider(EmbeddingProvider):
    """Embeds through ``OpenAIEmbeddings(model, dimensions, base_url, api_key)``.

    ``base_url`` None or empty: OpenAI's API.

    ``dimensions`` is sent to the API (text-embedding-3 models shorten their vectors to it),
    so vectors fit the shared column. Network and API errors propagate unchanged for the
    task to retry; the client itself retries ``max_retries`` times first.
    """

    def __init__(
        self,
        *,
        dimensions: int = DEFAULT_DIMENSIONS,
        model: str = DEFAULT_MODEL,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float = 60.0,
        max_retries: int = 2,
        **extra: Any,
    ) -> None:
        from langchain_openai import OpenAIEmbeddings

        self.name = f"openai:{model}:{dimensions}"
        self.dimensions = dimensions
        self._client = OpenAIEmbeddings(
            model=model,
            dimensions=dimensions,
            # Given explicitly, never read from the environment: OPENAI_API_KEY and
            # OPENAI_BASE_URL there are generation's (a server without keys takes any).
            api_key=api_key or NO_KEY,  # type: ignore[arg-type]
            base_url=base_url or OPENAI_API_URL,
            timeout=timeout,
            max_retries=max_retries,
            # Compatible servers rarely accept pre-tokenized input; send plain strings.
            check_embedding_ctx_length=False,
            **extra,
        )

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        return self._client.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self._client.embed_query(text)
