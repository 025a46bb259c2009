"""Completeness of a document, computed from its Markdown text alone.

Convention: a checklist item is *present* when the Markdown has a heading ending with the
anchor `{#item-id}` (any level, outside code blocks), the text under it up to the next heading
of the same or a higher level is not empty, and that text carries no `[To be completed]`
marker. Anything else is *missing*. Because only the text is read, the same check applies to
the template's output, an LLM's output and a manual edit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from gdpr.composition.markdown import ANCHOR_PATTERN, HEADING_PATTERN, MARKER_PATTERN
from gdpr.composition.special_categories import classification_question_pattern
from gdpr.i18n import _

if TYPE_CHECKING:
    from gdpr.doctypes.base import ChecklistItem, DocumentType

# "needs-classification": the item's only open points are questions whether a data category
# is special-category data (Art. 9(1)), for the DPO to answer; like "missing", not complete.
Status = Literal["present", "missing", "needs-classification"]
STATUSES: tuple[Status, ...] = ("present", "missing", "needs-classification")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")


@dataclass(frozen=True, slots=True)
class ItemBlock:
    """Where one anchored item sits in a Markdown text (line indexes, end exclusive)."""

    item_id: str
    level: int
    heading_line: int
    end_line: int
    body: str

    @property
    def filled(self) -> bool:
        """Non-empty body without the to-be-completed marker."""
        return bool(self.body.strip()) and not MARKER_PATTERN.search(self.body)

    @property
    def needs_classification(self) -> bool:
        """Every marker of the body opens a classification question (in any language)."""
        markers = list(MARKER_PATTERN.finditer(self.body))
        question = classification_question_pattern()
        return bool(markers) and all(
            question.match(self.body[marker.end() :].lstrip("*").lstrip()) for marker in markers
        )


@dataclass(frozen=True, slots=True)
class ItemStatus:
    """One line of the completeness report."""

    id: str
    article: str
    requirement: str
    status: Status
    section: str

    def as_dict(self) -> dict[str, str]:
        """The API shape `{id, article, requirement, status, section}`."""
        return {
            "id": self.id,
            "article": self.article,
            "requirement": self.requirement,
            "status": self.status,
            "section": self.section,
        }


@dataclass(frozen=True, slots=True)
class CompletenessReport:
    """Every mandatory item of the type's rule set, present or missing."""

    document_type: str
    ruleset_version: str
    items: tuple[ItemStatus, ...]

    @property
    def complete(self) -> bool:
        """True when no item is missing."""
        return all(item.status == "present" for item in self.items)

    @property
    def missing(self) -> list[str]:
        """Ids of the items not present (missing or needing classification), in order."""
        return [item.id for item in self.items if item.status != "present"]

    def as_dict(self) -> dict[str, object]:
        """The API shape of GET /compliance."""
        return {
            "documentType": self.document_type,
            "rulesetVersion": self.ruleset_version,
            "complete": self.complete,
            "items": [item.as_dict() for item in self.items],
        }


def _headings(lines: list[str]) -> list[tuple[int, int, str]]:
    """(line index, level, heading text) of every ATX heading outside fenced code."""
    found = []
    fence: str | None = None
    for index, line in enumerate(lines):
        fence_match = _FENCE.match(line)
        if fence_match:
            marker = fence_match.group(1)
            if fence is None:
                fence = marker
            elif marker == fence:
                fence = None
            continue
        if fence is not None:
            continue
        match = (
            HEADING_PATTERN.match(line.lstrip(" "))
            if len(line) - len(line.lstrip(" ")) < 4
            else None
        )
        if match:
            found.append((index, len(match.group(1)), match.group(2)))
    return found


def item_blocks(markdown: str) -> dict[str, list[ItemBlock]]:
    """Every anchored item block of a Markdown text, by item id, in text order."""
    lines = markdown.splitlines()
    headings = _headings(lines)
    blocks: dict[str, list[ItemBlock]] = {}
    for position, (line_index, level, text) in enumerate(headings):
        anchor = ANCHOR_PATTERN.search(text)
        if not anchor:
            continue
        end = len(lines)
        # By index, not over a slice: a slice copies every later heading for each anchored
        # one, quadratic in a whole register's headings.
        for following in range(position + 1, len(headings)):
            next_index, next_level, _text = headings[following]
            if next_level <= level:
                end = next_index
                break
        blocks.setdefault(anchor.group(1), []).append(
            ItemBlock(
                item_id=anchor.group(1),
                level=level,
                heading_line=line_index,
                end_line=end,
                body="\n".join(lines[line_index + 1 : end]),
            )
        )
    return blocks


def completeness_report(
    *, document_type: DocumentType, markdown: str, every_occurrence: bool = False
) -> CompletenessReport:
    """Check a Markdown document against its type's checklist (see the module docstring).

    An item repeated in the text is present when any of its occurrences is filled; with
    `every_occurrence` (a whole register: the item is repeated once per activity) only when
    each of them is.
    """
    blocks = item_blocks(markdown)
    statuses = []
    for item in document_type.checklist:
        found = blocks.get(item.id, [])
        if every_occurrence:
            present = bool(found) and all(block.filled for block in found)
            open_blocks = [block for block in found if not block.filled]
        else:
            present = any(block.filled for block in found)
            open_blocks = found
        status: Status = "present" if present else "missing"
        if not present and open_blocks and all(b.needs_classification for b in open_blocks):
            status = "needs-classification"
        statuses.append(
            ItemStatus(
                id=item.id,
                article=item.article,
                requirement=_(item.requirement),
                status=status,
                section=item.section,
            )
        )
    return CompletenessReport(
        document_type=document_type.name,
        ruleset_version=document_type.ruleset_version,
        items=tuple(statuses),
    )


def missing_items(*, document_type: DocumentType, markdown: str) -> list[ChecklistItem]:
    """The checklist items the Markdown lacks or leaves to be completed, in checklist order."""
    missing = set(completeness_report(document_type=document_type, markdown=markdown).missing)
    return [item for item in document_type.checklist if item.id in missing]
