"""`compose()`: the template provider's whole document in one call."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Unpack

from gdpr.composition.context import CompositionOptions
from gdpr.composition.register import compose_register, is_register_inputs
from gdpr.composition.skeleton import document_skeleton
from gdpr.i18n import activate

if TYPE_CHECKING:
    from gdpr.doctypes.base import DocumentType


def compose(
    *,
    document_type: DocumentType,
    inputs: Mapping[str, Any],
    language: str | None = None,
    **options: Unpack[CompositionOptions],
) -> str:
    """The document as Markdown, written from validated inputs and answers.

    Deterministic: the same arguments (with the same `now`) give the same text. Every checklist
    item gets its own anchored heading and is either written from the inputs and the rule-based
    assessments or marked `**[To be completed]**` with what is needed. User values are escaped.
    `inputs` are the serializer's validated data (companyName should hold the resolved client
    company's name when clientCompanyId was given); `options` (`CompositionOptions`) are the
    answers, finalize answers, organization name, `sources` (listed in an annex) and `now`.
    `language` (en, de, fr, es, it; None keeps the active one, English by default) is the
    language of every text the template writes; user values stay as given. A record of
    processing whose inputs carry `registerActivities` is the whole register
    (`gdpr.composition.register`): one section per activity.
    """
    if document_type.name == "RECORD_OF_PROCESSING" and is_register_inputs(inputs):
        with activate(language):
            return compose_register(document_type=document_type, inputs=inputs, **options)
    return document_skeleton(document_type, inputs, language=language, **options).markdown
