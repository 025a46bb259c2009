"""Starting a review: validate what it reads, save it `processing`, queue it on commit.

The run happens in a worker (reviews.running, reviews.tasks): the web only checks the
asset, the document type, the report's language and the vendor, records the audit event
and queues the review's lease (common.background) so that its task is sent once the
transaction commits.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db import transaction

from assets.models import Asset
from audit.services import Actor, record_event
from common.background import leases
from gdpr.i18n import COMPLETE_LANGUAGES, DEFAULT_LANGUAGE
from gdpr.review.engine import REVIEWABLE_TYPES
from legal_documents.exceptions import ExportFailed, UnsupportedFormat
from legal_documents.exports import ExportRenderError, UnsupportedExportFormat
from legal_documents.models import LegalDocument
from organizations.foreign_ids import UnknownReference
from organizations.models import Organization
from register.models import Vendor
from reviews.exceptions import UnknownReviewInput
from reviews.exports import ReviewExport, export_review
from reviews.models import Review
from reviews.running import STAGE_QUEUED
from reviews.work import REVIEW

ASSET_ID = "assetId"
VENDOR_ID = "vendorId"


def organization_language(organization: Organization) -> str:
    """The language the organization writes in: that of its newest document, else English.

    (An organization has no language setting of its own; its documents say which one it
    uses.)
    """
    language = (
        LegalDocument.objects.filter(organization=organization)
        .order_by("-created_at")
        .values_list("language", flat=True)
        .first()
    )
    return language if language in COMPLETE_LANGUAGES else DEFAULT_LANGUAGE


def reviewable_type_message(document_type: str) -> str:
    return (
        f"{document_type!r} is not a document type a review knows; accepted: "
        f"{', '.join(REVIEWABLE_TYPES)}."
    )


def language_message(language: str) -> str:
    return f"Unsupported language {language!r}; accepted: {', '.join(COMPLETE_LANGUAGES)}."


@transaction.atomic
def review_create(
    *,
    organization: Organization,
    actor: Actor,
    asset_id: Any,
    document_type: str,
    language: str | None = None,
    vendor_id: Any = None,
    requested_by: Any = None,
) -> Review:
    """Save a review `processing` of one of the organization's assets; queued on commit.

    Raises UnknownReviewInput (400 VALIDATION_ERROR, `details` naming the field) for an
    asset or vendor that is not the organization's (another organization's id is refused
    like one that exists nowhere; the view records it in both trails), a document type not
    in REVIEWABLE_TYPES, or a language not in COMPLETE_LANGUAGES. `language` (the report's)
    defaults to the organization's (`organization_language`). The asset may still be
    processing: the review waits for it.
    """
    if document_type not in REVIEWABLE_TYPES:
        raise UnknownReviewInput(
            field="documentType", message=reviewable_type_message(document_type)
        )
    if language is None:
        language = organization_language(organization)
    elif language not in COMPLETE_LANGUAGES:
        raise UnknownReviewInput(field="language", message=language_message(language))
    asset = _own(Asset, organization, asset_id, field=ASSET_ID, object_type="asset")
    vendor = None
    if vendor_id is not None:
        vendor = _own(Vendor, organization, vendor_id, field=VENDOR_ID, object_type="vendor")
    review = Review(
        organization=organization,
        asset=asset,
        vendor=vendor,
        document_type=document_type,
        language=language,
        stage=STAGE_QUEUED,
        requested_by=requested_by,
    )
    leases.queue(REVIEW, review)  # saves the new row; its task is sent once committed
    record_event(
        organization=organization,
        actor=actor,
        action="review.create",
        object_type="review",
        object_id=review.pk,
        details={
            "documentType": document_type,
            "language": language,
            "assetId": str(asset.pk),
            "vendorId": str(vendor.pk) if vendor is not None else None,
        },
    )
    return review


def _own(model: Any, organization: Organization, pk: Any, *, field: str, object_type: str) -> Any:
    """The organization's object of that id, else UnknownReviewInput naming `field`."""
    try:
        key = uuid.UUID(str(pk))
    except ValueError:  # a malformed id exists nowhere
        found = None
    else:
        found = model.objects.filter(organization=organization, pk=key).first()
    if found is None:
        raise UnknownReviewInput(
            field=field,
            message=f"No {object_type} of your organization with id {pk}.",
            references=(
                UnknownReference(model=model, ids=(str(pk),), object_type=object_type, field=field),
            ),
        )
    return found


def review_export(*, review: Review, fmt: str) -> ReviewExport:
    """The review's report as a file (md, html, pdf, docx), with the API's errors.

    Raises UnsupportedFormat (400 VALIDATION_ERROR, naming the formats) and ExportFailed
    (422 CONVERSION_FAILED) like a document's export.
    """
    try:
        return export_review(review, fmt)
    except UnsupportedExportFormat as error:
        raise UnsupportedFormat(str(error)) from error
    except ExportRenderError as error:
        raise ExportFailed(str(error), details=error.details) from error
