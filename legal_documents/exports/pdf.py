"""The `pdf` export, rendered by xhtml2pdf (pure Python, no browser or system libraries).

xhtml2pdf draws with one font per element and has no fallback: any letter outside the
base-14 PDF fonts (Latin-1 only) would come out as a box. Every element is therefore set in
DejaVu Sans, vendored in `legal_documents/fonts/` with its licence, which covers accented
Latin (Łódź, Ærø), Greek and Cyrillic.
"""

from __future__ import annotations

import io
from html import escape
from pathlib import Path

from pypdf import PdfReader, PdfWriter
from pypdf.generic import NameObject, TextStringObject
from xhtml2pdf import pisa
from xhtml2pdf.config.resources import ResourceAccessPolicy

from gdpr.i18n import _
from legal_documents.exports.base import LOCALE_TAGS, STAGE_LABELS, ExportMeta, ExportRenderError
from legal_documents.exports.html import metadata_table_html
from legal_documents.exports.risk_map import (
    MARKER_COLOUR,
    body_with_risk_map,
    risk_map_print_table,
)

# Resolved from this file, not the working directory: Celery workers, tests and
# `manage.py` all start from different places.
FONT_DIRECTORY = Path(__file__).resolve().parent.parent / "fonts"
FONT_FAMILY = "DocumentSans"
# (file, bold, italic), most specific face first. xhtml2pdf points every style not yet
# registered at each face it loads, and ReportLab's reverse map (face -> bold/italic, which
# the table of contents uses) keeps the last of those: in this order each face ends up
# mapped to itself. Regular first made every contents entry bold italic.
_FONT_FACES = (
    ("DejaVuSans-BoldOblique.ttf", True, True),
    ("DejaVuSans-Bold.ttf", True, False),
    ("DejaVuSans-Oblique.ttf", False, True),
    ("DejaVuSans.ttf", False, False),
)

# The content is user- and LLM-written: nothing may be fetched over the network, local reads
# are confined to the font directory, and every size/time limit of the server profile holds.
_RESOURCE_POLICY = ResourceAccessPolicy.server(FONT_DIRECTORY, allow_remote=False)


def _font_face_css() -> str:
    rules = []
    for file_name, bold, italic in _FONT_FACES:
        path = (FONT_DIRECTORY / file_name).as_posix()
        rules.append(
            f'@font-face {{ font-family: {FONT_FAMILY}; src: url("{path}");'
            f" font-weight: {'bold' if bold else 'normal'};"
            f" font-style: {'italic' if italic else 'normal'}; }}"
        )
    return "\n".join(rules)


# No flexbox or grid in xhtml2pdf: layout is blocks and plain tables only. Code and pre get
# the text font too, because their default (Courier) would drop non-Latin letters.
_STYLE = f"""
{_font_face_css()}
@page {{
  size: a4 portrait;
  margin: 2cm 2cm 2.4cm 2cm;
  @frame footer {{
    -pdf-frame-content: page-footer;
    bottom: 1cm; margin-left: 2cm; margin-right: 2cm; height: 0.8cm;
  }}
}}
html, body, pre, code, kbd, samp, tt {{ font-family: {FONT_FAMILY}; }}
body {{ font-size: 10pt; line-height: 1.35; color: #1a1a1a; }}
p {{ margin: 0 0 6pt 0; }}
h1 {{ font-size: 17pt; color: #1f3a5f; margin: 14pt 0 6pt 0; }}
h2 {{ font-size: 14pt; color: #1f3a5f; margin: 12pt 0 5pt 0; }}
h3 {{ font-size: 12pt; color: #1f3a5f; margin: 10pt 0 4pt 0; }}
h4, h5, h6 {{ font-size: 10.5pt; margin: 8pt 0 3pt 0; }}
/* Contents and bookmarks list h1-h2 only: a contents page that fits one page keeps the
   render at two passes; with h3 entries a 30-page document needed a third (+35% time). */
h3, h4, h5, h6 {{ -pdf-outline: false; }}
ul, ol {{ margin: 0 0 6pt 0; }}
ul ul, ul ol, ol ul, ol ol {{ margin: 2pt 0 0 14pt; }}
li {{ margin: 0 0 2pt 0; }}
table {{ width: 100%; margin: 4pt 0 8pt 0; }}
th, td {{ border: 0.5pt solid #9aa5b1; padding: 3pt 4pt 1pt 4pt; vertical-align: top;
  font-size: 9pt; }}
th {{ text-align: left; }}
thead th {{ background-color: #e8edf3; font-weight: bold; }}
blockquote {{ margin: 4pt 0 8pt 12pt; color: #444444; }}
pre {{ font-size: 8.5pt; background-color: #f4f6f8; padding: 6pt; }}
code {{ font-size: 9pt; }}
.risk-map-title {{ font-weight: bold; color: #1f3a5f; margin: 8pt 0 2pt 0;
  -pdf-keep-with-next: true; }}
.risk-map-axis {{ font-size: 8.5pt; font-weight: bold; margin: 0 0 2pt 0;
  -pdf-keep-with-next: true; }}
.risk-map-axis-x {{ text-align: right; margin: 2pt 0 4pt 0; }}
table.risk-map-grid {{ width: 100%; margin: 0; }}
table.risk-map-grid td.risk-map-cell {{ border: 1.5pt solid #ffffff; height: 1.5cm;
  width: 20%; font-size: 15pt; text-align: center; vertical-align: middle;
  color: {MARKER_COLOUR}; padding: 2pt; }}
table.risk-map-grid th {{ border: none; background-color: #ffffff; font-size: 8pt;
  font-weight: normal; vertical-align: middle; }}
table.risk-map-grid th.risk-map-tick {{ width: 20%; text-align: right; padding-right: 6pt; }}
table.risk-map-grid th.risk-map-tick-x {{ text-align: center; }}
.risk-map-key {{ font-size: 8.5pt; margin: 0 0 2pt 0; }}
ul.risk-map-risks {{ font-size: 8.5pt; }}
#page-footer {{ font-size: 8pt; color: #666666; }}
.title-organization {{ font-size: 13pt; color: #1f3a5f; margin: 6cm 0 8pt 0; }}
.title-document {{ font-size: 24pt; font-weight: bold; margin: 0 0 24pt 0; line-height: 1.2; }}
.title-meta th, .title-meta td {{ border: none; padding: 2pt 8pt 2pt 0; font-size: 9.5pt; }}
.title-meta th {{ width: 32%; font-weight: normal; color: #555555; background-color: #ffffff;
  text-align: left; }}
.title-meta td.hash {{ font-size: 8pt; }}
.contents-heading {{ font-size: 17pt; font-weight: bold; color: #1f3a5f;
  margin: 0 0 12pt 0; }}
pdftoc.pdftoclevel0 {{ font-weight: bold; margin-top: 4pt; }}
/* Levels inherit from the level above unless told otherwise. */
pdftoc.pdftoclevel1, pdftoc.pdftoclevel2 {{ font-weight: normal; margin-top: 0; }}
"""


