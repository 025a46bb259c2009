"""Chunking: bounded sizes, overlap, locations respected, no seams between streamed blocks."""

from __future__ import annotations

import itertools

import pytest

from assets.processing import Segment, chunk_segments


def _words(count: int, prefix: str = "word") -> str:
    return " ".join(f"{prefix}{i}" for i in range(count))


def test_it_keeps_every_chunk_within_the_size_and_numbers_them_in_order() -> None:
    chunks = list(chunk_segments([Segment(_words(2000), None)], size=300, overlap=50))

    assert len(chunks) > 10
    assert all(len(chunk.text) <= 300 for chunk in chunks)
    assert [chunk.index for chunk in chunks] == list(range(len(chunks)))


def test_it_overlaps_neighbouring_chunks() -> None:
    chunks = list(chunk_segments([Segment(_words(500), None)], size=200, overlap=60))

    for previous, current in itertools.pairwise(chunks):
        assert previous.text.split()[-1] in current.text.split()


def test_it_never_lets_a_chunk_span_two_pages() -> None:
    segments = [Segment(_words(300, f"p{n}w"), f"page {n}") for n in (1, 2, 3)]

    chunks = list(chunk_segments(segments, size=250, overlap=40))

    for chunk in chunks:
        page = chunk.location.split()[-1]  # type: ignore[union-attr]
        assert all(word.startswith(f"p{page}w") for word in chunk.text.split())
    assert {chunk.location for chunk in chunks} == {"page 1", "page 2", "page 3"}


def test_it_joins_streamed_blocks_of_one_text_without_splitting_or_gluing_words() -> None:
    text = _words(3000)
    blocks = [text[i : i + 777] for i in range(0, len(text), 777)]  # cut mid-word

    chunks = list(chunk_segments([Segment(b, None) for b in blocks], size=400, overlap=0))

    words = " ".join(chunk.text for chunk in chunks).split()
    assert words == text.split()


def test_it_loses_no_text_at_a_block_edge_that_falls_on_whitespace() -> None:
    blocks = [Segment("alpha beta \n", None), Segment("gamma delta", None)]

    chunks = list(chunk_segments(blocks, size=1000, overlap=0))

    assert [chunk.text.split() for chunk in chunks] == [["alpha", "beta", "gamma", "delta"]]


def test_it_yields_nothing_for_whitespace_only_segments() -> None:
    assert list(chunk_segments([Segment("  \n\n ", None), Segment("\t", "page 1")])) == []


def test_it_is_lazy_over_its_input() -> None:
    def endless():
        while True:
            yield Segment(_words(200) + "\n", None)

    chunks = chunk_segments(endless(), size=500, overlap=50)

    assert [next(chunks).index for _ in range(5)] == [0, 1, 2, 3, 4]


@pytest.mark.parametrize(("size", "overlap"), [(0, 0), (100, 100), (100, -1)])
def test_it_rejects_nonsensical_sizes(size: int, overlap: int) -> None:
    with pytest.raises(ValueError, match="invalid chunking"):
        list(chunk_segments([Segment("text", None)], size=size, overlap=overlap))
