"""A DPO's whole job in the admin: create through a typed form, answer, draft, finalize, iterate."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from legal_documents.inputs.registry import DOCUMENT_TYPES
from legal_documents.models import DocumentIteration, LegalDocument
from tests.admin.support import add_url, change_url, flow_url, run_job, status_url
from tests.factories import ClientCompanyFactory

pytestmark = pytest.mark.django_db


def test_the_add_page_offers_every_document_type(dpo_staff):
    html = dpo_staff.client.get(add_url()).content.decode()
    for name in DOCUMENT_TYPES:
        assert f'data-type="{name}"' in html


@pytest.mark.parametrize("document_type", sorted(DOCUMENT_TYPES))
def test_each_type_gets_a_form_of_its_own_fields_not_a_json_box(dpo_staff, document_type):
    response = dpo_staff.client.get(add_url(document_type))
    assert response.status_code == 200
    form = response.context["form"]
    spec = DOCUMENT_TYPES[document_type]
    assert set(form.fields) == set(spec.input_serializer().fields)
    assert not any(type(field).__name__ == "JSONField" for field in form.fields.values())


def test_the_dpia_form_uses_checkboxes_yes_no_selects_and_one_per_line_lists(dpo_staff):
    html = dpo_staff.client.get(add_url("DPIA")).content.decode()
    assert 'type="checkbox" name="legalBasis" value="consent"' in html
    assert '<select name="largeScale"' in html
    assert '<textarea name="purposes"' in html
    assert "One per line" in html


def test_the_client_company_choice_lists_only_the_organizations_own_companies(dpo_staff, outsider):
    own = ClientCompanyFactory(organization=dpo_staff.organization, name="Own Client GmbH")
    ClientCompanyFactory(organization=outsider.organization, name="Foreign Client SA")
    html = dpo_staff.client.get(add_url("DPIA")).content.decode()
    assert f'value="{own.pk}"' in html
    assert "Foreign Client SA" not in html


def test_creating_a_dpia_through_the_form_stores_typed_inputs_and_starts_generation(dpo_staff):
    response = dpo_staff.client.post(
        add_url("DPIA"),
        {
            "documentType": "DPIA",
            "companyName": "Acme GmbH",
            "processingActivity": "Video surveillance of the warehouse",
            "purposes": "Theft prevention\n\n  Safety of employees  \n",
            "legalBasis": ["legitimate-interests"],
            "largeScale": "true",
            "profiling": "false",
            "approximateSubjects": "120",
            "thirdCountryTransfers": "United States | CloudCo Inc. | standard-contractual-clauses",
        },
    )
    document = LegalDocument.objects.get(organization=dpo_staff.organization)
    assert response.status_code == 302
    assert response["Location"] == change_url(document)
    assert document.status == "processing"
    assert document.inputs["purposes"] == ["Theft prevention", "Safety of employees"]
    assert document.inputs["legalBasis"] == ["legitimate-interests"]
    assert document.inputs["largeScale"] is True
    assert document.inputs["profiling"] is False
    assert document.inputs["approximateSubjects"] == 120
    assert document.inputs["thirdCountryTransfers"] == [
        {
            "country": "United States",
            "recipient": "CloudCo Inc.",
            "safeguard": "standard-contractual-clauses",
        }
    ]
    assert "dataFlow" not in document.inputs  # blanks are left out, as in an API body
    event = AuditEvent.objects.get(action="document.create", object_id=str(document.pk))
    assert event.actor.endswith("(admin)")
    assert run_job(document).status == "completed"


def test_a_client_company_of_the_organization_can_be_chosen_instead_of_a_name(dpo_staff):
    company = ClientCompanyFactory(organization=dpo_staff.organization)
    dpo_staff.client.post(
        add_url("DPIA"), {"documentType": "DPIA", "clientCompanyId": str(company.pk)}
    )
    document = LegalDocument.objects.get(organization=dpo_staff.organization)
    assert document.client_company == company


def test_the_form_shows_the_serializers_errors_and_creates_nothing(dpo_staff):
    response = dpo_staff.client.post(
        add_url("DPIA"), {"documentType": "DPIA", "legalBasis": ["consent"]}
    )
    assert response.status_code == 200
    assert "Give companyName" in response.content.decode()
    assert not LegalDocument.objects.exists()


def test_the_change_page_shows_status_completeness_questionnaire_and_a_sandboxed_preview(
    dpo_staff, document
):
    response = dpo_staff.client.get(change_url(document))
    html = response.content.decode()
    assert response.status_code == 200
    for item in response.context["report"].items:
        assert f'data-item="{item.id}"' in html
        assert item.article in html
    assert 'class="missing"' in html or 'class="present"' in html
    assert 'data-question="dataMinimisation"' in html
    assert 'data-condition-question="dataMinimisation" data-condition-value="false"' in html
    assert '<iframe class="preview" sandbox=""' in html
    assert "Regenerate draft" in html and "Finalize" in html and "Iterate" in html
    for fmt in ("html", "pdf", "md", "txt", "docx"):
        assert f"/export/{fmt}/" in html


def test_viewing_a_document_in_the_admin_is_an_audited_read(dpo_staff, document):
    dpo_staff.client.get(change_url(document))
    event = AuditEvent.objects.filter(action="document.read", object_id=str(document.pk)).last()
    assert event.details == {"via": "admin"}
    assert event.actor_user_id == dpo_staff.membership.user_id


def test_answers_are_saved_through_the_questionnaire_service(dpo_staff, document):
    response = dpo_staff.client.post(
        flow_url(document, "answers"),
        {"dataMinimisation": "false", "minimisationPlan": "Drop the birth date.",
         "retentionApproach": "Criteria-based", "rightsChannels": ["E-mail", "Web form"],
         "nextReviewDate": "2027-01-31"},
    )  # fmt: skip
    assert response.status_code == 302
    document.refresh_from_db()
    answers = {key: value["answer"] for key, value in document.answers.items()}
    assert answers == {
        "dataMinimisation": False,
        "minimisationPlan": "Drop the birth date.",
        "retentionApproach": "Criteria-based",
        "rightsChannels": ["E-mail", "Web form"],
        "nextReviewDate": "2027-01-31",
    }
    assert AuditEvent.objects.filter(action="document.answer").count() == 1


def test_an_answer_to_a_question_whose_condition_fails_is_not_stored(dpo_staff, document):
    dpo_staff.client.post(
        flow_url(document, "answers"),
        {"dataMinimisation": "true", "minimisationPlan": "Not asked when minimised."},
    )
    document.refresh_from_db()
    assert set(document.answers) == {"dataMinimisation"}


def test_an_emptied_answer_is_cleared(dpo_staff, document):
    dpo_staff.client.post(flow_url(document, "answers"), {"retentionApproach": "Criteria-based"})
    dpo_staff.client.post(flow_url(document, "answers"), {"retentionApproach": ""})
    document.refresh_from_db()
    assert document.answers == {}


def test_regenerate_draft_and_finalize_run_the_flow_services(dpo_staff, document):
    dpo_staff.client.post(flow_url(document, "answers"), {"dpoOpinion": "Favourable"})
    assert dpo_staff.client.post(flow_url(document, "draft")).status_code == 302
    document = run_job(LegalDocument.objects.get(pk=document.pk))
    assert (document.version, document.stage) == (2, "draft")
    dpo_staff.client.post(flow_url(document, "finalize"))
    assert LegalDocument.objects.get(pk=document.pk).status == "processing"
    document = run_job(document)
    assert (document.version, document.stage, document.status) == (3, "final", "completed")
    assert "Favourable" in document.content_markdown
    actions = set(AuditEvent.objects.values_list("action", flat=True))
    assert {"document.draft", "document.finalize"} <= actions


def test_save_and_finalize_stores_the_answers_and_generates_the_final_version(dpo_staff, document):
    dpo_staff.client.post(
        flow_url(document, "answers"), {"dpoOpinion": "Unfavourable", "_finalize": "1"}
    )
    document = run_job(LegalDocument.objects.get(pk=document.pk))
    assert document.stage == "final"
    assert document.answers["dpoOpinion"]["answer"] == "Unfavourable"


def test_a_step_while_the_document_is_processing_shows_the_conflict(dpo_staff, document):
    dpo_staff.client.post(flow_url(document, "draft"))
    response = dpo_staff.client.post(flow_url(document, "finalize"), follow=True)
    assert "being processed" in response.content.decode()
    assert LegalDocument.objects.get(pk=document.pk).job_kind == "draft"


def test_iterate_records_the_instruction_and_its_reply(dpo_staff, document):
    dpo_staff.client.post(flow_url(document, "iterate"), {"message": "Shorten the intro."})
    iteration = DocumentIteration.objects.get(document=document)
    run_job(document)
    iteration.refresh_from_db()
    assert iteration.status == "completed"
    html = dpo_staff.client.get(change_url(document)).content.decode()
    assert "Shorten the intro." in html
    assert 'id="iterations"' in html


def test_the_status_view_answers_the_documents_status_as_json(dpo_staff, document):
    dpo_staff.client.post(flow_url(document, "draft"))
    payload = dpo_staff.client.get(status_url(document)).json()
    assert payload["status"] == "processing"
    run_job(document)
    payload = dpo_staff.client.get(status_url(document)).json()
    assert (payload["status"], payload["version"]) == ("completed", 2)


def test_an_invalid_answer_is_shown_on_the_question_and_nothing_is_stored(dpo_staff, document):
    response = dpo_staff.client.post(flow_url(document, "answers"), {"nextReviewDate": "soon"})
    assert response.status_code == 200
    assert "Enter a valid date" in response.content.decode()
    document.refresh_from_db()
    assert document.answers == {}


def test_the_finalize_form_takes_free_text_questions_and_shows_the_stored_ones(dpo_staff, document):
    response = dpo_staff.client.post(
        flow_url(document, "finalize"),
        {
            "question_0": "Who signs the DPIA?",
            "answer_0": "The managing director.",
            "question_1": "",
            "answer_1": "",
        },
    )
    assert response.status_code == 302
    document = run_job(LegalDocument.objects.get(pk=document.pk))
    assert document.stage == "final"
    assert document.finalize_questions == [
        {"question": "Who signs the DPIA?", "answer": "The managing director."}
    ]
    assert "The managing director." in document.content_markdown
    page = dpo_staff.client.get(change_url(document)).content.decode()
    assert 'id="finalize-form"' in page
    assert "Who signs the DPIA?" in page
    assert "The managing director." in page


def test_a_finalize_question_without_its_answer_is_refused(dpo_staff, document):
    response = dpo_staff.client.post(
        flow_url(document, "finalize"), {"question_0": "Who signs the DPIA?"}, follow=True
    )
    assert "needs its answer" in response.content.decode()
    stored = LegalDocument.objects.get(pk=document.pk)
    assert (stored.status, stored.finalize_questions) == ("completed", [])
