"""Exports of a stored document version: choose the version, describe it, render it.

The renderers (`legal_documents.exports`) are pure; this module reads the models and builds
their `ExportMeta`. Used by the export endpoint, the inspection packages and the admin.
"""

from __future__ import annotations

import dataclasses

from django.utils.translation import gettext_noop

from gdpr.composition.skeleton import leaves_organization
from gdpr.doctypes.registry import get_document_type
from gdpr.i18n import _, activate
from legal_documents.exceptions import (
    DocumentHasNoContent,
    ExportFailed,
    UnsupportedFormat,
    VersionNotFound,
)
from legal_documents.exports import (
    EXPORT_FORMATS,
    ExportedFile,
    ExportMeta,
    ExportRenderError,
    UnsupportedExportFormat,
    export_document,
    formats_for,
)
from legal_documents.exports.base import RegisterCells
from legal_documents.models import DocumentVersion, LegalDocument
from legal_documents.questionnaire import answer_values


def document_version(document: LegalDocument, number: int) -> DocumentVersion:
    """Version `number` of the document; VersionNotFound (NOT_FOUND) when there is none."""
    version = document.versions.select_related("author").filter(number=number).first()
    if version is None:
        raise VersionNotFound(number)
    return version


def export_meta(document: LegalDocument, version: DocumentVersion | None = None) -> ExportMeta:
    """What the exported file says about the document (or about one of its versions).

    For a past version, `updated_at` is the time that version was made and the stage and
    hash are that version's, so a printed copy matches the hash chain.
    """
    spec = get_document_type(document.document_type)
    with activate(document.language):
        title = _(spec.title)
    if version is None:
        version_number, stage = document.version, document.stage
        updated_at, content_sha256 = document.updated_at, document.content_sha256
    else:
        version_number, stage = version.number, version.stage
        updated_at, content_sha256 = version.created_at, version.content_sha256
    return ExportMeta(
        organization_name=document.organization.name,
        document_title=title,
        document_type=document.document_type,
        version=version_number,
        stage=stage,
        created_at=document.created_at,
        updated_at=updated_at,
        content_sha256=content_sha256,
        ruleset_version=document.ruleset_version,
        language=document.language,
        external=leaves_organization(
            document_type=spec,
            inputs=document.inputs or {},
            answers=answer_values(document),
            finalize_answers=document.finalize_answers or {},
        ),
    )


def register_cells(document: LegalDocument) -> RegisterCells | None:
    """The register entries the document was written from, as the cells of the record's
    spreadsheet (None for a document written from its create body alone).

    The entries as they are now, not as of the version: the spreadsheet is what a DPO edits
    and imports again, and an import compares with the register as it is (a past version's
    values would undo every change made since). The About sheet's hash is the version's.
    Entries deleted since are left out.
    """
    sources = document.register_sources or {}
    if not sources.get("activities") and not sources.get("vendors"):
        return None
    from register.importing.cells import activity_cells, vendor_cells
    from register.models import ProcessingActivity, Vendor

    activities = ProcessingActivity.objects.filter(
        organization=document.organization, pk__in=list(sources.get("activities", {}))
    ).prefetch_related("vendors")
    vendors = Vendor.objects.filter(
        organization=document.organization, pk__in=list(sources.get("vendors", {}))
    )
    return RegisterCells(
        activities=tuple(activity_cells(activity) for activity in activities),
        vendors=tuple(vendor_cells(vendor) for vendor in vendors),
    )


def legal_document_export(
    *, document: LegalDocument, fmt: str, version_number: int | None = None
) -> ExportedFile:
    """Render the current content, or version `version_number`, as `fmt`.

    Raises: UnsupportedFormat VALIDATION_ERROR (400, details list the formats valid for the
    document's type) for an unknown format or one its type does not have (xlsx: the record
    of processing only), NOT_FOUND (404) for an unknown version, CONFLICT (409) when the
    document has no content yet, CONVERSION_FAILED (422, details `{originalFormat,
    targetFormat}`) when the renderer fails.
    """
    allowed = formats_for(document.document_type)
    normalized = (fmt or "").strip().lower()
    if normalized not in allowed:
        message = f"Unsupported export format {fmt!r}; use one of: {', '.join(allowed)}."
        if normalized in EXPORT_FORMATS:  # a format of other types (xlsx: the record only)
            message = (
                f"A {document.document_type} document cannot be exported as {normalized};"
                f" use one of: {', '.join(allowed)} (xlsx is for RECORD_OF_PROCESSING)."
            )
        raise UnsupportedFormat(
            message,
            details={
                "format": [f"Must be one of: {', '.join(allowed)}."],
                "validFormats": list(allowed),
            },
        )
    if version_number is not None:
        version = document_version(document, version_number)
        markdown, meta = version.content_markdown, export_meta(document, version)
    elif not document.has_content:
        raise DocumentHasNoContent(
            gettext_noop("The document has no content yet; export it once it is completed.")
        )
    else:
        markdown, meta = document.content_markdown, export_meta(document)
    if normalized == "xlsx":
        meta = dataclasses.replace(meta, register=register_cells(document))
    try:
        return export_document(markdown, meta, fmt)
    except UnsupportedExportFormat as error:  # checked above; kept for a renderer's own check
        raise UnsupportedFormat(str(error)) from error
    except ExportRenderError as error:
        raise ExportFailed(str(error), details=error.details) from error
