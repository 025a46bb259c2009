"""A piece of a file's text, as every reader yields it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Segment:
    """A piece of extracted text and where it came from ("page 3", "sheet Revenue", or None).

    Consecutive segments with the same location are one continuous text: extractors end a
    segment at a natural boundary (newline) so that joining them needs no separator.
    """

    text: str
    location: str | None = None
    # A page recognised by OCR (formats/ocr.py): Tesseract's mean word confidence (0-1) and
    # the number of words it is the mean of; None and 0 for text the file holds as text.
    ocr_confidence: float | None = None
    ocr_words: int = 0
