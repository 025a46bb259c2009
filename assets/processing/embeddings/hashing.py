"""Lexical feature-hashing embeddings: deterministic, offline, no model, no dependencies
beyond numpy.

Word unigrams and bigrams (lower-cased ``\\w+`` tokens, common English function words
left out) are hashed with CRC-32 (stable across processes, unlike ``hash()``) into
``dimensions`` signed buckets; counts are damped with log1p so that one repeated word cannot
dominate, and the vector is L2-normalised. Bigrams make a phrase query rank the chunk
containing the phrase above chunks that merely share its words. Without corpus statistics
there is no IDF, so two cheap proxies stand in for it: longer words weigh more (up to 2x)
and bare numbers weigh 0.3, which keeps number-heavy CSV chunks from matching everything.

Limits, measured on the test corpus: with only 384 buckets a ~1000-character chunk fills
most of them, so ranking is reliable within a document or a small collection, less so over
thousands of chunks (see tests/assets/test_embeddings_hashing.py). A text without any word
gets the zero vector. Lexical only: no synonyms, no cross-language matching; for tests and
as the last-resort provider.
"""

from __future__ import annotations

import re
import zlib

import numpy as np

from assets.processing.embeddings.base import DEFAULT_DIMENSIONS, EmbeddingProvider

_TOKEN = re.compile(r"\w+")
_STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "for",
        "from",
        "has",
        "have",
        "in",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "that",
        "the",
        "this",
        "to",
        "was",
        "were",
        "will",
        "with",
        "not",
        "but",
        "which",
        "their",
        "they",
        "there",
        "these",
        "those",
        "than",
        "then",
        "so",
        "such",
    ]
)
_NUMBER_WEIGHT = 0.3
# Bounded so that a 100 MB file of unique ids cannot grow it without limit (~15 MB full).
_CACHE_LIMIT = 100_000
_MASK = np.uint64(0xFFFFFFFF)
# Weight per class: 0 left out, 1 a bare number, 2..12 a word of that length (len / 6).
_CLASS_WEIGHTS = np.array([0.0, _NUMBER_WEIGHT] + [n / 6.0 for n in range(2, 13)])


def _mix(values: np.ndarray) -> np.ndarray:
    """A 32-bit integer finaliser (murmur3 fmix32) so bucket and sign bits are independent."""
    values = values & _MASK
    values ^= values >> np.uint64(16)
    values = (values * np.uint64(0x85EBCA6B)) & _MASK
    values ^= values >> np.uint64(13)
    values = (values * np.uint64(0xC2B2AE35)) & _MASK
    values ^= values >> np.uint64(16)
    return values


class HashingEmbeddingProvider(EmbeddingProvider):
    """Feature hashing of word unigrams + bigrams into ``dimensions`` L2-normalised floats."""

    # Vectorised per batch, so a batch costs little more than its texts; an ingestion's
    # per-batch work (a COPY, a commit, the lease check, progress) was a third of its time
    # at 64 (bench/bench_storing.py).
    preferred_batch_size = 256

    def __init__(self, dimensions: int = DEFAULT_DIMENSIONS) -> None:
        if dimensions <= 0:
            raise ValueError("dimensions must be positive")
        self.name = f"hashing-v1-{dimensions}"
        self.dimensions = dimensions
        self._token_cache: dict[str, int] = {}

    def _token_code(self, token: str) -> int:
        # hash << 4 | weight class, so one dict lookup per token (via C-level map()) gives
        # both; class 0 = left out, 1 = number, 2..12 = word length.
        if token in _STOPWORDS:
            weight_class = 0
        elif token.isdigit():
            weight_class = 1
        else:
            weight_class = max(2, min(len(token), 12))
        return zlib.crc32(token.encode("utf-8")) << 4 | weight_class

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self._embed(texts).tolist()

    def _embed(self, texts: list[str]) -> np.ndarray:
        dims = self.dimensions
        cache = self._token_cache
        codes: list[int] = []
        lengths: list[int] = []
        for text in texts:
            tokens = _TOKEN.findall(text.lower())
            missing = set(tokens).difference(cache)
            if missing:
                if len(cache) + len(missing) > _CACHE_LIMIT:
                    cache.clear()
                    missing = set(tokens)
                for token in missing:
                    cache[token] = self._token_code(token)
            codes.extend(map(cache.__getitem__, tokens))
            lengths.append(len(tokens))
        counts = np.zeros((len(texts), dims), dtype=np.float64)
        if codes:
            code_array = np.asarray(codes, dtype=np.uint64)
            doc_ids = np.repeat(np.arange(len(texts), dtype=np.int64), lengths)
            weight_class = (code_array & np.uint64(15)).astype(np.int64)
            kept = weight_class > 0
            token_hashes = (code_array >> np.uint64(4))[kept]
            token_weights = _CLASS_WEIGHTS[weight_class[kept]]
            doc_ids = doc_ids[kept]
            # Bigrams: neighbours (function words left out) within the same text only.
            same_doc = doc_ids[:-1] == doc_ids[1:]
            bigram_hashes = (token_hashes[:-1] * np.uint64(0x9E3779B1) + token_hashes[1:] + 1)[
                same_doc
            ]
            bigram_weights = ((token_weights[:-1] + token_weights[1:]) / 2)[same_doc]
            all_hashes = _mix(np.concatenate([token_hashes, bigram_hashes]))
            all_weights = np.concatenate([token_weights, bigram_weights])
            all_docs = np.concatenate([doc_ids, doc_ids[:-1][same_doc]])
            buckets = (all_hashes % np.uint64(dims)).astype(np.int64)
            signs = np.where((all_hashes >> np.uint64(31)) & np.uint64(1), -1.0, 1.0)
            flat = np.bincount(
                all_docs * dims + buckets, weights=signs * all_weights, minlength=len(texts) * dims
            )
            counts = flat.reshape(len(texts), dims)
        vectors = np.sign(counts) * np.log1p(np.abs(counts))
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        np.divide(vectors, norms, out=vectors, where=norms > 0)
        return vectors
