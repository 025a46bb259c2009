"""The DPIA's risk map on its admin page: the figure the HTML export draws, same data."""

from __future__ import annotations

from django.utils.safestring import SafeString, mark_safe

from gdpr.i18n import activate
from legal_documents.exports.risk_map import mark_risk_map, risk_map_figure
from legal_documents.models import LegalDocument


def document_risk_map(document: LegalDocument) -> SafeString | None:
    """The map of the current content, in the document's language; None when there is none.

    The figure escapes every text it shows (risk labels come from the document's Markdown),
    and is an inline SVG with presentation attributes only: nothing the admin's
    Content-Security-Policy refuses (no inline style, no script, no request).
    """
    if not document.has_content:
        return None
    with activate(document.language):
        marked = mark_risk_map(document.content_markdown, document.document_type)
        if marked is None:
            return None
        return mark_safe(risk_map_figure(marked.risk_map))  # noqa: S308 -- escaped in the figure
