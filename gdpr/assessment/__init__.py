"""The legal conclusions of a document as data: codes, numbers and ISO dates, never text.

`assess()` reads the inputs and answers exactly as the writers do (`build_context`: normalised
inputs, the answers to questions that are asked, the type's own `assess`) and gives back what
the rules concluded, in a shape that does not depend on the language of the document or of
the DPO's wording: the same facts written in English, German, French, Spanish or Italian
must give the same assessment once each concept's `wording` is set aside
(tests/legal_documents/test_invariance.py). Shape (camelCase keys, as the API):

- `documentType`;
- `concepts`: `{field, wording, scheme, code}` for each wording the rules recognised (data
  categories and their Art. 9/10 group, security-measure families, legal bases, Art. 9(2)
  conditions, transfer mechanisms, recipient roles, countries); `unclassified`:
  `{field, wording, scheme}` for each wording no concept of that scheme names;
- `ratings`: DPIA `risks` (CNIL severity/likelihood before and after measures), breach
  `{riskLevel}`;
- `decisions`: e.g. `dpiaRequired`, `art36PriorConsultation`, `art33Notification`,
  `art34Communication`, `specialCategoriesWithoutCondition` (None: not decidable from the
  inputs, the document then asks);
- `transfers`: `{country, recipient, mechanism, adequacy, needsSafeguard}`;
- `deadlines`: ISO datetimes (breach) or dates (data subject request).

Every list is sorted and holds each entry once. A record of processing written from the whole
register (`registerActivities`) also has `activities`: one assessment per activity.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from gdpr.assessment.concepts import (
    Collector,
    collect_data_categories,
    collect_legal_bases,
    collect_measures,
    collect_transfer_terms,
)
from gdpr.assessment.conclusions import CONCLUDERS, Conclusions, sensitive_decisions
from gdpr.assessment.transfers import transfer_entries
from gdpr.composition.register import REGISTER_ACTIVITIES, is_register_inputs
from gdpr.composition.skeleton import build_context
from gdpr.doctypes.base import DocumentType
from gdpr.doctypes.registry import get_document_type
from gdpr.i18n import activate

__all__ = ["assess"]

# Register facts an activity inherits from the organization (as compose_register does).
_SHARED_REGISTER_KEYS = ("companyName", "companyDetails", "dpoContact", "representative")


def assess(
    *,
    document_type: str | DocumentType,
    inputs: Mapping[str, Any],
    answers: Mapping[str, Any] | None = None,
    now: datetime | None = None,
) -> dict[str, Any]:
    """The language-neutral assessment of a document's inputs and answers (JSON-ready).

    Deterministic for the same arguments (`now` defaults to the current time; only deadlines
    passed or not depend on it). `answers` are the questionnaire answers `{questionId: value}`
    (finalize answers merged over them); an answer to a question not asked is ignored, as in
    composition. Raises UnknownDocumentType for a type the registry does not know; never
    raises on inputs validation accepted.
    """
    spec = get_document_type(document_type) if isinstance(document_type, str) else document_type
    # Assessors phrase their reasons; in one fixed language none of that can leak into codes.
    with activate("en"):
        if spec.name == "RECORD_OF_PROCESSING" and is_register_inputs(inputs):
            return _register(spec, inputs, answers, now)
        return _assess_one(spec, inputs, answers, now)


def _assess_one(
    spec: DocumentType,
    inputs: Mapping[str, Any],
    answers: Mapping[str, Any] | None,
    now: datetime | None,
) -> dict[str, Any]:
    context = build_context(document_type=spec, inputs=inputs, answers=answers, now=now)
    found = Collector()
    collect_data_categories(context, found)
    collect_measures(context, found)
    collect_legal_bases(context, inputs, found)
    collect_transfer_terms(context, found)
    concluder = CONCLUDERS.get(spec.name)
    conclusions = concluder(context) if concluder else Conclusions()
    decisions = dict(conclusions.decisions)
    # The Art. 9(2)/Art. 10 conclusion belongs to the types with that checklist item.
    if any(item.id == "special-categories" for item in spec.checklist):
        decisions.update(sensitive_decisions(context))
    transfers = transfer_entries(context)
    if transfers:
        decisions["transfersWithoutSafeguard"] = sum(1 for t in transfers if t["needsSafeguard"])
    return {
        "documentType": spec.name,
        "concepts": found.concepts(),
        "unclassified": found.unclassified(),
        "ratings": conclusions.ratings,
        "decisions": dict(sorted(decisions.items())),
        "transfers": transfers,
        "deadlines": dict(sorted(conclusions.deadlines.items())),
    }


def _register(
    spec: DocumentType,
    inputs: Mapping[str, Any],
    answers: Mapping[str, Any] | None,
    now: datetime | None,
) -> dict[str, Any]:
    organization = {key: value for key, value in inputs.items() if key != REGISTER_ACTIVITIES}
    shared = {key: organization[key] for key in _SHARED_REGISTER_KEYS if key in organization}
    result = _assess_one(spec, organization, answers, now)
    result["activities"] = [
        _assess_one(spec, {**shared, **activity}, answers, now)
        for activity in inputs.get(REGISTER_ACTIVITIES) or []
        if isinstance(activity, Mapping)
    ]
    return result
