"""A review's report as a file: `export_review(review, fmt)` -> md, html, pdf or docx.

The report is written once as Markdown and handed to the document exports' own renderers
(legal_documents.exports: the sanitised HTML page, the PDF with its vendored font, the Word
writer), so that a review prints like the documents the service writes. The fixed labels
are in the review's report language (the `exports` catalog of gdpr.i18n, like the
documents' title blocks).

Everything but the labels comes from outside: the quotes and their locations are the
uploaded document's text, the file name is the uploader's, the findings may be a language
model's. Each is escaped for Markdown, so that no text can open a heading, a link or a
list, and the renderers then show any HTML in it as text.
"""

from __future__ import annotations

import hashlib
import re
from datetime import UTC, datetime
from typing import Any, NamedTuple

from gdpr.i18n import DEFAULT_LANGUAGE, N_, SUPPORTED_LANGUAGES, _, activate, format_datetime
from legal_documents.exports import ExportMeta, UnsupportedExportFormat, export_document
from legal_documents.exports.base import slugify_ascii
from reviews.models import Review

REVIEW_EXPORT_FORMATS: tuple[str, ...] = ("md", "html", "pdf", "docx")
# What `GET /api/v1/reviews/{id}?format=` answers with (its OpenAPI responses list each).
REVIEW_EXPORT_MEDIA_TYPES: tuple[str, ...] = (
    "text/markdown",
    "text/html",
    "application/pdf",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
)

STATUS_LABELS = {
    "present": N_("Present"),
    "weak": N_("Weak"),
    "missing": N_("Missing"),
    "not-applicable": N_("Not applicable"),
    "needs-human-check": N_("Needs a human check"),
}
VERDICT_LABELS = {
    "no-gaps": N_("No gaps"),
    "gaps": N_("Gaps found"),
    "needs-human-check": N_("Needs a human check"),
}
# Labels are marked here and translated where shown (Babel reads no marker in an f-string).
STATUS_LABEL = N_("Status")
FINDING_LABEL = N_("Finding")
QUOTES_LABEL = N_("Quoted from the document")
SUGGESTION_LABEL = N_("Suggested clause")
VERDICT_LABEL = N_("Verdict")
ITEMS_LABEL = N_("Items")
NO_LOCATION = N_("location not recorded")
REVIEW_STATUS_LABELS = {
    "processing": N_("The review is still running."),
    "failed": N_("The review failed."),
}


class ReviewExport(NamedTuple):
    content: bytes
    content_type: str
    filename: str


# Markdown's own characters anywhere in a line, and those that start a block at its start
# (a list item "- ", "+ ", "1. " or "1) ", a setext underline "==="). A backslash before
# ASCII punctuation is always a literal in CommonMark, so escaping never shows a backslash.
_INLINE_SPECIAL = re.compile(r"([\\`*_\[\]<>#|!{}~&])")
_BLOCK_START = re.compile(r"^(\d+)([.)])|^([-+=])")


def escape_markdown(text: str) -> str:
    """`text` as Markdown that renders as exactly these characters, on one line per line.

    Leading spaces are dropped (four would make a code block); control characters other
    than the line break become spaces.
    """
    lines = []
    for raw in str(text).replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = "".join(ch if ch.isprintable() else " " for ch in raw).strip()
        line = _INLINE_SPECIAL.sub(r"\\\1", line)
        line = _BLOCK_START.sub(
            lambda match: f"{match[1]}\\{match[2]}" if match[1] is not None else f"\\{match[3]}",
            line,
        )
        lines.append(line)
    return "\n".join(lines)


def _one_line(text: str) -> str:
    return " ".join(escape_markdown(text).split())


def document_type_title(document_type: str) -> str:
    """The reviewed document's type as the documents name it, in the active language."""
    from gdpr.doctypes.registry import DOCUMENT_TYPES

    found = DOCUMENT_TYPES.get(document_type)
    return _(found.title) if found else document_type.replace("_", " ").capitalize()


def report_language(review: Review) -> str:
    return review.language if review.language in SUPPORTED_LANGUAGES else DEFAULT_LANGUAGE


def report_title(review: Review) -> str:
    """ "Review: Data Processing Agreement "dpa.pdf"" in the active language (plain text)."""
    return _(
        "Review: {document} ({file})",
        document=document_type_title(review.document_type),
        file=review.asset.original_file_name,
    )


def _quote_block(text: str) -> str:
    # Every line of the quote, blank ones too, stays inside the one block quote.
    return "\n".join(f"> {line}".rstrip() for line in escape_markdown(text).split("\n"))


