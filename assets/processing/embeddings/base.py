"""The embedding provider interface shared by every backend."""

from __future__ import annotations

from abc import ABC, abstractmethod

DEFAULT_DIMENSIONS = 384


class EmbeddingProvider(ABC):
    """Turns texts into fixed-length vectors; all providers of a deployment share one size.

    ``name`` is stored with each vector (re-embed when it changes); ``dimensions`` must
    equal the database column's size. Vectors are L2-normalised, so cosine similarity is a
    dot product. Provider errors (network, rate limits) propagate unchanged so that the
    Celery task can retry transient ones.
    """

    name: str
    dimensions: int
    # How many texts an ingestion hands to the model at once (assets.ingestion): a local
    # model on a CPU is fastest with small batches; a remote server on a GPU wants large
    # ones, and several in flight (the ``openai`` provider raises it).
    preferred_batch_size: int = 64

    @abstractmethod
    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """One vector per text, in order."""

    def embed_query(self, text: str) -> list[float]:
        """The vector of a search query (same space as the documents)."""
        return self.embed_documents([text])[0]
