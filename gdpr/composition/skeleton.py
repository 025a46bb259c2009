"""The document as ordered sections of checklist items, each with its template text.

`compose()` joins a skeleton into Markdown; an LLM provider rewrites the body of each item
(keeping its heading line verbatim) and joins its own text back the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Unpack

from gdpr.composition.context import (
    CompositionContext,
    CompositionOptions,
    SourceRef,
    format_value,
)
from gdpr.composition.inputs import normalize_inputs
from gdpr.composition.markdown import (
    MARKER_PATTERN,
    escape_block,
    escape_inline,
    item_heading,
    join_blocks,
)
from gdpr.i18n import _, activate, format_date, mid_sentence, punct

if TYPE_CHECKING:
    from gdpr.doctypes.base import DocumentType

SOURCE_EXCERPT_LENGTH = 300


@dataclass(frozen=True, slots=True)
class ItemDraft:
    """One checklist item: its fixed heading line and its body text."""

    id: str
    title: str
    article: str
    heading: str
    body: str

    @property
    def complete(self) -> bool:
        """False when the body still carries the to-be-completed marker."""
        return bool(self.body.strip()) and not MARKER_PATTERN.search(self.body)

    @property
    def markdown(self) -> str:
        """Heading and body."""
        return join_blocks(self.heading, self.body)


@dataclass(frozen=True, slots=True)
class SectionDraft:
    """One numbered section and its items, in checklist order."""

    id: str
    number: int
    title: str
    article: str
    heading: str
    intro: str
    items: tuple[ItemDraft, ...]

    @property
    def markdown(self) -> str:
        """Heading, intro and every item."""
        return join_blocks(self.heading, self.intro, *(item.markdown for item in self.items))


@dataclass(frozen=True, slots=True)
class DocumentSkeleton:
    """The whole document: front matter, sections, optional sources annex."""

    document_type: str
    ruleset_version: str
    front_matter: str
    sections: tuple[SectionDraft, ...]
    annex: str

    @property
    def markdown(self) -> str:
        """The document as Markdown, ending with one newline."""
        parts = [self.front_matter, *(section.markdown for section in self.sections), self.annex]
        return join_blocks(*parts) + "\n"


def build_context(
    *,
    document_type: DocumentType,
    inputs: Mapping[str, Any],
    **options: Unpack[CompositionOptions],
) -> CompositionContext:
    """The context writers read: only answers to questions that are asked are kept.

    Finalize answers win over questionnaire answers; an answer to a question whose condition
    does not hold is ignored, so a stale answer cannot leak into the text. An option that
    `CompositionOptions` does not name is a TypeError, as a wrong keyword was before the
    options were bundled (callers outside mypy's reach would otherwise lose it silently).
    """
    unknown = options.keys() - CompositionOptions.__optional_keys__
    if unknown:
        raise TypeError(f"unknown composition options: {', '.join(sorted(unknown))}")
    merged = {**(options.get("answers") or {}), **(options.get("finalize_answers") or {})}
    kept: dict[str, Any] = {}
    for question in document_type.questions:
        if question.id in merged and question.is_asked(kept):
            kept[question.id] = merged[question.id]
    context = CompositionContext(
        inputs=normalize_inputs(inputs),
        answers=kept,
        now=(options.get("now") or datetime.now(UTC)).astimezone(UTC),
        organization_name=options.get("organization_name"),
        sources=tuple(options.get("sources", ())),
    )
    if document_type.assess is not None:
        context.assessment = document_type.assess(context)
    return context


def _option_labels(options: Sequence[str], value: Any) -> Any:
    """A choice answer's stored codes (the English option texts) named in the language."""
    if isinstance(value, list | tuple):
        return [_(part) if part in options else part for part in value]
    return _(value) if isinstance(value, str) and value in options else value


def _answers_block(document_type: DocumentType, item_id: str, context: CompositionContext) -> str:
    lines = []
    for question in document_type.questions:
        if question.item == item_id and question.id in context.answers:
            answer = format_value(_option_labels(question.options, context.answers[question.id]))
            lines.append(
                f"- *{escape_inline(_(question.text))}* ({mid_sentence(_(question.article))})"
                f"{punct(':')} {escape_inline(answer)}"
            )
    if not lines:
        return ""
    return _("Answers recorded in the questionnaire:\n\n") + "\n".join(lines)


def item_draft(document_type: DocumentType, item_id: str, context: CompositionContext) -> ItemDraft:
    """The template draft of one checklist item."""
    item = next(entry for entry in document_type.checklist if entry.id == item_id)
    # Writers state the answers themselves; the recorded answers are a working note for the
    # DPO, not text for a data subject, a processor or a supervisory authority.
    body = join_blocks(
        document_type.write_item(item.id, context),
        None
        if document_type.leaves_organization(context)
        else _answers_block(document_type, item.id, context),
    )
    return ItemDraft(
        id=item.id,
        title=_(item.title),
        article=_(item.article),
        heading=item_heading(_(item.title), mid_sentence(_(item.article)), item.id),
        body=body,
    )


def section_skeleton(
    document_type: DocumentType, section_id: str, context: CompositionContext
) -> SectionDraft:
    """The template draft of one section; KeyError for a section the type does not have."""
    numbered = {entry.id: (index, entry) for index, entry in enumerate(document_type.sections, 1)}
    number, section = numbered[section_id]
    intro_writer = document_type.section_intros.get(section.id)
    article = f" ({mid_sentence(_(section.article))})" if section.article else ""
    return SectionDraft(
        id=section.id,
        number=number,
        title=_(section.title),
        article=_(section.article),
        heading=f"## {number}. {_(section.title)}{article}",
        intro=intro_writer(context).strip() if intro_writer else "",
        items=tuple(
            item_draft(document_type, item.id, context)
            for item in document_type.items_of(section.id)
        ),
    )


def _front_matter(document_type: DocumentType, context: CompositionContext) -> str:
    company = context.company_name
    lines = [
        _(
            "- **Controller:** {controller}",
            controller=escape_inline(company) if company else _("not stated"),
        ),
    ]
    if context.has("companyDetails"):
        lines.append(
            _(
                "- **Contact details:** {company_details}",
                company_details=context.inline("companyDetails"),
            )
        )
    if document_type.public:
        # The rule set is kept in the document's metadata (`rulesetVersion`), not shown to
        # data subjects.
        lines.append(_("- **Last updated:** {date}", date=format_date(context.now.date())))
        return join_blocks(
            f"# {_(document_type.title)}", "\n".join(lines), _(document_type.description)
        )
    if context.organization_name and context.organization_name != company:
        lines.append(
            _(
                "- **Prepared by:** {organization_name}",
                organization_name=escape_inline(context.organization_name),
            )
        )
    lines.append(_("- **Date:** {date}", date=format_date(context.now.date())))
    if document_type.leaves_organization(context):
        # The rule set is a working note: it stays in the document's metadata
        # (`rulesetVersion`), not in a text signed by a processor or read by an authority.
        return join_blocks(
            f"# {_(document_type.title)}", "\n".join(lines), _(document_type.description)
        )
    lines.append(
        _(
            "- **Rule set:** {name} {ruleset_version} ({count} mandatory items)",
            name=document_type.name,
            ruleset_version=document_type.ruleset_version,
            count=len(document_type.checklist),
        )
    )
    return join_blocks(
        f"# {_(document_type.title)}", "\n".join(lines), _(document_type.description)
    )


def _annex(sources: Sequence[SourceRef]) -> str:
    if not sources:
        return ""
    entries = []
    for source in sources:
        excerpt = " ".join(source.excerpt.split())
        if len(excerpt) > SOURCE_EXCERPT_LENGTH:
            excerpt = excerpt[:SOURCE_EXCERPT_LENGTH].rstrip() + "…"
        line = f"- **{escape_inline(source.file_name)}**"
        entries.append(f"{line}: {escape_block(excerpt)}" if excerpt else line)
    return join_blocks(
        _("## Annex: Sources"),
        _("Documents of the organization consulted for this document:"),
        "\n".join(entries),
    )


def leaves_organization(
    *,
    document_type: DocumentType,
    inputs: Mapping[str, Any],
    answers: Mapping[str, Any] | None = None,
    finalize_answers: Mapping[str, Any] | None = None,
) -> bool:
    """True when a document of these inputs and answers is read outside the organization
    (privacy notice, DPA, breach notification, a DPIA submitted under Art. 36(3)(e))."""
    if document_type.public or document_type.external:
        return True
    if document_type.external_when is None:
        return False
    context = build_context(
        document_type=document_type,
        inputs=inputs,
        answers=answers,
        finalize_answers=finalize_answers,
    )
    return document_type.leaves_organization(context)


def document_skeleton(
    document_type: DocumentType,
    inputs: Mapping[str, Any],
    answers: Mapping[str, Any] | None = None,
    finalize_answers: Mapping[str, Any] | None = None,
    *,
    organization_name: str | None = None,
    sources: Sequence[SourceRef] = (),
    now: datetime | None = None,
    language: str | None = None,
) -> DocumentSkeleton:
    """The ordered sections of a document with their template text (deterministic).

    An LLM writer rewrites `section.items[i].body` and keeps each `heading` line verbatim;
    the result passed through `ensure_checklist` can never lose a mandatory item. The texts
    are written in `language` (None: the active language, see `gdpr.i18n.activate`).
    """
    with activate(language):
        context = build_context(
            document_type=document_type,
            inputs=inputs,
            answers=answers,
            finalize_answers=finalize_answers,
            organization_name=organization_name,
            sources=sources,
            now=now,
        )
        return DocumentSkeleton(
            document_type=document_type.name,
            ruleset_version=document_type.ruleset_version,
            front_matter=_front_matter(document_type, context),
            sections=tuple(
                section_skeleton(document_type, section.id, context)
                for section in document_type.sections
            ),
            annex=_annex(context.sources),
        )