def _print_html(markdown: str, meta: ExportMeta) -> str:
    # The title page and the contents heading are paragraphs, not <h1>: only the document's
    # own headings belong in the table of contents and the PDF outline.
    body = body_with_risk_map(markdown, meta.document_type, draw=risk_map_print_table)
    # repeat="1" repeats a long table's header row on every page it spans. The body is the
    # sanitizer's output, where a literal "<table>" can only be a tag (text "<" is escaped).
    body = body.replace("<table>", '<table repeat="1">')
    contents = _("Contents")
    version = (
        ""
        if meta.title_rows
        else f" \N{MIDDLE DOT} v{int(meta.version)}"
        f" \N{MIDDLE DOT} {escape(_(STAGE_LABELS.get(meta.stage, meta.stage)))}"
    )
    footer = f"{escape(meta.document_title)}{version} \N{EN DASH} " + _(
        "Page {number} of {count}",
        number="<pdf:pagenumber/>",
        count="<pdf:pagecount/>",
    )
    return f"""<!DOCTYPE html>
<html lang="{escape(meta.language)}">
<head>
<meta charset="utf-8">
<title>{escape(meta.document_title)} v{int(meta.version)}</title>
<meta name="author" content="{escape(meta.organization_name)}">
<meta name="subject" content="{escape(meta.document_type)}">
<meta name="keywords" content="sha256:{escape(meta.content_sha256)}">
<style>{_STYLE}</style>
</head>
<body>
<div id="page-footer">{footer}</div>
<p class="title-organization">{escape(meta.organization_name)}</p>
<p class="title-document">{escape(meta.document_title)}</p>
<table class="title-meta">
{metadata_table_html(meta)}
</table>
<pdf:nextpage />
<p class="contents-heading">{escape(contents)}</p>
<pdf:toc />
<pdf:nextpage />
{body}
</body>
</html>
"""


def render_pdf(markdown: str, meta: ExportMeta) -> bytes:
    """A4 PDF: title page, contents (h1-h2), body, "Page X of Y" footer on every page.

    Raises `ExportRenderError` when xhtml2pdf reports an error (it returns an error count rather
    than raising for most problems, which would otherwise yield a broken file).
    """
    output = io.BytesIO()
    try:
        status = pisa.CreatePDF(
            _print_html(markdown, meta),
            dest=output,
            encoding="utf-8",
            resource_policy=_RESOURCE_POLICY,
        )
    except Exception as error:  # xhtml2pdf/ReportLab raise many unrelated types
        raise ExportRenderError("pdf", str(error)) from error
    if status.err:
        raise ExportRenderError("pdf", f"xhtml2pdf reported {status.err} error(s)")
    return _with_language(output.getvalue(), meta.language)


def _with_language(pdf: bytes, language: str) -> bytes:
    """The PDF with its catalog's /Lang set (read by screen readers and search indexes).

    xhtml2pdf ignores `<html lang>`; the document catalog entry is what PDF readers use.
    """
    reader = PdfReader(io.BytesIO(pdf))
    writer = PdfWriter(clone_from=reader)
    writer._root_object[NameObject("/Lang")] = TextStringObject(LOCALE_TAGS.get(language, language))
    output = io.BytesIO()
    writer.write(output)
    return output.getvalue()
