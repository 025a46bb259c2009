"""HTML: text content, converted to its visible text (the converted file is that text).

Parsed incrementally with the standard library's tolerant parser (no network, no entity
resolution beyond HTML's named character references). Kept: text, with headings,
paragraphs, list items ("- item") and table rows ("cell | cell") on their own lines and
<pre> whitespace preserved. Dropped: <script>, <style>, <noscript>, <template>, <nav>,
<svg>, <iframe>, <object>, <button>, <select>, <head> except <title>. The encoding comes from
a BOM, else valid UTF-8, else the declared charset, else detection (see encoding.py).

Every failure raises ConversionFailed(original_format="html", target_format="txt").
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import IO

from formats.encoding import iter_decoded_blocks
from formats.errors import ConversionFailed, short_error
from formats.kinds import FileKind
from formats.limits import ReadLimits
from formats.registry import Conversion, Format
from formats.segments import Segment

_DROPPED_TAGS = frozenset(
    {
        "script",
        "style",
        "noscript",
        "template",
        "nav",
        "svg",
        "iframe",
        "object",
        "button",
        "select",
        "head",
        "math",
        "canvas",
    }
)
_BLOCK_TAGS = frozenset(
    {
        "p",
        "div",
        "section",
        "article",
        "header",
        "footer",
        "main",
        "aside",
        "blockquote",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "ul",
        "ol",
        "li",
        "dl",
        "dt",
        "dd",
        "table",
        "tr",
        "thead",
        "tbody",
        "tfoot",
        "caption",
        "pre",
        "br",
        "hr",
        "form",
        "fieldset",
        "figure",
        "figcaption",
        "address",
        "body",
        "html",
        "title",
    }
)
_CELL_TAGS = frozenset({"td", "th"})
_VOID_TAGS = frozenset(
    {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "source",
        "track",
        "wbr",
    }
)


class _TextExtractor(HTMLParser):
    """Collects visible text as lines; ``pop_text`` hands back what is complete so far."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self._lines: list[str] = []
        self._current: list[str] = []
        self._skip_depth = 0
        self._pre_depth = 0
        self._in_title = False
        self._row_has_cell = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _VOID_TAGS:
            if tag == "br" and not self._skip_depth:
                self._end_line()
            return
        if tag == "title":
            self._in_title = True
        if tag in _DROPPED_TAGS:
            self._skip_depth += 1
            return
        if self._skip_depth:
            return
        if tag in _BLOCK_TAGS:
            self._end_line()
            if tag == "li":
                self._current.append("- ")
            elif tag == "tr":
                self._row_has_cell = False
        elif tag in _CELL_TAGS:
            if self._row_has_cell:
                self._current.append(" | ")
            self._row_has_cell = True
        if tag == "pre":
            self._pre_depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        if tag in _DROPPED_TAGS:
            self._skip_depth = max(0, self._skip_depth - 1)
            return
        if self._skip_depth:
            return
        if tag == "pre":
            self._pre_depth = max(0, self._pre_depth - 1)
        if tag in _BLOCK_TAGS:
            self._end_line()

    def handle_data(self, data: str) -> None:
        # <title> sits inside the dropped <head> but names the page: keep it.
        if self._skip_depth and not (self._in_title and self._skip_depth == 1):
            return
        if self._pre_depth:
            lines = data.split("\n")
            for line in lines[:-1]:
                self._current.append(line)
                self._end_line(preformatted=True)
            self._current.append(lines[-1])
        else:
            self._current.append(data)

    def _end_line(self, *, preformatted: bool = False) -> None:
        raw = "".join(self._current)
        self._current = []
        line = raw.rstrip() if preformatted else " ".join(raw.split())
        if line and line not in ("-", "- ", "|"):
            self._lines.append(line)
        elif preformatted and self._lines and self._lines[-1] != "":
            self._lines.append("")

    def pop_text(self) -> str:
        text = "\n".join(self._lines)
        self._lines = []
        return text + "\n" if text else ""

    def finish(self) -> str:
        self.close()
        self._end_line()
        return self.pop_text()


def iter_html_text(path: Path) -> Iterator[str]:
    """Yield the visible text of an HTML file in pieces, reading the file in blocks.

    Each piece ends with a newline. Raises ConversionFailed(original_format="html",
    target_format="txt") if the file cannot be decoded or parsed.
    """
    parser = _TextExtractor()
    try:
        for block in iter_decoded_blocks(path, html=True):
            parser.feed(block)
            text = parser.pop_text()
            if text:
                yield text
        text = parser.finish()
    except (OSError, LookupError, AssertionError, ValueError) as error:
        raise ConversionFailed(
            f"HTML could not be converted to text: {short_error(error)}",
            original_format="html",
            target_format="txt",
        ) from error
    if text:
        yield text


def convert_html_to_text(source: Path, destination: Path) -> None:
    """Write the visible text of ``source`` to ``destination`` (UTF-8). Raises ConversionFailed."""
    with destination.open("w", encoding="utf-8") as output:
        for piece in iter_html_text(source):
            output.write(piece)


def _read(path: Path, limits: ReadLimits) -> Iterator[Segment]:
    for text in iter_html_text(path):
        yield Segment(text, None)


def write_text(segments: Iterable[Segment], output: IO[str]) -> Iterator[Segment]:
    """Pass segments on while writing their text as the converted file."""
    for segment in segments:
        output.write(segment.text)
        yield segment


FORMATS = (
    Format(
        kind=FileKind.HTML,
        media_type="text/html",
        other_media_types=frozenset({"application/xhtml+xml"}),
        extensions=(".html", ".htm"),
        text_content=True,
        read=_read,
        conversion=Conversion(target="txt", write=write_text),
    ),
)
