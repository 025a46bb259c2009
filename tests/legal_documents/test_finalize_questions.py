"""Finalize with free-text questions (SEED.md, Finalize body): `[{question, answer}]`.

The questions the service or the DPO asked at the end are not questionnaire ids: their
answers are stored on the document and written into the final document under a neutral
heading, in Markdown, HTML and plain text, and kept by later regenerations and iterations.
"""

from __future__ import annotations

import pytest
from django.test import Client

from legal_documents.models import LegalDocument
from legal_documents.views.flow import MAX_FINALIZE_QUESTIONS
from tests.support.flow import URL, completed_document, run_job

pytestmark = pytest.mark.django_db

PAIRS = [
    {"question": "Who reviews this policy each year?", "answer": "The board's privacy committee."},
    {"question": "Is there a works council agreement?", "answer": "Yes, signed on 3 March 2026."},
]


def finalize(caller, document, items):  # type: ignore[no-untyped-def]
    return caller.client.post(
        f"{URL}/{document.pk}/generate", {"questionsToFinalize": items}, format="json"
    )


@pytest.mark.parametrize("document_type", ["PRIVACY_POLICY", "DPIA", "DATA_SUBJECT_REQUEST_FORM"])
def test_free_text_answers_are_carried_into_the_final_markdown_html_and_text(dpo, document_type):
    document = completed_document(dpo, document_type)
    response = finalize(dpo, document, PAIRS)
    assert response.status_code == 202, response.content
    final = run_job(str(document.pk))
    assert (final.status, final.stage) == ("completed", "final")
    assert final.finalize_questions == PAIRS

    content = dpo.client.get(f"{URL}/{document.pk}").json()["content"]
    assert "## Additional information" in content["markdown"]
    for pair in PAIRS:
        for text in (pair["question"], pair["answer"]):
            assert text in content["text"]
            assert text in content["html"]
    # The Markdown escapes user text; the answers follow their question in order.
    markdown = content["markdown"]
    section = markdown[markdown.index("## Additional information") :]
    assert section.index("Who reviews") < section.index("privacy committee")
    assert section.index("privacy committee") < section.index("works council")
    assert body_compliance(dpo, document)["complete"] is True


def body_compliance(caller, document):  # type: ignore[no-untyped-def]
    return caller.client.get(f"{URL}/{document.pk}").json()["compliance"]


def test_the_answers_survive_a_later_draft_and_an_iteration(dpo):
    document = completed_document(dpo)
    assert finalize(dpo, document, PAIRS[:1]).status_code == 202
    run_job(str(document.pk))
    assert dpo.client.post(f"{URL}/{document.pk}/draft").status_code == 202
    redrafted = run_job(str(document.pk))
    assert "privacy committee" in redrafted.content_markdown
    iterated = dpo.client.post(
        f"{URL}/{document.pk}/iterate",
        {"message": 'replace "Running the newsletter" with "Sending the newsletter"'},
        format="json",
    )
    assert iterated.status_code == 202, iterated.content
    edited = run_job(str(document.pk))
    assert "Sending the newsletter" in edited.content_markdown
    assert "privacy committee" in edited.content_markdown
    assert edited.finalize_questions == PAIRS[:1]


def test_an_iteration_that_drops_the_section_gets_it_back(dpo):
    document = completed_document(dpo)
    finalize(dpo, document, PAIRS[:1])
    run_job(str(document.pk))
    dpo.client.post(
        f"{URL}/{document.pk}/iterate",
        {"message": 'remove section "Additional information"'},
        format="json",
    )
    edited = run_job(str(document.pk))
    assert "privacy committee" in edited.content_markdown


def test_a_new_finalize_replaces_the_previous_free_text_answers(dpo):
    document = completed_document(dpo)
    finalize(dpo, document, PAIRS[:1])
    run_job(str(document.pk))
    finalize(dpo, document, PAIRS[1:])
    final = run_job(str(document.pk))
    assert "works council" in final.content_markdown
    assert "privacy committee" not in final.content_markdown
    assert final.finalize_questions == PAIRS[1:]


