"""Types and helpers every export format shares.

Nothing here touches Django: the view reads a document version and hands its Markdown and an
`ExportMeta` to `legal_documents.exports.export_document`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime

from gdpr.i18n import DEFAULT_LANGUAGE, N_, _

# The BCP 47 tag a word processor needs for spelling and hyphenation, per document language.
LOCALE_TAGS = {"en": "en-GB", "de": "de-DE", "fr": "fr-FR", "es": "es-ES", "it": "it-IT"}
HASH_LABEL = N_("Content SHA-256")
_RULESET_LABEL = N_("Ruleset version")


@dataclass(frozen=True, slots=True)
class ExportMeta:
    """What an exported file says about the document besides its Markdown.

    `created_at` and `updated_at` are shown in ISO 8601 UTC; a naive datetime is taken to be
    UTC already (Django stores UTC with USE_TZ). `content_sha256` is the hex SHA-256 of the
    version's Markdown, so a reader can check a printed copy against the hash chain.
    """

    organization_name: str
    document_title: str
    document_type: str
    version: int
    stage: str
    created_at: datetime
    updated_at: datetime
    content_sha256: str
    ruleset_version: str
    # The document's language: `lang` of the HTML/PDF page, the DOCX language, the labels.
    language: str = DEFAULT_LANGUAGE
    # The document leaves the organization (a DPA, a breach notification, a DPIA submitted
    # for prior consultation): like a public one, its file shows no rule set.
    external: bool = False
    # A file that is not a version of a document (a review's report, reviews.exports): its
    # title block shows these (label, value) rows, labels already in the file's language,
    # instead of the version's, and its PDF footer names no version.
    title_rows: tuple[tuple[str, str], ...] = ()
    # The record of processing's XLSX: the register entries it was written from, as cells
    # (register.importing.cells), so that the spreadsheet imports back losslessly.
    register: RegisterCells | None = None


@dataclass(frozen=True, slots=True)
class RegisterCells:
    """Register entries as the cells of their rows: field name -> text or date (`role` and
    `dpa_status` as codes, which the XLSX writes as labels in the document's language)."""

    activities: tuple[dict[str, object], ...] = ()
    vendors: tuple[dict[str, object], ...] = ()


@dataclass(frozen=True, slots=True)
class ExportedFile:
    """An export ready to send: bytes, the Content-Type header and a safe download name."""

    content: bytes
    content_type: str
    filename: str


class UnsupportedExportFormat(ValueError):  # noqa: N818 -- the name the views and API docs use
    """The requested format is not one of `valid_formats`.

    `code` is the API error code the view should answer with (400 VALIDATION_ERROR).
    """

    code = "VALIDATION_ERROR"

    def __init__(self, requested: str, valid_formats: tuple[str, ...]) -> None:
        self.requested = requested
        self.valid_formats = valid_formats
        super().__init__(
            f"Unsupported export format {requested!r}; use one of: {', '.join(valid_formats)}"
        )


class ExportRenderError(RuntimeError):
    """A renderer could not produce the file (a bug or a limit hit, not bad user input).

    `code` and `details` follow the API's CONVERSION_FAILED error (422).
    """

    code = "CONVERSION_FAILED"

    def __init__(self, target_format: str, reason: str) -> None:
        self.details = {"originalFormat": "md", "targetFormat": target_format}
        super().__init__(f"Could not export the document as {target_format}: {reason}")


def format_timestamp(moment: datetime) -> str:
    """ISO 8601 in UTC with a `Z`, to the second, as the API shows timestamps."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def metadata_rows(meta: ExportMeta) -> list[tuple[str, str]]:
    """Label/value pairs of the title block, in the order every format shows them.

    Values are plain text; each renderer escapes them for its own output. A document read
    by data subjects (privacy notice, request form) does not show the rule set: it stays in
    the API's metadata (`rulesetVersion`), like the completeness report. Labels are in the
    active language (`export_document` activates the document's).
    """
    if meta.title_rows:
        return list(meta.title_rows)
    rows = [
        (N_("Organization"), meta.organization_name),
        (N_("Document"), meta.document_title),
        (N_("Document type"), meta.document_type),
        (N_("Version"), str(meta.version)),
        (N_("Stage"), _(STAGE_LABELS.get(meta.stage, meta.stage))),
        (N_("Created (UTC)"), format_timestamp(meta.created_at)),
        (N_("Last updated (UTC)"), format_timestamp(meta.updated_at)),
        (HASH_LABEL, meta.content_sha256),
        (_RULESET_LABEL, meta.ruleset_version),
    ]
    if shows_no_ruleset(meta):
        rows = [row for row in rows if row[0] != _RULESET_LABEL]
    return [(_(label), value) for label, value in rows]


STAGE_LABELS = {"draft": N_("Draft"), "final": N_("Final")}


def shows_no_ruleset(meta: ExportMeta) -> bool:
    """True when the file leaves the organization: no rule set in its title block."""
    from gdpr.doctypes.registry import DOCUMENT_TYPES

    found = DOCUMENT_TYPES.get(meta.document_type)
    return meta.external or bool(found and (found.public or found.external))


_NOT_SLUG = re.compile(r"[^a-z0-9]+")


def slugify_ascii(value: str, *, fallback: str = "document") -> str:
    """Lowercase ASCII letters, digits and hyphens only.

    Download names end up in a Content-Disposition header and on the user's disk: quotes,
    slashes, control characters or non-ASCII letters there invite header injection, path
    tricks and mangled names in some browsers, so they are folded away (`Ł` has no
    decomposition and is dropped; `ü` becomes `u`).
    """
    ascii_text = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode("ascii")
    slug = _NOT_SLUG.sub("-", ascii_text.lower()).strip("-")[:60].strip("-")
    return slug or fallback


def export_filename(meta: ExportMeta, extension: str) -> str:
    """`<type>-v<version>.<extension>`, e.g. `dpia-v3.pdf`."""
    return f"{slugify_ascii(meta.document_type)}-v{int(meta.version)}.{extension}"
