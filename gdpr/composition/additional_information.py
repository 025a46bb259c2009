"""The free-text answers given at finalization, as a section of the document.

`generate` may carry questions that are not in the questionnaire (SEED.md, Finalize body:
`[{question, answer}]`). Their answers belong in the final document whatever wrote it (the
template, a language model, an iteration), so this section is added after the writer: it
goes before the sources annex, under a neutral heading that reads well in a public document
such as a privacy policy. User text is escaped like every other input.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gdpr.composition.completeness import item_blocks
from gdpr.composition.markdown import escape_block, escape_inline, join_blocks
from gdpr.i18n import N_, _, in_every_language

ANCHOR = "additional-information"
HEADING = N_("## Additional information")
ANNEX_HEADING = N_("## Annex: Sources")


def additional_information_section(pairs: Sequence[Mapping[str, str]]) -> str:
    """The section as Markdown: each question in bold, its answer below; '' without pairs."""
    if not pairs:
        return ""
    blocks = [
        f"**{escape_inline(pair['question'])}**\n\n{escape_block(pair['answer'])}" for pair in pairs
    ]
    return join_blocks(f"{_(HEADING)} {{#{ANCHOR}}}", *blocks)


def with_additional_information(markdown: str, pairs: Sequence[Mapping[str, str]]) -> str:
    """`markdown` with the section, unless it already has it filled.

    A section that is missing or was emptied (e.g. by an edit) is written again from
    `pairs`; one that is there is left as the writer or the editor wrote it.
    """
    section = additional_information_section(pairs)
    if not section:
        return markdown
    existing = item_blocks(markdown).get(ANCHOR, [])
    if any(block.filled for block in existing):
        return markdown
    lines = markdown.splitlines()
    for block in reversed(existing):
        del lines[block.heading_line : block.end_line]
    # The annex heading in whichever language the document was written.
    annex_headings = in_every_language(ANNEX_HEADING)
    insert_at = next(
        (index for index, line in enumerate(lines) if line.strip() in annex_headings),
        len(lines),
    )
    before = "\n".join(lines[:insert_at])
    after = "\n".join(lines[insert_at:])
    return join_blocks(before, section, after) + "\n"