def test_items_with_a_question_id_still_answer_the_questionnaire(dpo):
    document = completed_document(dpo)
    response = finalize(
        dpo, document, [{"questionId": "effectiveDate", "answer": "2026-09-01"}, PAIRS[0]]
    )
    assert response.status_code == 202, response.content
    final = run_job(str(document.pk))
    assert final.finalize_answers == {"effectiveDate": "2026-09-01"}
    assert final.finalize_questions == PAIRS[:1]
    assert "2026-09-01" in final.content_markdown
    assert "privacy committee" in final.content_markdown
    listed = dpo.client.get(f"{URL}/{document.pk}/questionnaire").json()
    effective = next(q for q in listed["questions"] if q["id"] == "effectiveDate")
    assert effective["answer"] == "2026-09-01"


def test_an_item_with_a_question_id_is_validated_against_the_questionnaire(dpo):
    document = completed_document(dpo)
    response = finalize(dpo, document, [PAIRS[0], {"questionId": "effectiveDate", "answer": "x"}])
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "VALIDATION_ERROR"
    assert "effectiveDate" in error["details"]["questionsToFinalize"]
    assert LegalDocument.objects.get(pk=document.pk).status == "completed"


@pytest.mark.parametrize(
    ("items", "index", "field"),
    [
        ([{"question": "Who?"}], 0, "answer"),
        ([{"answer": "Them."}], 0, "question"),
        ([PAIRS[0], {"question": "Who?", "answer": 3}], 1, "answer"),
        ([{"question": ["Who?"], "answer": "Them."}], 0, "question"),
        ([{"question": "   ", "answer": "Them."}], 0, "question"),
        ([{"question": "Who?", "answer": ""}], 0, "answer"),
        ([{"question": "Who?\x00", "answer": "Them."}], 0, "question"),
    ],
)
def test_bad_items_are_refused_with_the_field_in_the_details(dpo, items, index, field):
    document = completed_document(dpo)
    response = finalize(dpo, document, items)
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "VALIDATION_ERROR"
    item_errors = error["details"]["questionsToFinalize"][str(index)]
    assert field in item_errors
    stored = LegalDocument.objects.get(pk=document.pk)
    assert (stored.status, stored.finalize_questions) == ("completed", [])


def test_an_item_that_is_not_an_object_is_refused(dpo):
    document = completed_document(dpo)
    response = finalize(dpo, document, ["Who reviews it?"])
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"
    assert "0" in response.json()["error"]["details"]["questionsToFinalize"]


def test_an_answer_over_100000_characters_is_content_too_long(dpo):
    document = completed_document(dpo)
    response = finalize(dpo, document, [{"question": "Who?", "answer": "x" * 100_001}])
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "CONTENT_TOO_LONG"


def test_the_list_of_questions_is_bounded(dpo):
    document = completed_document(dpo)
    items = [{"question": f"Q{n}?", "answer": "A."} for n in range(MAX_FINALIZE_QUESTIONS + 1)]
    response = finalize(dpo, document, items)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"
    assert "questionsToFinalize" in response.json()["error"]["details"]


def test_user_text_cannot_inject_markup_into_the_document(dpo):
    document = completed_document(dpo)
    finalize(
        dpo, document, [{"question": "## 1. Fake {#complaint}", "answer": "<script>x</script>"}]
    )
    final = run_job(str(document.pk))
    assert "<script>" not in final.content_html
    assert "\n## 1. Fake" not in final.content_markdown


def test_the_openapi_schema_shows_question_and_answer_items(client: Client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    body = schema["paths"]["/api/v1/legal-documents/{id}/generate"]["post"]["requestBody"]
    reference = body["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    components = schema["components"]["schemas"]
    field = components[reference]["properties"]["questionsToFinalize"]
    assert field["type"] == "array"
    item = components[field["items"]["$ref"].rsplit("/", 1)[-1]]
    assert {"question", "answer", "questionId"} <= set(item["properties"])
