"""The questionnaire endpoints: questions with conditions, answers, validation, roles."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from gdpr.doctypes.registry import get_document_type
from legal_documents.models import LegalDocument
from tests.support.flow import URL, completed_document

pytestmark = pytest.mark.django_db


def questionnaire(caller, document):  # type: ignore[no-untyped-def]
    response = caller.client.get(f"{URL}/{document.pk}/questionnaire")
    assert response.status_code == 200, response.content
    return response.json()


def answer(caller, document, question_id, value):  # type: ignore[no-untyped-def]
    return caller.client.post(
        f"{URL}/{document.pk}/questionnaire/answers",
        {"questionId": question_id, "answer": value},
        format="json",
    )


def test_the_questionnaire_lists_the_questions_with_their_shape_and_progress(dpo):
    document = completed_document(dpo, "PRIVACY_POLICY")
    body = questionnaire(dpo, document)
    ids = [question["id"] for question in body["questions"]]
    assert "childrenData" in ids
    assert "parentalConsentMethod" not in ids  # only asked when children's data is processed
    channel = next(q for q in body["questions"] if q["id"] == "rightsRequestChannel")
    assert channel == {
        "id": "rightsRequestChannel",
        "text": "How should data subjects send requests?",
        "help": "Make exercising rights easy.",
        "article": "Art. 12(2)",
        "required": True,
        "answerType": "choice",
        "options": ["E-mail", "Web form", "Postal mail", "Any of these"],
        "optionLabels": ["E-mail", "Web form", "Postal mail", "Any of these"],
        "answer": None,
    }
    assert {q["answerType"] for q in body["questions"]} == {
        "boolean", "choice", "date", "multiChoice", "text",
    }  # fmt: skip
    assert body == {**body, "answered": 0, "total": len(ids)}


def test_an_answer_is_stored_with_its_time_and_moves_the_progress(dpo):
    document = completed_document(dpo, "PRIVACY_POLICY")
    response = answer(dpo, document, "rightsRequestChannel", "Web form")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["questionId"] == "rightsRequestChannel"
    assert body["answer"] == "Web form"
    assert body["answeredAt"].endswith("Z")
    assert body["answered"] == 1
    stored = LegalDocument.objects.get(pk=document.pk).answers
    assert stored == {
        "rightsRequestChannel": {"answer": "Web form", "answeredAt": body["answeredAt"]}
    }
    listed = questionnaire(dpo, document)
    assert listed["answered"] == 1
    assert next(q for q in listed["questions"] if q["id"] == "rightsRequestChannel")["answer"] == (
        "Web form"
    )


def test_a_conditional_question_appears_and_counts_once_its_condition_holds(dpo):
    document = completed_document(dpo, "PRIVACY_POLICY")
    total_before = questionnaire(dpo, document)["total"]
    body = answer(dpo, document, "childrenData", True).json()
    assert body["total"] == total_before + 1
    ids = [q["id"] for q in questionnaire(dpo, document)["questions"]]
    assert ids.index("parentalConsentMethod") == ids.index("childrenData") + 1
    assert answer(dpo, document, "childrenData", False).json()["total"] == total_before


def test_several_answers_are_stored_at_once_with_the_list_form(dpo):
    document = completed_document(dpo, "DPIA")
    response = dpo.client.post(
        f"{URL}/{document.pk}/questionnaire/answers",
        {"answers": [
            {"questionId": "dataMinimisation", "answer": False},
            {"questionId": "minimisationPlan", "answer": "Drop the birth date by Q3."},
            {"questionId": "rightsChannels", "answer": ["E-mail", "Web form"]},
            {"questionId": "nextReviewDate", "answer": "2027-01-15"},
        ]},
        format="json",
    )  # fmt: skip
    assert response.status_code == 200, response.content
    body = response.json()
    assert [entry["questionId"] for entry in body["answers"]] == [
        "dataMinimisation", "minimisationPlan", "rightsChannels", "nextReviewDate",
    ]  # fmt: skip
    assert body["answered"] == 4


@pytest.mark.parametrize(
    ("question_id", "value"),
    [
        ("childrenData", "maybe"),  # boolean needs true/false (or yes/no as a string)
        ("rightsRequestChannel", "Carrier pigeon"),  # choice outside the options
        ("automatedDecisionSafeguards", "Magic"),  # a string must name options
        ("automatedDecisionSafeguards", ["Human review on request", "Magic"]),
        ("effectiveDate", "next Monday"),  # not an ISO date
        ("effectiveDate", "2026-02-30"),
        ("consentWithdrawalMethod", 42),  # text must be a string
        ("consentWithdrawalMethod", "   "),
    ],
)
def test_an_answer_of_the_wrong_type_is_a_validation_error(dpo, question_id, value):
    document = completed_document(dpo, "PRIVACY_POLICY")
    response = answer(dpo, document, question_id, value)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "VALIDATION_ERROR"
    assert list(error["details"]) == [question_id]
    assert LegalDocument.objects.get(pk=document.pk).answers == {}


@pytest.mark.parametrize(
    ("question_id", "sent", "stored"),
    [
        ("childrenData", "yes", True),
        ("childrenData", "False", False),
        ("rightsRequestChannel", "E-mail", "E-mail"),
        ("automatedDecisionSafeguards", "Human review on request", ["Human review on request"]),
        ("effectiveDate", "2026-04-01", "2026-04-01"),
    ],
)
def test_every_question_takes_its_answer_as_a_string_as_the_specification_sends_it(
    dpo, question_id, sent, stored
):
    """SEED.md "Questionnaire answer body": `answer` is a string, whatever the question."""
    document = completed_document(dpo, "PRIVACY_POLICY")
    response = answer(dpo, document, question_id, sent)
    assert response.status_code == 200, response.content
    assert LegalDocument.objects.get(pk=document.pk).answers[question_id]["answer"] == stored


def test_an_unknown_question_is_a_validation_error(dpo):
    document = completed_document(dpo, "PRIVACY_POLICY")
    response = answer(dpo, document, "favouriteColour", "blue")
    assert response.status_code == 400
    assert response.json()["error"]["details"] == {
        "favouriteColour": ["Unknown question for PRIVACY_POLICY."]
    }


def test_an_overlong_text_answer_is_content_too_long(dpo):
    document = completed_document(dpo, "PRIVACY_POLICY")
    response = answer(dpo, document, "consentWithdrawalMethod", "x" * 100_001)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "CONTENT_TOO_LONG"


def test_a_body_without_question_id_is_a_validation_error(dpo):
    document = completed_document(dpo, "PRIVACY_POLICY")
    response = dpo.client.post(
        f"{URL}/{document.pk}/questionnaire/answers", {"answer": True}, format="json"
    )
    assert response.status_code == 400
    assert "questionId" in response.json()["error"]["details"]


def test_a_null_answer_clears_the_stored_answer(dpo):
    document = completed_document(dpo, "PRIVACY_POLICY")
    answer(dpo, document, "publicSources", True)
    body = answer(dpo, document, "publicSources", None).json()
    assert body["answer"] is None
    assert body["answered"] == 0
    assert LegalDocument.objects.get(pk=document.pk).answers == {}


def test_answering_is_audited(dpo):
    document = completed_document(dpo, "PRIVACY_POLICY")
    answer(dpo, document, "publicSources", False)
    event = AuditEvent.objects.get(action="document.answer")
    assert event.object_id == str(document.pk)
    assert event.details == {"questionIds": ["publicSources"]}


def test_an_auditor_reads_the_questionnaire_but_cannot_answer(dpo, auditor):
    document = completed_document(dpo, "PRIVACY_POLICY")
    assert questionnaire(auditor, document)["total"] > 0
    response = answer(auditor, document, "publicSources", True)
    assert response.status_code == 403


def test_another_organization_sees_neither_the_questionnaire_nor_can_answer(dpo, outsider):
    document = completed_document(dpo, "PRIVACY_POLICY")
    assert outsider.client.get(f"{URL}/{document.pk}/questionnaire").status_code == 404
    assert answer(outsider, document, "publicSources", True).status_code == 404
    assert LegalDocument.objects.get(pk=document.pk).answers == {}


def test_a_text_answer_with_a_nul_character_is_a_validation_error(dpo):
    document = completed_document(dpo)
    text_question = next(
        q for q in get_document_type(document.document_type).questions if q.answer_type == "text"
    )
    response = dpo.client.post(
        f"/api/v1/legal-documents/{document.pk}/questionnaire/answers",
        {"questionId": text_question.id, "answer": "a\u0000b"},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"
