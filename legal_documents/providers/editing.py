"""Offline edit instructions: what `iterate` understands without a language model.

The `template` provider has no model, so it applies only these instructions (one per
message, case-insensitive; quotes may be "straight", “curly” or 'single'):

    add to section "<section>": <paragraph>
        Appends the paragraph at the end of the section. <section> is a section number
        ("2"), an item anchor ("rights") or a heading title ("Your rights"; a unique
        beginning of it is enough).
    add section "<title>": <paragraph>
        Appends a new numbered section with this title and paragraph.
    replace "<old text>" with "<new text>"
        Replaces every occurrence of the old text (headings included, anchors never).
    remove section "<section>"
        Removes the section or item and everything under it. A legally required item is
        put back by the checklist guard afterwards, and the reply says so.
    rename company to "<new name>"
    rename company "<old name>" to "<new name>"
        Replaces the company's name everywhere (the first form needs the document's name).
    help
        Lists these instructions.

User text is escaped (it cannot add headings, anchors or the to-be-completed marker).
Any other message leaves the document unchanged (`EditResult.markdown is None`) and the
reply explains that free-form edits need a configured language model.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from gdpr.composition.markdown import (
    ANCHOR_PATTERN,
    HEADING_PATTERN,
    escape_block,
    escape_inline,
)
from legal_documents.providers.base import EditResult

GRAMMAR = """\
- add to section "<section number, anchor or title>": <paragraph>
- add section "<title>": <paragraph>
- replace "<old text>" with "<new text>"
- remove section "<section number, anchor or title>"
- rename company to "<new name>" (or: rename company "<old name>" to "<new name>")
- help"""

NOT_UNDERSTOOD = (
    "Free-form edits need a configured language model (set GENERATION_PROVIDER=openai and "
    "OPENAI_API_KEY); the document was left unchanged. Without a model, these instructions "
    "are understood:\n" + GRAMMAR
)

_Q = "[\"'\u201c\u201d\u2018\u2019]"  # a straight or curly quote, opening or closing
_QUOTED = rf"{_Q}(?P<{{name}}>.+?){_Q}"


def _quoted(name: str) -> str:
    return _QUOTED.format(name=name)


_ADD_TO = re.compile(
    rf"^\s*add\s+(?:a\s+paragraph\s+)?to\s+section\s+{_quoted('section')}\s*:\s*(?P<text>.+)$",
    re.IGNORECASE | re.DOTALL,
)
_ADD_SECTION = re.compile(
    rf"^\s*add\s+(?:a\s+)?(?:new\s+)?section\s+{_quoted('title')}\s*:\s*(?P<text>.+)$",
    re.IGNORECASE | re.DOTALL,
)
_REPLACE = re.compile(
    rf"^\s*replace\s+{_quoted('old')}\s+with\s+{_quoted('new')}\s*\.?\s*$",
    re.IGNORECASE | re.DOTALL,
)
_REMOVE = re.compile(
    rf"^\s*(?:remove|delete)\s+section\s+{_quoted('section')}\s*\.?\s*$", re.IGNORECASE
)
_RENAME = re.compile(
    rf"^\s*rename\s+(?:the\s+)?company\s+(?:{_quoted('old')}\s+)?to\s+{_quoted('new')}\s*\.?\s*$",
    re.IGNORECASE,
)
_HELP = re.compile(r"^\s*(?:help|\?|instructions)\s*\.?\s*$", re.IGNORECASE)
_NUMBERED = re.compile(r"^(\d+)[.)]?\s")
# The citation closing a heading, in any document language: "(Art. 13(1)(a))", "(Art. 13
# Abs. 1 lit. a DSGVO)", "(article 13, paragraphe 1, point a) du RGPD)" (whose "a)" leaves
# the parentheses unbalanced, so the suffix runs from the opening word to the end).
_ARTICLE_SUFFIX = re.compile(
    r"\s*\((?:Arts?\.|articles?\s|artículos?\s|articol[oi]\s).*\)\s*$", re.IGNORECASE
)


@dataclass(frozen=True, slots=True)
class Heading:
    line: int
    level: int
    text: str  # without the anchor
    anchor: str | None

    @property
    def unnumbered(self) -> str:
        """The heading text without its section number."""
        return _NUMBERED.sub("", self.text + " ").strip()

    @property
    def title(self) -> str:
        """The heading text without its number and its article reference."""
        title = _ARTICLE_SUFFIX.sub("", self.text).strip()
        return _NUMBERED.sub("", title + " ").strip()


def headings(markdown: str) -> list[Heading]:
    """Every ATX heading of the Markdown, outside fenced code blocks."""
    found: list[Heading] = []
    in_fence = False
    for index, line in enumerate(markdown.splitlines()):
        if re.match(r"^ {0,3}(```|~~~)", line):
            in_fence = not in_fence
            continue
        match = None if in_fence else HEADING_PATTERN.match(line)
        if match is None:
            continue
        text = match.group(2)
        anchor = ANCHOR_PATTERN.search(text)
        found.append(
            Heading(
                line=index,
                level=len(match.group(1)),
                text=ANCHOR_PATTERN.sub("", text).strip(),
                anchor=anchor.group(1) if anchor else None,
            )
        )
    return found


class InstructionRefusedError(Exception):
    """The instruction was understood but cannot be applied; the message says why."""


def find_section(markdown: str, reference: str) -> tuple[Heading, int]:
    """The heading `reference` names (number, anchor or title) and the end line of its block.

    Raises InstructionRefusedError when nothing or more than one heading matches.
    """
    all_headings = [heading for heading in headings(markdown) if heading.level > 1]
    wanted = reference.strip().rstrip(".").strip()
    lowered = wanted.lower()
    matchers: list[Callable[[Heading], bool]] = [
        lambda h: h.level == 2 and (m := _NUMBERED.match(h.text + " ")) is not None
        and m.group(1) == wanted,
        lambda h: h.anchor is not None and h.anchor == lowered.lstrip("#"),
        lambda h: lowered in {h.title.lower(), h.text.lower(), h.unnumbered.lower()},
        lambda h: h.title.lower().startswith(lowered),
    ]  # fmt: skip
    for matcher in matchers:
        candidates = [heading for heading in all_headings if matcher(heading)]
        if candidates:  # a section wins over its item of the same title
            outermost = min(heading.level for heading in candidates)
            candidates = [heading for heading in candidates if heading.level == outermost]
        if len(candidates) == 1:
            return candidates[0], _block_end(markdown, candidates[0])
        if len(candidates) > 1:
            names = "; ".join(f'"{heading.text}"' for heading in candidates)
            raise InstructionRefusedError(
                f'"{reference}" matches several sections: {names}. Be more precise.'
            )
    titles = "; ".join(f'"{heading.text}"' for heading in all_headings if heading.level == 2)
    raise InstructionRefusedError(f'No section "{reference}" in the document. Sections: {titles}.')


def _block_end(markdown: str, heading: Heading) -> int:
    for other in headings(markdown):
        if other.line > heading.line and other.level <= heading.level:
            return other.line
    return len(markdown.splitlines())


def _join(lines: list[str]) -> str:
    text = "\n".join(lines)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip() + "\n"


def add_to_section(markdown: str, reference: str, paragraph: str) -> EditResult:
    heading, end = find_section(markdown, reference)
    lines = markdown.splitlines()
    while end > heading.line + 1 and not lines[end - 1].strip():
        end -= 1
    lines[end:end] = ["", escape_block(paragraph), ""]
    return EditResult(markdown=_join(lines), reply=f'Added the paragraph to "{heading.text}".')


def add_section(markdown: str, title: str, paragraph: str) -> EditResult:
    numbers = [
        int(match.group(1))
        for heading in headings(markdown)
        if heading.level == 2 and (match := _NUMBERED.match(heading.text + " "))
    ]
    prefix = f"{max(numbers) + 1}. " if numbers else ""
    heading = f"## {prefix}{escape_inline(title)}"
    result = _join([*markdown.splitlines(), "", heading, "", escape_block(paragraph)])
    return EditResult(markdown=result, reply=f'Added the section "{prefix}{title}".')


def remove_section(markdown: str, reference: str) -> EditResult:
    heading, end = find_section(markdown, reference)
    lines = markdown.splitlines()
    del lines[heading.line : end]
    return EditResult(markdown=_join(lines), reply=f'Removed the section "{heading.text}".')


def replace_text(markdown: str, old: str, new: str) -> EditResult:
    """Literal replacement; anchors `{#id}` of headings are never touched."""
    if not old.strip():
        raise InstructionRefusedError("The text to replace is empty.")
    replacement = escape_inline(new)
    total = 0
    lines = markdown.splitlines()
    for index, line in enumerate(lines):
        anchor = ANCHOR_PATTERN.search(line) if HEADING_PATTERN.match(line) else None
        body, tail = (line[: anchor.start()], line[anchor.start() :]) if anchor else (line, "")
        for candidate in dict.fromkeys((old, escape_inline(old))):
            count = body.count(candidate)
            if count:
                body = body.replace(candidate, replacement)
                total += count
                break
        lines[index] = body + tail
    if total == 0:
        raise InstructionRefusedError(
            f'"{old}" does not occur in the document; nothing was replaced.'
        )
    plural = "occurrence" if total == 1 else "occurrences"
    return EditResult(
        markdown=_join(lines), reply=f'Replaced {total} {plural} of "{old}" with "{new}".'
    )


def rename_company(markdown: str, old: str | None, new: str) -> EditResult:
    if not old:
        raise InstructionRefusedError(
            "The document's company name is not known here; use: "
            'rename company "<old name>" to "<new name>".'
        )
    result = replace_text(markdown, old, new)
    return EditResult(
        markdown=result.markdown,
        reply=f'Renamed the company "{old}" to "{new}" in the text. The document\'s inputs '
        "keep the old name, so a regenerated draft would use it again.",
    )


def apply_edit_instruction(
    markdown: str, message: str, *, company_name: str | None = None
) -> EditResult:
    """Apply one instruction of the grammar above to `markdown`.

    Never raises for user input: an instruction that cannot be applied (unknown section,
    text not found) and any message outside the grammar return `markdown=None` (unchanged)
    with a reply saying why. `company_name` is the document's current company name, used by
    `rename company to "<name>"`.
    """
    try:
        if match := _ADD_TO.match(message):
            return add_to_section(markdown, match["section"], match["text"].strip())
        if match := _ADD_SECTION.match(message):
            return add_section(markdown, match["title"], match["text"].strip())
        if match := _REPLACE.match(message):
            return replace_text(markdown, match["old"], match["new"])
        if match := _REMOVE.match(message):
            return remove_section(markdown, match["section"])
        if match := _RENAME.match(message):
            return rename_company(markdown, match["old"] or company_name, match["new"])
    except InstructionRefusedError as refused:
        return EditResult(markdown=None, reply=f"{refused} The document was left unchanged.")
    if _HELP.match(message):
        return EditResult(markdown=None, reply="These instructions are understood:\n" + GRAMMAR)
    return EditResult(markdown=None, reply=NOT_UNDERSTOOD)
