"""Each `gdpr` document type with the DRF serializer that validates its create body.

The rules (`gdpr.doctypes`) know nothing of DRF; the app needs, beside the declaration, the
serializer of the type's inputs (create body, OpenAPI schema, admin form). A
`ValidatedDocumentType` is the `gdpr` declaration plus that serializer, so the app's code can
use one object for both. Adding a type: its declaration in `gdpr/doctypes/`, its serializer
module here and one line in _INPUT_SERIALIZERS.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from rest_framework import serializers

from gdpr.doctypes import registry as rules
from gdpr.doctypes.base import DocumentType
from gdpr.doctypes.registry import UnknownDocumentType
from legal_documents.inputs.breach_notification import BreachNotificationInputSerializer
from legal_documents.inputs.data_processing_agreement import (
    DataProcessingAgreementInputSerializer,
)
from legal_documents.inputs.data_subject_request_form import (
    DataSubjectRequestFormInputSerializer,
)
from legal_documents.inputs.dpia import DpiaInputSerializer
from legal_documents.inputs.privacy_policy import PrivacyPolicyInputSerializer
from legal_documents.inputs.record_of_processing import RecordOfProcessingInputSerializer

__all__ = [
    "DOCUMENT_TYPES",
    "UnknownDocumentType",
    "ValidatedDocumentType",
    "get_document_type",
]

_INPUT_SERIALIZERS: dict[str, type[serializers.Serializer]] = {
    "RECORD_OF_PROCESSING": RecordOfProcessingInputSerializer,
    "DPIA": DpiaInputSerializer,
    "PRIVACY_POLICY": PrivacyPolicyInputSerializer,
    "DATA_PROCESSING_AGREEMENT": DataProcessingAgreementInputSerializer,
    "BREACH_NOTIFICATION": BreachNotificationInputSerializer,
    "DATA_SUBJECT_REQUEST_FORM": DataSubjectRequestFormInputSerializer,
}


@dataclass(frozen=True)
class ValidatedDocumentType(DocumentType):
    """A `gdpr` document type and the serializer of its create body."""

    input_serializer: type[serializers.Serializer] = field(kw_only=True)


def _attach(spec: DocumentType) -> ValidatedDocumentType:
    declared = {item.name: getattr(spec, item.name) for item in fields(DocumentType)}
    return ValidatedDocumentType(**declared, input_serializer=_INPUT_SERIALIZERS[spec.name])


# Same names, same order as the rules' registry; a type without a serializer fails at import.
DOCUMENT_TYPES: dict[str, ValidatedDocumentType] = {
    name: _attach(spec) for name, spec in rules.DOCUMENT_TYPES.items()
}
if set(_INPUT_SERIALIZERS) != set(DOCUMENT_TYPES):
    raise ImportError("Every gdpr document type needs exactly one input serializer")


def get_document_type(name: str) -> ValidatedDocumentType:
    """The declaration and input serializer of a type; UnknownDocumentType when there is none."""
    return DOCUMENT_TYPES[rules.get_document_type(name).name]
