"""The guided flow for every document type: answer, draft, finalize; conflicts and roles."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from gdpr.composition.markdown import escape_inline
from gdpr.composition.skeleton import leaves_organization
from gdpr.doctypes.registry import DOCUMENT_TYPES, get_document_type
from legal_documents.models import DocumentVersion, LegalDocument
from tests.support.flow import (
    URL,
    answers_reaching_every_question,
    completed_document,
    run_job,
)

pytestmark = pytest.mark.django_db

# What the conditional answers call for beyond the sample inputs (joint controllers named).
EXTRA_INPUTS = {"RECORD_OF_PROCESSING": {"jointControllers": ["Partner Analytics SAS"]}}


@pytest.mark.parametrize("document_type", sorted(DOCUMENT_TYPES))
def test_answers_draft_and_finalize_make_a_complete_final_document(dpo, document_type):
    spec = get_document_type(document_type)
    document = completed_document(dpo, document_type, **EXTRA_INPUTS.get(document_type, {}))
    answers = answers_reaching_every_question(spec)
    conditional = [q.id for q in spec.questions if q.condition and q.id in answers]
    assert conditional, "every type has a conditional question the flow must reach"

    response = dpo.client.post(
        f"{URL}/{document.pk}/questionnaire/answers",
        {"answers": [{"questionId": key, "answer": value} for key, value in answers.items()]},
        format="json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["answered"] == response.json()["total"] == len(answers)

    drafted = dpo.client.post(f"{URL}/{document.pk}/draft")
    assert drafted.status_code == 202, drafted.content
    assert (drafted.json()["status"], drafted.json()["stage"]) == ("processing", "draft")
    draft = run_job(str(document.pk))
    assert (draft.status, draft.stage, draft.version) == ("completed", "draft", 2)
    # A document read outside the organization (privacy notice, request form, DPA, breach
    # notification, a DPIA submitted under Art. 36) writes the answers into its text but
    # shows no questionnaire working notes.
    outside = leaves_organization(document_type=spec, inputs=document.inputs, answers=answers)
    for question_id in conditional if not outside else ():
        assert escape_inline(spec.question(question_id).text) in draft.content_markdown
    for value in answers.values():
        if isinstance(value, str) and value.startswith("Answer to"):
            assert escape_inline(value) in draft.content_markdown

    final_question = next(q for q in spec.questions if q.answer_type in {"choice", "date"})
    final_value = final_question.options[0] if final_question.options else "2026-12-31"
    finalized = dpo.client.post(
        f"{URL}/{document.pk}/generate",
        {"questionsToFinalize": {final_question.id: final_value}},
        format="json",
    )
    assert finalized.status_code == 202, finalized.content
    assert (finalized.json()["status"], finalized.json()["stage"]) == ("processing", "final")
    final = run_job(str(document.pk))
    assert (final.status, final.stage, final.version) == ("completed", "final", 3)
    assert final.finalize_answers == {final_question.id: final_value}
    assert escape_inline(final_value) in final.content_markdown

    body = dpo.client.get(f"{URL}/{document.pk}").json()
    assert body["stage"] == "final"
    assert body["compliance"] == {"complete": True, "missing": []}
    reasons = list(
        DocumentVersion.objects.filter(document=final).values_list("change_reason", flat=True)
    )
    assert reasons[1:] == ["Draft regenerated with the questionnaire answers", "Finalized"]


def test_finalize_accepts_the_list_form_and_shows_the_answers_in_the_questionnaire(dpo):
    document = completed_document(dpo, "PRIVACY_POLICY")
    response = dpo.client.post(
        f"{URL}/{document.pk}/generate",
        {"questionsToFinalize": [{"questionId": "effectiveDate", "answer": "2026-09-01"}]},
        format="json",
    )
    assert response.status_code == 202, response.content
    run_job(str(document.pk))
    listed = dpo.client.get(f"{URL}/{document.pk}/questionnaire").json()
    effective = next(q for q in listed["questions"] if q["id"] == "effectiveDate")
    assert effective["answer"] == "2026-09-01"


def test_finalize_without_answers_finalizes_with_the_stored_ones(dpo):
    document = completed_document(dpo, "PRIVACY_POLICY")
    assert dpo.client.post(f"{URL}/{document.pk}/generate", {}, format="json").status_code == 202
    assert run_job(str(document.pk)).stage == "final"


def test_invalid_finalize_answers_are_refused_and_nothing_starts(dpo):
    document = completed_document(dpo, "PRIVACY_POLICY")
    response = dpo.client.post(
        f"{URL}/{document.pk}/generate",
        {"questionsToFinalize": {"effectiveDate": "soon", "nope": 1}},
        format="json",
    )
    assert response.status_code == 400
    details = response.json()["error"]["details"]["questionsToFinalize"]
    assert set(details) == {"effectiveDate", "nope"}
    assert LegalDocument.objects.get(pk=document.pk).status == "completed"


def test_a_document_still_processing_refuses_draft_and_finalize_with_409(dpo):
    created = dpo.client.post(
        URL, {"documentType": "PRIVACY_POLICY", "companyName": "Busy GmbH"}, format="json"
    ).json()
    for step in ("draft", "generate"):
        response = dpo.client.post(f"{URL}/{created['id']}/{step}", {}, format="json")
        assert response.status_code == 409
        assert response.json()["error"]["code"] == "CONFLICT"


def test_draft_and_finalize_are_audited(dpo):
    document = completed_document(dpo, "PRIVACY_POLICY")
    dpo.client.post(f"{URL}/{document.pk}/draft")
    run_job(str(document.pk))
    dpo.client.post(f"{URL}/{document.pk}/generate", {}, format="json")
    actions = set(AuditEvent.objects.values_list("action", flat=True))
    assert {"document.draft", "document.finalize"} <= actions


def test_an_auditor_cannot_draft_or_finalize(dpo, auditor):
    document = completed_document(dpo, "PRIVACY_POLICY")
    assert auditor.client.post(f"{URL}/{document.pk}/draft").status_code == 403
    assert auditor.client.post(f"{URL}/{document.pk}/generate", {}).status_code == 403


def test_another_organization_cannot_draft_a_document(dpo, outsider):
    document = completed_document(dpo, "PRIVACY_POLICY")
    assert outsider.client.post(f"{URL}/{document.pk}/draft").status_code == 404
    assert LegalDocument.objects.get(pk=document.pk).status == "completed"
