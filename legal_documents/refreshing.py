"""Refresh from the register: the current register's text, keeping untouched manual edits.

Three Markdown texts meet: `old`, the template text of the facts the content was written
from; `new`, the template text of the register as it is now; `current`, the stored content
(possibly edited by hand or by iterations). The text is cut into blocks at its level-2 and
level-3 headings, each keyed by its section and its checklist anchor (or heading title,
without the section number, so that a new activity does not renumber every key):

- a block whose `old` and `new` texts are equal (but for its section number) was not touched
  by the register change: the `current` block is kept as it is, renumbered (with its manual
  edits; one deleted by hand stays deleted);
- a block whose text changed (or that is new) takes the `new` text;
- a block that the register no longer produces (a removed activity) is dropped;
- a block found only in `current` (a section added by hand, the sources annex, the
  additional information) is kept after the block it followed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gdpr.composition.markdown import ANCHOR_PATTERN, HEADING_PATTERN

FRONT = ("front", "")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_NUMBER = re.compile(r"^\d+\.\s+")


@dataclass(frozen=True, slots=True)
class Block:
    key: tuple[str, str]
    title: str
    text: str
    # The readable title of the level-2 section the block belongs to ("" before the first).
    section: str = ""


def _title(heading: str) -> tuple[str, str]:
    """(anchor or normalised title, readable title) of a heading's text."""
    anchor = ANCHOR_PATTERN.search(heading)
    readable = ANCHOR_PATTERN.sub("", heading).strip()
    readable = _NUMBER.sub("", readable)
    return (anchor.group(1) if anchor else readable.lower()), readable


def split_blocks(markdown: str) -> list[Block]:
    """The text cut at level-2 and level-3 headings (outside code fences), in order."""
    blocks: list[Block] = []
    section, section_title = "", ""
    key, title, lines = FRONT, "", []
    fence: str | None = None
    seen: dict[tuple[str, str], int] = {}

    def close() -> None:
        if key == FRONT and not "".join(lines).strip():
            return
        count = seen.get(key, 0)
        seen[key] = count + 1
        unique = key if count == 0 else (key[0], f"{key[1]}#{count}")
        blocks.append(Block(unique, title, "\n".join(lines).strip("\n"), section_title))

    for line in markdown.splitlines():
        fence_match = _FENCE.match(line)
        if fence_match:
            fence = (
                fence_match.group(1)
                if fence is None
                else (None if fence == fence_match.group(1) else fence)
            )
        heading = HEADING_PATTERN.match(line) if fence is None and not fence_match else None
        level = len(heading.group(1)) if heading else 0
        if heading and level in (2, 3):
            close()
            name, readable = _title(heading.group(2))
            if level == 2:
                section, section_title = name, readable
                key = ("section", name)
            else:
                key = (section, name)
            title, lines = readable, [line]
            continue
        lines.append(line)
    close()
    return blocks


_SECTION_NUMBER = re.compile(r"^(#{1,6}\s+)\d+\.\s+")


def _unnumbered(text: str) -> str:
    """The block without its section number: an activity added before it renumbers it."""
    return _SECTION_NUMBER.sub(r"\1", text.strip(), count=1)


def _renumbered(kept: Block, before: Block, after: Block) -> Block:
    """The kept block under the new section number, when its heading line is the old one."""
    kept_lines, old_first, new_first = (
        kept.text.split("\n"),
        before.text.split("\n")[0],
        after.text.split("\n")[0],
    )
    if old_first == new_first or kept_lines[0] != old_first:
        return kept
    return Block(kept.key, kept.title, "\n".join([new_first, *kept_lines[1:]]), kept.section)


@dataclass(frozen=True, slots=True)
class Merge:
    markdown: str
    # Titles of the sections where a block took the register's new text, in document order.
    rewritten: list[str]


def merge_refresh(*, current: str, old: str, new: str) -> Merge:
    """`new`'s blocks, keeping `current`'s text wherever the register did not change it."""
    old_blocks = {block.key: block for block in split_blocks(old)}
    current_blocks = split_blocks(current)
    current_by_key = {block.key: block for block in current_blocks}
    result: list[Block] = []
    rewritten: list[str] = []
    for block in split_blocks(new):
        before = old_blocks.get(block.key)
        if before is not None and _unnumbered(before.text) == _unnumbered(block.text):
            kept = current_by_key.get(block.key)
            if kept is not None:
                result.append(_renumbered(kept, before, block))
            continue
        result.append(block)
        name = block.section or block.title or "front matter"
        if name not in rewritten:
            rewritten.append(name)
    produced = {block.key for block in result} | set(old_blocks)
    placed = [block.key for block in result]
    previous: tuple[str, str] | None = None
    for block in current_blocks:
        if block.key not in produced:
            position = placed.index(previous) + 1 if previous in placed else len(placed)
            result.insert(position, block)
            placed.insert(position, block.key)
        if block.key in placed:
            previous = block.key
    markdown = "\n\n".join(block.text.strip() for block in result if block.text.strip()) + "\n"
    return Merge(markdown=markdown, rewritten=rewritten)
