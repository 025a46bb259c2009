"""Document generation without Django models: compose, check completeness, repair.

Public API:
- `compose(...) -> str`: the template provider's Markdown;
- `document_skeleton(...) -> DocumentSkeleton`: the same, section by section, for an LLM writer;
- `completeness_report(...)`, `missing_items(...)`: checks computed from Markdown text;
- `ensure_checklist(...)`: puts back items another writer dropped.
"""

from gdpr.composition.completeness import (
    CompletenessReport,
    ItemStatus,
    completeness_report,
    missing_items,
)
from gdpr.composition.compose import compose
from gdpr.composition.context import CompositionContext, SourceRef
from gdpr.composition.ensure import ensure_checklist
from gdpr.composition.markdown import TO_BE_COMPLETED
from gdpr.composition.skeleton import (
    DocumentSkeleton,
    ItemDraft,
    SectionDraft,
    document_skeleton,
)

__all__ = [
    "TO_BE_COMPLETED",
    "CompletenessReport",
    "CompositionContext",
    "DocumentSkeleton",
    "ItemDraft",
    "ItemStatus",
    "SectionDraft",
    "SourceRef",
    "completeness_report",
    "compose",
    "document_skeleton",
    "ensure_checklist",
    "missing_items",
]
