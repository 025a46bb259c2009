"""What an asset records of OCR: the pages recognised and Tesseract's confidence in them.

The extraction child reads a scanned PDF's pictures of pages with OCR (formats/ocr.py) and
each recognised page's segment carries its mean word confidence and word count;
:class:`OcrTally` counts them as the segments stream past, so nothing is held or read twice.
The asset's confidence is the mean over every recognised word (a page of three words weighs
less than a page of three hundred). Nothing here imports Django.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from formats.segments import Segment


@dataclass(slots=True)
class OcrTally:
    """The recognised pages among the segments passed through :meth:`counted`."""

    languages: tuple[str, ...]
    pages: int = 0
    words: int = 0
    confidence_sum: float = 0.0

    def counted(self, segments: Iterable[Segment]) -> Iterator[Segment]:
        """Yield ``segments`` unchanged, counting the recognised ones."""
        for segment in segments:
            if segment.ocr_confidence is not None:
                self.pages += 1
                self.words += segment.ocr_words
                self.confidence_sum += segment.ocr_confidence * segment.ocr_words
            yield segment

    def summary(self) -> dict[str, Any] | None:
        """What the asset records (``Asset.ocr``): None when no page was recognised."""
        if self.pages == 0:
            return None
        confidence = self.confidence_sum / self.words if self.words else None
        return {
            "applied": True,
            "confidence": None if confidence is None else round(confidence, 3),
            "languages": list(self.languages),
            "pages": self.pages,
        }
