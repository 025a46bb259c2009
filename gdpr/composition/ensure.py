"""Guarantee that another writer's Markdown keeps every mandatory item.

An LLM (or an editor) may drop or empty an item; `ensure_checklist` puts the template's text
for that item back, so a legally required item can never silently disappear.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gdpr.composition.completeness import ItemBlock, item_blocks

if TYPE_CHECKING:
    from gdpr.doctypes.base import DocumentType


def _block_lines(markdown_lines: list[str], block: ItemBlock) -> list[str]:
    lines = markdown_lines[block.heading_line : block.end_line]
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def _best(blocks: list[ItemBlock]) -> ItemBlock:
    return next((block for block in blocks if block.filled), blocks[0])


def _insertion_line(
    document_type: DocumentType,
    item_id: str,
    blocks: dict[str, list[ItemBlock]],
    line_count: int,
) -> int:
    """Where a dropped item goes: next to its nearest neighbour of the same section first."""
    order = [item.id for item in document_type.checklist]
    section_of = {item.id: item.section for item in document_type.checklist}
    position = order.index(item_id)
    previous = [other for other in reversed(order[:position]) if other in blocks]
    following = [other for other in order[position + 1 :] if other in blocks]
    same_section = section_of[item_id]
    for other in following:
        if section_of[other] == same_section:
            return blocks[other][0].heading_line
    for other in previous:
        if section_of[other] == same_section:
            return blocks[other][0].end_line
    if previous:
        return blocks[previous[0]][0].end_line
    if following:
        return blocks[following[0]][0].heading_line
    return line_count


def ensure_checklist(*, document_type: DocumentType, markdown: str, fallback_markdown: str) -> str:
    """`markdown` with every checklist item it dropped or left empty taken from the fallback.

    - an item whose heading is gone gets the fallback's heading and text inserted next to its
      neighbours (even when the fallback itself only carries the to-be-completed marker, so the
      gap stays visible);
    - an item whose heading is kept but whose text is empty or marked gets the fallback's text
      when the fallback's is filled;
    - items the other writer filled are left untouched. The result is deterministic.
    """
    fallback_lines = fallback_markdown.splitlines()
    fallback_blocks = item_blocks(fallback_markdown)
    lines = markdown.splitlines()
    for item in document_type.checklist:
        if item.id not in fallback_blocks:
            continue
        replacement = _best(fallback_blocks[item.id])
        blocks = item_blocks("\n".join(lines))
        current = blocks.get(item.id)
        if current and any(block.filled for block in current):
            continue
        if current:
            if not replacement.filled:
                continue
            target = current[0]
            new_body = _block_lines(fallback_lines, replacement)[1:]
            lines[target.heading_line + 1 : target.end_line] = ["", *new_body, ""]
            continue
        insert_at = _insertion_line(document_type, item.id, blocks, len(lines))
        lines[insert_at:insert_at] = ["", *_block_lines(fallback_lines, replacement), ""]
    # Collapse the blank lines the splices may have doubled.
    result: list[str] = []
    for line in lines:
        if not line.strip() and result and not result[-1].strip():
            continue
        result.append(line)
    return "\n".join(result).strip() + "\n"
