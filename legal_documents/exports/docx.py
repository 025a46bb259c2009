"""The `docx` export: an editable Word document built from the Markdown's token stream.

Built with python-docx by walking markdown-it tokens rather than converting HTML, so that
the result uses Word's own styles (Heading 1-6, List Bullet/Number, Quote, Table Grid) and a
DPO can restyle or renumber it like any document written in Word.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

from docx import Document
from docx.document import Document as DocxDocument
from docx.enum.table import WD_TABLE_ALIGNMENT
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Pt
from docx.text.paragraph import Paragraph
from markdown_it import MarkdownIt
from markdown_it.token import Token

from legal_documents.exports.base import (
    LOCALE_TAGS,
    ExportMeta,
    format_timestamp,
    metadata_rows,
    shows_no_ruleset,
)
from legal_documents.exports.docx_fonts import embed_fonts
from legal_documents.exports.risk_map import MarkedMarkdown, mark_risk_map
from legal_documents.exports.risk_map_docx import add_risk_map
from legal_documents.rendering import strip_heading_anchors

# The same dialect as legal_documents.rendering (CommonMark + tables, raw HTML shown as
# text), so the Word file has the structure the HTML and PDF exports show.
_PARSER = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")

# Word's built-in list styles exist for three nesting levels; deeper items stay at level 3.
_MAX_LIST_LEVEL = 3
_CODE_FONT = "Courier New"
_ALIGNMENTS = {
    "left": WD_ALIGN_PARAGRAPH.LEFT,
    "center": WD_ALIGN_PARAGRAPH.CENTER,
    "right": WD_ALIGN_PARAGRAPH.RIGHT,
}


@dataclass
class _ListState:
    ordered: bool
    level: int
    # Word numbering instance of this list (ordered lists only); each list gets its own so
    # that a second numbered list starts again at its own start number instead of going on.
    num_id: int | None = None
    item_started: bool = False


@dataclass
class _TableState:
    rows: list[list[tuple[Token, bool, str | None]]] = field(default_factory=list)
    cell_header: bool = False
    cell_align: str | None = None


def _style_suffix(level: int) -> str:
    return "" if level == 1 else f" {level}"


def _cell_alignment(token: Token) -> str | None:
    style = str(token.attrGet("style") or "")
    if style.startswith("text-align:"):
        return style.removeprefix("text-align:").strip()
    return None


class _DocxBuilder:
    """Turns one token stream into paragraphs and tables of `document`."""

    def __init__(self, document: DocxDocument, risk_map: MarkedMarkdown | None = None) -> None:
        self.document = document
        # The token paragraph where a DPIA's risk map goes (exports/risk_map.py).
        self.risk_map = risk_map
        self.lists: list[_ListState] = []
        self.blockquote_depth = 0
        self.table: _TableState | None = None
        self.pending_heading_level: int | None = None

    # -- blocks -------------------------------------------------------------------------

    def build(self, tokens: list[Token]) -> None:
        for token in tokens:
            handler = getattr(self, f"_on_{token.type}", None)
            if handler is not None:
                handler(token)

    def _on_heading_open(self, token: Token) -> None:
        self.pending_heading_level = int(token.tag[1])

    def _on_inline(self, token: Token) -> None:
        if self.table is not None:
            self.table.rows[-1].append((token, self.table.cell_header, self.table.cell_align))
            return
        if self.risk_map is not None and not self.lists and token.content == self.risk_map.token:
            add_risk_map(self.document, self.risk_map.risk_map)
            return
        if self.pending_heading_level is not None:
            paragraph = self.document.add_paragraph(style=f"Heading {self.pending_heading_level}")
            self.pending_heading_level = None
        else:
            paragraph = self._new_body_paragraph()
        _add_inline_runs(paragraph, token.children or [])

    def _new_body_paragraph(self) -> Paragraph:
        if not self.lists:
            return self.document.add_paragraph(style="Quote" if self.blockquote_depth else None)
        current = self.lists[-1]
        suffix = _style_suffix(current.level)
        if current.item_started:
            # A second paragraph inside one list item: indented like the item, no marker.
            return self.document.add_paragraph(style=f"List Continue{suffix}")
        current.item_started = True
        kind = "Number" if current.ordered else "Bullet"
        paragraph = self.document.add_paragraph(style=f"List {kind}{suffix}")
        if current.num_id is not None:
            num_pr = paragraph._p.get_or_add_pPr().get_or_add_numPr()
            num_pr.get_or_add_ilvl().val = 0
            num_pr.get_or_add_numId().val = current.num_id
        return paragraph

    def _open_list(self, *, ordered: bool, start: int) -> None:
        level = min(len(self.lists) + 1, _MAX_LIST_LEVEL)
        state = _ListState(ordered=ordered, level=level)
        if ordered:
            state.num_id = self._restarted_numbering(f"List Number{_style_suffix(level)}", start)
        self.lists.append(state)

    def _restarted_numbering(self, style_name: str, start: int) -> int:
        """A new numbering instance of the style's list definition, starting at `start`."""
        numbering = self.document.part.numbering_part.element
        style_num_pr = self.document.styles[style_name].element.pPr.numPr
        abstract_id = numbering.num_having_numId(style_num_pr.numId.val).abstractNumId.val
        num = numbering.add_num(abstract_id)
        num.add_lvlOverride(ilvl=0).add_startOverride(start)
        return int(num.numId)

    def _on_bullet_list_open(self, token: Token) -> None:
        self._open_list(ordered=False, start=1)

    def _on_ordered_list_open(self, token: Token) -> None:
        self._open_list(ordered=True, start=int(token.attrGet("start") or 1))

    def _on_bullet_list_close(self, token: Token) -> None:
        self.lists.pop()

    _on_ordered_list_close = _on_bullet_list_close

    def _on_list_item_open(self, token: Token) -> None:
        self.lists[-1].item_started = False

    def _on_blockquote_open(self, token: Token) -> None:
        self.blockquote_depth += 1

    def _on_blockquote_close(self, token: Token) -> None:
        self.blockquote_depth -= 1

    def _on_fence(self, token: Token) -> None:
        paragraph = self.document.add_paragraph(style="No Spacing")
        for index, line in enumerate(token.content.rstrip("\n").split("\n")):
            run = paragraph.add_run()
            if index:
                # One paragraph with line breaks keeps the block together when edited.
                run.add_break()
            run.add_text(line)
            run.font.name = _CODE_FONT
            run.font.size = Pt(9)
        paragraph.paragraph_format.space_after = Pt(8)

    _on_code_block = _on_fence

    def _on_hr(self, token: Token) -> None:
        paragraph = self.document.add_paragraph()
        borders = OxmlElement("w:pBdr")
        bottom = OxmlElement("w:bottom")
        for name, value in (("val", "single"), ("sz", "6"), ("space", "1"), ("color", "auto")):
            bottom.set(qn(f"w:{name}"), value)
        borders.append(bottom)
        paragraph._p.get_or_add_pPr().append(borders)

    # -- tables -------------------------------------------------------------------------

    def _on_table_open(self, token: Token) -> None:
        self.table = _TableState()

    def _on_tr_open(self, token: Token) -> None:
        assert self.table is not None
        self.table.rows.append([])

    def _on_th_open(self, token: Token) -> None:
        assert self.table is not None
        self.table.cell_header, self.table.cell_align = True, _cell_alignment(token)

    def _on_td_open(self, token: Token) -> None:
        assert self.table is not None
        self.table.cell_header, self.table.cell_align = False, _cell_alignment(token)

    def _on_table_close(self, token: Token) -> None:
        assert self.table is not None
        rows, self.table = self.table.rows, None
        column_count = max((len(row) for row in rows), default=0)
        if not column_count:
            return
        table = self.document.add_table(rows=len(rows), cols=column_count)
        table.style = "Table Grid"
        table.alignment = WD_TABLE_ALIGNMENT.CENTER
        for row_index, row in enumerate(rows):
            for column_index, (inline, header, align) in enumerate(row):
                paragraph = table.cell(row_index, column_index).paragraphs[0]
                if align in _ALIGNMENTS:
                    paragraph.alignment = _ALIGNMENTS[align]
                _add_inline_runs(paragraph, inline.children or [], bold=header)
            if row and row[0][1]:
                # Repeat the header row on every page the table spans.
                table.rows[row_index]._tr.get_or_add_trPr().append(OxmlElement("w:tblHeader"))
        self.document.add_paragraph()


