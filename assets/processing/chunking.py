"""Streaming chunking of extracted segments with LangChain's RecursiveCharacterTextSplitter.

Consecutive segments with the same location are chunked as one continuous text: the last
(possibly short) chunk of a segment is carried into the next one instead of being emitted,
so block boundaries of streamed files leave no seams. A new location flushes the carry, so
a chunk never spans two pages, slides or sheets. Memory holds one segment plus one chunk.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from langchain_text_splitters import RecursiveCharacterTextSplitter

from assets.processing.datatypes import Chunk
from formats.segments import Segment

DEFAULT_CHUNK_SIZE = 1000
DEFAULT_CHUNK_OVERLAP = 150


def chunk_segments(
    segments: Iterable[Segment],
    *,
    size: int = DEFAULT_CHUNK_SIZE,
    overlap: int = DEFAULT_CHUNK_OVERLAP,
) -> Iterator[Chunk]:
    """Yield chunks of at most ``size`` characters with ``overlap`` between neighbours.

    Indexes count from 0. Raises ValueError for a non-positive size or an overlap that is
    negative or not smaller than the size. Exceptions from ``segments`` propagate.
    """
    if size <= 0 or overlap < 0 or overlap >= size:
        raise ValueError(f"invalid chunking: size={size}, overlap={overlap}")
    splitter = RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=overlap)
    index = 0
    carry = ""
    carry_location: str | None = None
    for segment in segments:
        if segment.location != carry_location:
            if carry.strip():
                yield Chunk(index, carry.strip(), carry_location)
                index += 1
            carry = ""
            carry_location = segment.location
        text = carry + segment.text
        pieces = splitter.split_text(text)
        if not pieces:
            carry = ""
            continue
        for piece in pieces[:-1]:
            yield Chunk(index, piece, carry_location)
            index += 1
        # The last piece ends where the text ends (less the whitespace the splitter
        # strips); keep that whitespace so the next block does not glue two words.
        carry = pieces[-1] + text[len(text.rstrip()) :]
    if carry.strip():
        yield Chunk(index, carry.strip(), carry_location)
