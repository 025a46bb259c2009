"""Markdown is the source of truth of a document; these functions derive its other forms.

Everything that turns Markdown into HTML goes through `markdown_to_safe_html`, so that no
input (a company name, a questionnaire answer, an LLM's output, a manual edit) can reach a
rendered page, a PDF or an export as active content.
"""

from __future__ import annotations

import re
from functools import lru_cache

import nh3
from markdown_it import MarkdownIt

# Tags a legal document needs; no img (no remote fetches from PDF renderers), no forms.
_ALLOWED_TAGS = {
    "h1", "h2", "h3", "h4", "h5", "h6", "p", "br", "hr", "strong", "em", "b", "i", "u",
    "s", "del", "ins", "sub", "sup", "small", "mark", "blockquote", "pre", "code",
    "ul", "ol", "li", "dl", "dt", "dd", "table", "thead", "tbody", "tfoot", "tr", "th",
    "td", "caption", "colgroup", "col", "a", "span", "div", "abbr",
}  # fmt: skip
_ALLOWED_ATTRIBUTES = {
    "a": {"href", "title"},
    "th": {"colspan", "rowspan", "style"},
    "td": {"colspan", "rowspan", "style"},
    "h1": {"id"}, "h2": {"id"}, "h3": {"id"}, "h4": {"id"},
    "ol": {"start"},
    "abbr": {"title"},
}  # fmt: skip
_ALLOWED_URL_SCHEMES = {"http", "https", "mailto"}
# markdown-it renders `style="text-align:..."` on table cells; nothing else may pass.
_ALLOWED_STYLE_PROPERTIES = {"text-align"}


@lru_cache(maxsize=1)
def _markdown_parser() -> MarkdownIt:
    # html=False: raw HTML in Markdown is shown as text, never interpreted.
    return MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")


def sanitize_html(html: str) -> str:
    """Strip everything but the document tags above (scripts, handlers, javascript: URLs)."""
    return nh3.clean(
        html,
        tags=_ALLOWED_TAGS,
        attributes=_ALLOWED_ATTRIBUTES,
        url_schemes=_ALLOWED_URL_SCHEMES,
        filter_style_properties=_ALLOWED_STYLE_PROPERTIES,
        link_rel="noopener noreferrer nofollow",
    )


# Checklist item headings end with an anchor, `### Title (Art. 30(1)(a)) {#a-controller}`, that
# the completeness check reads; readers of HTML, PDF and text never need to see it.
_HEADING_ANCHOR = re.compile(r"^(#{1,6}\s.*?)\s*\{#[\w-]+\}\s*$", re.MULTILINE)


def strip_heading_anchors(markdown: str) -> str:
    return _HEADING_ANCHOR.sub(r"\1", markdown)


def markdown_to_safe_html(markdown: str) -> str:
    """Render Markdown to a sanitized HTML fragment (no <html>/<body>)."""
    return sanitize_html(_markdown_parser().render(strip_heading_anchors(markdown)))


_MARKDOWN_DECORATION = re.compile(r"(\*\*|__|`)")
_HEADING = re.compile(r"^#{1,6}\s+", re.MULTILINE)
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
# A backslash before ASCII punctuation is Markdown's escape (writers escape user text, e.g.
# "SE \& Co. KG"): plain text shows the character itself.
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")


def markdown_to_text(markdown: str) -> str:
    """Plain text for search, e-mail and the `txt` export: Markdown decoration removed."""
    text = _HEADING.sub("", strip_heading_anchors(markdown))
    text = _LINK.sub(r"\1", text)
    # Decoration first: an escaped "\*\*" must stay two literal asterisks.
    return _ESCAPED.sub(r"\1", _MARKDOWN_DECORATION.sub("", text)).strip() + "\n"


PAGE_STYLE = """
body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 11pt; line-height: 1.45;
       color: #1a1a1a; max-width: 52em; margin: 2em auto; padding: 0 1em; }
h1 { font-size: 20pt; } h2 { font-size: 15pt; margin-top: 1.6em; } h3 { font-size: 12pt; }
table { border-collapse: collapse; width: 100%; margin: 0.8em 0; }
th, td { border: 1px solid #999; padding: 4px 6px; vertical-align: top; text-align: left; }
th { background: #eee; }
"""


def render_html_page(markdown: str, *, title: str) -> str:
    """A complete, sanitized HTML page of the document (no script; plain CSS for PDF)."""
    from html import escape

    body = markdown_to_safe_html(markdown)
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n<style>{PAGE_STYLE}</style>\n</head>\n"
        f"<body>\n{body}</body>\n</html>\n"
    )