def _add_inline_runs(paragraph: Paragraph, children: list[Token], *, bold: bool = False) -> None:
    """Runs for one inline token's children, keeping bold, italic, code and line breaks."""
    strong = 1 if bold else 0
    emphasis = 0
    # [target, text shown so far] of each open link.
    open_links: list[list[str]] = []
    for child in children:
        kind = child.type
        if kind in {"text", "code_inline", "image"}:
            text = f"[{child.content or 'image'}]" if kind == "image" else child.content
            run = paragraph.add_run(text)
            run.bold = strong > 0 or None
            run.italic = emphasis > 0 or None
            if kind == "code_inline":
                run.font.name = _CODE_FONT
            if open_links:
                open_links[-1][1] += text
        elif kind == "softbreak":
            paragraph.add_run(" ")
        elif kind == "hardbreak":
            paragraph.add_run().add_break()
        elif kind == "strong_open":
            strong += 1
        elif kind == "strong_close":
            strong -= 1
        elif kind == "em_open":
            emphasis += 1
        elif kind == "em_close":
            emphasis -= 1
        elif kind == "link_open":
            open_links.append([str(child.attrGet("href") or ""), ""])
        elif kind == "link_close" and open_links:
            target, shown = open_links.pop()
            # The target as plain text rather than a live field, so that it stays readable
            # in print; not repeated when the link shows it already (autolinks).
            if target and not target.startswith("#") and target.removeprefix("mailto:") != shown:
                paragraph.add_run(f" ({target})")


