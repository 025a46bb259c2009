"""The ``openai`` provider: LangChain's OpenAIEmbeddings against any OpenAI-compatible API."""

from __future__ import annotations

from typing import Any

from assets.processing.embeddings.base import DEFAULT_DIMENSIONS, EmbeddingProvider

DEFAULT_MODEL = "text-embedding-3-small"


class OpenAIEmbeddingProvider(EmbeddingProvider):
    """Embeds through ``OpenAIEmbeddings(model, dimensions, base_url, api_key)``.

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
            api_key=api_key,  # type: ignore[arg-type]  # None: read OPENAI_API_KEY
            base_url=base_url,
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
