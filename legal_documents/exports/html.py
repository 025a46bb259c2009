"""The `html` export: one self-contained, print-ready page.

The page carries its own CSS and nothing else (no scripts, fonts or images to fetch), so a
DPO can open it from disk, archive it, or print it to paper or PDF from any browser.
"""

from __future__ import annotations

from html import escape

from gdpr.i18n import _
from legal_documents.exports.base import HASH_LABEL, ExportMeta, metadata_rows
from legal_documents.exports.risk_map import body_with_risk_map, risk_map_figure

# The file is opened from disk or an e-mail, outside the API's own headers: the policy
# travels inside it. Inline styles are all it needs; scripts stay blocked even if one ever
# slipped past the sanitizer.
_CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'"

_STYLE = """
:root { color-scheme: light; }
* { box-sizing: border-box; }
body {
  margin: 0 auto; max-width: 52rem; padding: 2rem 1.5rem 4rem;
  font-family: "DejaVu Sans", "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  font-size: 11pt; line-height: 1.5; color: #1a1a1a; background: #fff;
}
.document-header {
  border-bottom: 2px solid #1f3a5f; margin-bottom: 2rem; padding-bottom: 1rem;
}
.document-header .organization {
  margin: 0; font-size: 0.95rem; letter-spacing: 0.04em; text-transform: uppercase;
  color: #1f3a5f;
}
.document-header .title { margin: 0.25rem 0 1rem; font-size: 1.8rem; font-weight: bold; }
.document-meta { border-collapse: collapse; font-size: 0.85rem; }
.document-meta th, .document-meta td {
  border: none; padding: 0.15rem 1rem 0.15rem 0; text-align: left; vertical-align: top;
}
.document-meta th { font-weight: normal; color: #555; white-space: nowrap; }
.document-meta .hash { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace;
  word-break: break-all; }
.document-body h1, .document-body h2, .document-body h3 {
  color: #1f3a5f; line-height: 1.25; margin: 1.6em 0 0.5em;
}
.document-body h1 { font-size: 1.6rem; }
.document-body h2 { font-size: 1.3rem; }
.document-body h3 { font-size: 1.1rem; }
.document-body table { border-collapse: collapse; width: 100%; margin: 1em 0; font-size: 0.9rem; }
.document-body th, .document-body td {
  border: 1px solid #b8c2cc; padding: 0.3rem 0.5rem; vertical-align: top;
}
.document-body thead th { background: #e8edf3; }
.document-body blockquote { margin: 1em 0; padding-left: 1em; border-left: 3px solid #b8c2cc;
  color: #444; }
.document-body pre { background: #f4f6f8; padding: 0.75em; overflow-x: auto;
  white-space: pre-wrap; }
.document-body a { color: #1f3a5f; }
.risk-map { margin: 1em 0 1.5em; break-inside: avoid; page-break-inside: avoid; }
.risk-map figcaption { font-weight: bold; color: #1f3a5f; margin-bottom: 0.4em; }
.risk-map-grid { display: block; width: 100%; max-width: 36rem; height: auto; }
.risk-map-key { margin: 0.3em 0; font-size: 0.85rem; }
.risk-map-key-item { margin-right: 1.2em; white-space: nowrap; }
.risk-map-key svg { vertical-align: middle; }
.risk-map-risks { margin: 0.4em 0 0; font-size: 0.85rem; }
@page { size: A4; margin: 20mm 18mm 22mm; }
@media print {
  body { max-width: none; padding: 0; font-size: 10.5pt; }
  .document-header { break-after: avoid; }
  h1, h2, h3, h4 { break-after: avoid; page-break-after: avoid; }
  table, blockquote, pre { break-inside: avoid; }
  tr { break-inside: avoid; page-break-inside: avoid; }
  thead { display: table-header-group; }
  a { color: inherit; text-decoration: none; }
}
"""


def metadata_table_html(meta: ExportMeta) -> str:
    """The metadata as `<tr>` rows, every value escaped (names and titles are user input)."""
    rows = []
    for label, value in metadata_rows(meta):
        css_class = ' class="hash"' if label == _(HASH_LABEL) else ""
        rows.append(f"<tr><th>{escape(label)}</th><td{css_class}>{escape(value)}</td></tr>")
    return "\n".join(rows)


def render_html(markdown: str, meta: ExportMeta) -> str:
    """A complete HTML5 page: header block with the metadata, then the sanitized body.

    Every metadata value is HTML-escaped; the body comes from `markdown_to_safe_html`, so raw
    HTML in the Markdown is shown as text and nothing active reaches the page. A DPIA gets
    its risk map (inline SVG) after its risks tables.
    """
    title = f"{meta.document_title} v{int(meta.version)} \N{EM DASH} {meta.organization_name}"
    return f"""<!DOCTYPE html>
<html lang="{escape(meta.language)}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{escape(_CONTENT_SECURITY_POLICY)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{escape(title)}</title>
<style>{_STYLE}</style>
</head>
<body>
<header class="document-header">
<p class="organization">{escape(meta.organization_name)}</p>
<p class="title">{escape(meta.document_title)}</p>
<table class="document-meta">
{metadata_table_html(meta)}
</table>
</header>
<main class="document-body">
{body_with_risk_map(markdown, meta.document_type, draw=risk_map_figure)}
</main>
</body>
</html>
"""