def _add_title_block(document: DocxDocument, meta: ExportMeta) -> None:
    document.add_paragraph(meta.document_title, style="Title")
    document.add_paragraph(meta.organization_name, style="Subtitle")
    rows = metadata_rows(meta)
    table = document.add_table(rows=len(rows), cols=2)
    table.style = "Table Grid"
    for index, (label, value) in enumerate(rows):
        label_cell, value_cell = table.rows[index].cells
        label_cell.paragraphs[0].add_run(label).bold = True
        value_cell.paragraphs[0].add_run(value)
    document.add_paragraph()


def _set_core_properties(document: DocxDocument, meta: ExportMeta) -> None:
    # Word shows these under File > Info; the hash there ties the file to its version.
    properties = document.core_properties
    properties.title = meta.document_title
    properties.subject = meta.document_type
    properties.author = meta.organization_name
    properties.category = meta.document_type
    properties.content_status = meta.stage
    properties.version = str(int(meta.version))
    properties.revision = max(int(meta.version), 1)
    properties.identifier = f"sha256:{meta.content_sha256}"
    ruleset = "" if shows_no_ruleset(meta) else f"Ruleset {meta.ruleset_version}; "
    properties.comments = f"{ruleset}updated {format_timestamp(meta.updated_at)}"
    properties.created = meta.created_at
    properties.modified = meta.updated_at
    properties.language = LOCALE_TAGS.get(meta.language, meta.language)


def _set_text_language(document: DocxDocument, language: str) -> None:
    # Word checks spelling and hyphenates in the language of the text (w:lang of the
    # default run properties), not in the language of the core properties.
    tag = LOCALE_TAGS.get(language, language)
    run_defaults = document.styles.element.find(qn("w:docDefaults"))
    properties = None if run_defaults is None else run_defaults.find(qn("w:rPrDefault"))
    run_properties = None if properties is None else properties.find(qn("w:rPr"))
    if run_properties is None:
        return
    lang = run_properties.find(qn("w:lang"))
    if lang is None:
        lang = OxmlElement("w:lang")
        run_properties.append(lang)
    lang.set(qn("w:val"), tag)


def render_docx(markdown: str, meta: ExportMeta) -> bytes:
    """A .docx with a title block (metadata table), then the Markdown as Word structure.

    Headings map to Heading 1-6, list items to List Bullet/List Number (levels 1-3, each
    numbered list restarting at its own start), tables to Table Grid tables with a bold,
    repeating header row, block quotes to Quote, code to a monospace paragraph.
    """
    document = Document()
    _set_core_properties(document, meta)
    _set_text_language(document, meta.language)
    embed_fonts(document)
    _add_title_block(document, meta)
    # A DPIA's risk map goes after its risks tables, where a token paragraph marks the place.
    marked = mark_risk_map(markdown, meta.document_type)
    if marked is not None:
        markdown = marked.markdown
    # Item anchors `{#id}` are for the completeness check, not for readers (as in HTML/text).
    _DocxBuilder(document, marked).build(_PARSER.parse(strip_heading_anchors(markdown)))
    output = io.BytesIO()
    document.save(output)
    return output.getvalue()
