"""Markdown building blocks: escaping user text, the item heading convention, the marker.

The completeness convention (see `completeness.py`) rests on two things defined here:
- every checklist item has its own heading ending with the anchor `{#item-id}`, e.g.
  `### Purposes of the processing (Art. 30(1)(b)) {#b-purposes}`;
- an item that cannot be written from the inputs carries TO_BE_COMPLETED followed by what
  is needed. User text is escaped, so it can neither fake an anchor nor the marker.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from gdpr.i18n import current_language

TO_BE_COMPLETED = "**[To be completed]**"
# The marker in each language. Fixed here, not in the catalogs: completeness must recognise
# a marker in every language whatever a translator writes.
MARKER_WORDS = {
    "en": "To be completed",
    "de": "Zu ergänzen",
    "fr": "À compléter",
    "es": "Por completar",
    "it": "Da completare",
}
# Detection is looser than the marker itself, so that an editor dropping the bold still counts,
# and accepts every language's marker (a document edited in another language stays checked).
MARKER_PATTERN = re.compile(
    r"(?<!\\)\[(?:" + "|".join(re.escape(word) for word in MARKER_WORDS.values()) + r")\]",
    re.IGNORECASE,
)
ITEM_HEADING_LEVEL = 3
ANCHOR_PATTERN = re.compile(r"\s*\{#([a-z0-9][a-z0-9-]*)\}\s*$")
HEADING_PATTERN = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t#]*$")

# Characters with a Markdown or HTML meaning anywhere in a line (CommonMark lets every ASCII
# punctuation character be backslash-escaped, so escaping is always safe).
_INLINE_SPECIAL = re.compile(r"([\\`*_{}\[\]<>#|~&])")
# Whitespace folded to one space in a line: all of it but the no-break spaces.
_FOLDED_SPACE = re.compile(r"[^\S\u00a0\u202f]+")
# Characters that start a block only at the beginning of a line. An ordered list marker is
# digits, "." or ")" and then a space (or the end): "28.02.2026" starts no list.
_LINE_START_BLOCK = re.compile(r"^(\s*)([-+=>]|\d{1,9}(?=[.)](?:\s|$)))")


def escape_inline(value: object) -> str:
    """User text as one inert line: newlines folded, Markdown/HTML punctuation escaped."""
    # No-break spaces stay: French typography puts them before ":" and ";" (and in numbers).
    text = _FOLDED_SPACE.sub(" ", str(value)).strip(" ")
    text = _INLINE_SPECIAL.sub(r"\\\1", text)
    # A leading "-", "+" or "1." would turn a table cell or list item into a nested block.
    # CommonMark escapes punctuation only: "1\." is inert, while "\1." shows the backslash.
    return _LINE_START_BLOCK.sub(_inert_line_start, text)


def _inert_line_start(match: re.Match[str]) -> str:
    indent, start = match.group(1), match.group(2)
    if start.isdigit():
        return indent + start + "\\"  # the backslash lands before the following "." or ")"
    return indent + "\\" + start


def escape_block(value: object) -> str:
    """User text as inert paragraphs: blank lines kept as paragraph breaks, lines escaped."""
    paragraphs = re.split(r"\n\s*\n", str(value).replace("\r\n", "\n").strip())
    escaped = []
    for paragraph in paragraphs:
        lines = [escape_inline(line) for line in paragraph.split("\n") if line.strip()]
        if lines:
            # Hard line breaks keep the author's lines without any block meaning.
            escaped.append("\\\n".join(lines))
    return "\n\n".join(escaped)


def to_be_completed(what: str) -> str:
    """The fixed marker (in the current language) plus what the author still has to provide."""
    return f"**[{MARKER_WORDS[current_language()]}]** {what}"


def item_heading(title: str, article: str, item_id: str, level: int = ITEM_HEADING_LEVEL) -> str:
    """The heading line of a checklist item, carrying its article and its anchor."""
    return f"{'#' * level} {title} ({article}) {{#{item_id}}}"


def bullets(values: Iterable[object]) -> str:
    """An escaped bullet list."""
    return "\n".join(f"- {escape_inline(value)}" for value in values)


def table(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A GFM table; headers are ours (trusted), cells are escaped."""
    lines = [
        "| " + " | ".join(headers) + " |",
        "|" + "|".join("---" for _ in headers) + "|",
    ]
    lines.extend("| " + " | ".join(escape_inline(cell) for cell in row) + " |" for row in rows)
    return "\n".join(lines)


def join_blocks(*blocks: str | None) -> str:
    """Non-empty blocks separated by one blank line."""
    return "\n\n".join(block.strip() for block in blocks if block and block.strip())