def _item_markdown(item: dict[str, Any]) -> list[str]:
    status = str(item.get("status") or "")
    heading = " \N{EM DASH} ".join(
        part for part in (_one_line(item.get("itemId") or ""), _one_line(item.get("article") or ""))
        if part
    )  # fmt: skip
    lines = [f"### {heading}", ""]
    lines += [f"**{_(STATUS_LABEL)}:** {escape_markdown(_(STATUS_LABELS.get(status, status)))}", ""]
    if item.get("finding"):
        lines += [f"**{_(FINDING_LABEL)}:** {escape_markdown(item['finding'])}", ""]
    citations = [c for c in item.get("citations") or [] if isinstance(c, dict) and c.get("quote")]
    if citations:
        lines += [f"**{_(QUOTES_LABEL)}:**", ""]
        for citation in citations:
            lines += [_quote_block(str(citation["quote"])), ">"]
            location = _one_line(citation.get("location") or "") or _(NO_LOCATION)
            lines += [f"> \N{EM DASH} {location}", ""]
    if item.get("suggestion"):
        lines += [f"**{_(SUGGESTION_LABEL)}:**", "", escape_markdown(item["suggestion"]), ""]
    return lines


def review_markdown(review: Review) -> str:
    """The report as Markdown in the active language: summary, counts, then each item."""
    lines = [f"# {_one_line(report_title(review))}", ""]
    if review.status != "completed":
        message = REVIEW_STATUS_LABELS.get(review.status, review.status)
        lines += [escape_markdown(_(message)), ""]
    verdict = review.verdict or ""
    verdict_label = _(VERDICT_LABELS.get(verdict, verdict)) or "-"
    lines += [
        f"**{_(VERDICT_LABEL)}:** {escape_markdown(verdict_label)}",
        "",
        f"| {_(STATUS_LABEL)} | {_(ITEMS_LABEL)} |",
        "| --- | ---: |",
    ]
    counts = review.counts or {}
    for status, label in STATUS_LABELS.items():
        lines.append(f"| {escape_markdown(_(label))} | {int(counts.get(status, 0) or 0)} |")
    lines += ["", f"## {_(ITEMS_LABEL)}", ""]
    for item in review.items or []:
        if isinstance(item, dict):
            lines += _item_markdown(item)
    return "\n".join(lines).rstrip() + "\n"


def _title_rows(review: Review) -> tuple[tuple[str, str], ...]:
    rows = [
        (_("Document"), review.asset.original_file_name),
        (_("Document type"), document_type_title(review.document_type)),
    ]
    if review.vendor is not None:
        rows.append((_("Vendor"), review.vendor.name))
    verdict = review.verdict or ""
    rows += [
        (_(VERDICT_LABEL), _(VERDICT_LABELS.get(verdict, verdict)) or "-"),
        (_("Reviewed (UTC)"), format_datetime(review.completed_at or review.created_at)),
        (_("Ruleset version"), review.ruleset or "-"),
    ]
    return tuple(rows)


def _meta(review: Review, markdown: str, language: str) -> ExportMeta:
    created = review.created_at or datetime.now(UTC)
    return ExportMeta(
        organization_name=review.organization.name,
        document_title=report_title(review),
        document_type=review.document_type,
        version=1,
        stage=review.status,
        created_at=created,
        updated_at=review.completed_at or review.updated_at or created,
        content_sha256=hashlib.sha256(markdown.encode("utf-8")).hexdigest(),
        ruleset_version=review.ruleset,
        language=language,
        title_rows=_title_rows(review),
    )


def review_filename(review: Review, extension: str) -> str:
    """`review-<file>-<yyyy-mm-dd>.<ext>`: ASCII only, safe in a Content-Disposition."""
    moment = review.completed_at or review.created_at or datetime.now(UTC)
    stem = slugify_ascii(review.asset.original_file_name, fallback="document")
    return f"review-{stem}-{moment:%Y-%m-%d}.{extension}"


def export_review(review: Review, fmt: str) -> ReviewExport:
    """The review's report as `fmt` (md, html, pdf, docx; case-insensitive).

    Returns (bytes, Content-Type, download name), unpackable as a tuple. Raises
    `UnsupportedExportFormat` (code VALIDATION_ERROR, naming the formats) for another
    format and `ExportRenderError` (CONVERSION_FAILED) when a renderer fails. A review still
    running or failed is exported as what it has, saying so.
    """
    normalized = (fmt or "").strip().lower()
    if normalized not in REVIEW_EXPORT_FORMATS:
        raise UnsupportedExportFormat(fmt, REVIEW_EXPORT_FORMATS)
    language = report_language(review)
    with activate(language):
        markdown = review_markdown(review)
        meta = _meta(review, markdown, language)
    exported = export_document(markdown, meta, normalized)
    return ReviewExport(
        content=exported.content,
        content_type=exported.content_type,
        filename=review_filename(review, normalized),
    )
