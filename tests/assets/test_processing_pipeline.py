"""The ingestion pipeline end to end: batches of embedded chunks, bounded memory, hashing."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from assets.processing import ExtractionFailed, FileKind, process_file, sha256_of_file
from assets.processing.embeddings import HashingEmbeddingProvider

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "fixtures" / "corpus"


def test_it_yields_batches_of_embedded_chunks_in_index_order() -> None:
    embedder = HashingEmbeddingProvider()

    batches = list(
        process_file(
            CORPUS / "txt" / "norwich-city.txt",
            FileKind.TXT,
            embedder=embedder,
            chunk_size=500,
            chunk_overlap=50,
            batch_size=16,
        )
    )

    chunks = [chunk for batch in batches for chunk in batch]
    assert all(len(batch) <= 16 for batch in batches) and len(batches) > 2
    assert [c.index for c in chunks] == list(range(len(chunks)))
    assert all(len(c.embedding) == 384 for c in chunks)
    assert any("Iwan Roberts" in c.text for c in chunks)


def test_it_carries_page_locations_through_to_the_embedded_chunks() -> None:
    batches = process_file(
        CORPUS / "pdf" / "pdflatex-4-pages.pdf",
        FileKind.PDF,
        embedder=HashingEmbeddingProvider(),
        chunk_size=1000,
        chunk_overlap=150,
    )

    locations = {chunk.location for batch in batches for chunk in batch}

    assert locations == {"page 1", "page 2", "page 3", "page 4"}


def test_it_fails_an_empty_file_after_yielding_nothing() -> None:
    batches = process_file(
        CORPUS / "hostile" / "empty.txt",
        FileKind.TXT,
        embedder=HashingEmbeddingProvider(),
        chunk_size=1000,
        chunk_overlap=150,
    )

    with pytest.raises(ExtractionFailed, match="no text found"):
        next(batches)


def test_it_refuses_an_embedder_that_returns_the_wrong_dimension() -> None:
    class Broken(HashingEmbeddingProvider):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return [[0.0] * 3 for _ in texts]

    with pytest.raises(ValueError, match="wrong shape"):
        list(
            process_file(
                CORPUS / "txt" / "fake-text.txt",
                FileKind.TXT,
                embedder=Broken(),
                chunk_size=1000,
                chunk_overlap=150,
            )
        )


def test_sha256_of_file_matches_hashlib_over_the_whole_file() -> None:
    path = CORPUS / "pptx" / "science-exploration-1p.pptx"

    assert sha256_of_file(path) == hashlib.sha256(path.read_bytes()).hexdigest()


_MEMORY_PROBE = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path
    from assets.processing import FileKind, process_file
    from assets.processing.embeddings import HashingEmbeddingProvider

    def rss_mb():
        # VmHWM, not ru_maxrss: Linux carries the parent's ru_maxrss across fork+exec.
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        raise RuntimeError("no VmHWM")

    embedder = HashingEmbeddingProvider()
    embedder.embed_documents(["warm up the imports"])
    baseline = rss_mb()
    chunks = characters = 0
    for batch in process_file(Path(sys.argv[1]), FileKind.CSV, embedder=embedder,
                              chunk_size=1000, chunk_overlap=150):
        chunks += len(batch)
        characters += sum(len(chunk.text) for chunk in batch)
    print(json.dumps({"baseline_mb": baseline, "peak_mb": rss_mb(), "chunks": chunks,
                      "characters": characters}))
    """
)


def _write_csv(path: Path, target_bytes: int) -> None:
    """A CSV of varied rows (distinct numbers and ids, so no two blocks are alike)."""
    with path.open("w", encoding="utf-8") as handle:
        handle.write("id,customer,sector,amount,note\n")
        row = 0
        written = 0
        while written < target_bytes:
            lines = [
                f"{i},Customer {i * 7919 % 100003},Sector {i % 37},{i * 31 % 99991}.{i % 100},"
                f"contract clause {i % 613} reviewed by processor {i % 89}\n"
                for i in range(row, row + 10_000)
            ]
            block = "".join(lines)
            handle.write(block)
            written += len(block)
            row += 10_000


@pytest.mark.load  # 100 MB end to end: `make test` runs it, `make test-fast` does not
@pytest.mark.timeout(240)
def test_a_100_mb_csv_is_processed_end_to_end_in_bounded_memory(tmp_path: Path) -> None:
    path = tmp_path / "large.csv"
    _write_csv(path, 100 * 1024 * 1024)

    output = subprocess.run(
        [sys.executable, "-c", _MEMORY_PROBE, str(path)],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    result = json.loads(output.stdout)

    assert result["characters"] >= path.stat().st_size  # overlap only adds
    assert result["chunks"] > 100_000
    assert result["peak_mb"] - result["baseline_mb"] < 300, result
