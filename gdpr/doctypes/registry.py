"""The one place that maps a `documentType` name to its declaration.

Adding a type: write its module (declarations + writers) and add one line to _MODULES; the app
attaches the DRF serializer of its create body in `legal_documents/inputs/registry.py`.
"""

from __future__ import annotations

from gdpr.doctypes import (
    breach_notification,
    data_processing_agreement,
    data_subject_request_form,
    dpia,
    privacy_policy,
    record_of_processing,
)
from gdpr.doctypes.base import DocumentType

_MODULES = (
    record_of_processing,
    dpia,
    privacy_policy,
    data_processing_agreement,
    breach_notification,
    data_subject_request_form,
)

DOCUMENT_TYPES: dict[str, DocumentType] = {
    module.DOCUMENT_TYPE.name: module.DOCUMENT_TYPE for module in _MODULES
}


class UnknownDocumentType(KeyError, ValueError):  # noqa: N818 - name fixed by the contract
    """Raised for a `documentType` the registry does not know (API: 400)."""

    def __init__(self, name: object) -> None:
        super().__init__(name)
        self.name = name

    def __str__(self) -> str:
        known = ", ".join(DOCUMENT_TYPES)
        return f"Unknown documentType {self.name!r}; expected one of: {known}"


def get_document_type(name: str) -> DocumentType:
    """The declaration of a document type; UnknownDocumentType when there is none."""
    try:
        return DOCUMENT_TYPES[name]
    except (KeyError, TypeError):
        raise UnknownDocumentType(name) from None
