"""The GDPR rules engine: document types, checklists, writers, assessments, completeness.

Pure Python: no Django, no DRF, no models, no import from the apps (enforced by the
import-linter contracts in pyproject.toml and by tests/gdpr/test_framework_free.py). The app
validates request bodies at its edge (`legal_documents.inputs`) and hands the validated data
to `compose()`.

    import gdpr
    markdown = gdpr.compose(document_type=gdpr.get_document_type("DPIA"), inputs={...})
"""

from gdpr.composition import (
    TO_BE_COMPLETED,
    CompletenessReport,
    CompositionContext,
    SourceRef,
    completeness_report,
    compose,
    document_skeleton,
    ensure_checklist,
    missing_items,
)
from gdpr.doctypes.base import ChecklistItem, DocumentType, Question, Section
from gdpr.doctypes.registry import DOCUMENT_TYPES, UnknownDocumentType, get_document_type

__all__ = [
    "DOCUMENT_TYPES",
    "TO_BE_COMPLETED",
    "ChecklistItem",
    "CompletenessReport",
    "CompositionContext",
    "DocumentType",
    "Question",
    "Section",
    "SourceRef",
    "UnknownDocumentType",
    "completeness_report",
    "compose",
    "document_skeleton",
    "ensure_checklist",
    "get_document_type",
    "missing_items",
]
