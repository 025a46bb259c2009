"""`iterate`: offline edit instructions, the checklist guard, limits, and the openai provider."""

from __future__ import annotations

import pytest
from django.test import override_settings

from audit.models import AuditEvent
from legal_documents.models import DocumentIteration, DocumentVersion, LegalDocument
from legal_documents.services.flow import MAX_ITERATIONS
from tests.support.fake_openai import FakeOpenAI, echo_user_message, fake_openai_server
from tests.support.flow import URL, GroupListener, completed_document, run_job

pytestmark = pytest.mark.django_db


def iterate(caller, document, message, **extra):  # type: ignore[no-untyped-def]
    return caller.client.post(
        f"{URL}/{document.pk}/iterate", {"message": message, **extra}, format="json"
    )


def iterate_and_run(caller, document, message):  # type: ignore[no-untyped-def]
    """Start an iteration, run it in-process, return (document, iteration, events)."""
    listener = GroupListener(document.pk)
    response = iterate(caller, document, message)
    assert response.status_code == 202, response.content
    started = response.json()
    assert started["status"] == "processing"
    edited = run_job(str(document.pk))
    iteration = DocumentIteration.objects.get(message_id=started["messageId"])
    assert started["threadId"] == str(document.pk)
    assert started["iterationId"] == str(iteration.pk)
    return edited, iteration, listener.collect()


def ai_text(events: list) -> str:
    return "".join(
        e["data"]["content"] for e in events
        if e["event"].endswith(".message-response") and e["data"]["type"] == "ai"
    )  # fmt: skip


def test_an_edit_instruction_makes_a_new_version_and_records_the_iteration(dpo):
    document = completed_document(dpo)
    edited, iteration, events = iterate_and_run(
        dpo, document, 'add to section "Retention": Invoices are kept for ten years.'
    )
    assert (edited.status, edited.version) == ("completed", 2)
    assert "Invoices are kept for ten years." in edited.content_markdown
    version = DocumentVersion.objects.get(document=edited, number=2)
    assert version.change_reason.startswith("Iteration: add to section")
    assert version.author_id == dpo.membership.user_id
    assert iteration.status == "completed"
    assert iteration.resulting_version == version
    assert iteration.response.startswith('Added the paragraph to "Retention')
    assert [e["event"] for e in events] == [
        "legaldocs.event.message-response", "legaldocs.event.message-response-finished",
    ]  # fmt: skip
    reply = events[0]["data"]
    assert reply["type"] == "ai"
    assert reply["messageId"] == str(iteration.message_id)
    assert reply["threadId"] == str(document.pk)
    assert reply["iterationId"] == str(iteration.pk)
    assert reply["content"] == iteration.response
    assert events[1]["data"] == {"threadId": str(document.pk), "iterationId": str(iteration.pk)}


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ('replace "Running the newsletter" with "Sending the newsletter"', "Sending the"),
        ('add section "Cookies": We set no tracking cookies.', "## 9. Cookies"),
        ('rename company to "Acme Europe SE"', "Acme Europe SE"),
    ],
)
def test_each_edit_instruction_is_applied_by_the_template_provider(dpo, message, expected):
    document = completed_document(dpo)
    edited, iteration, _ = iterate_and_run(dpo, document, message)
    assert edited.version == 2
    assert expected in edited.content_markdown
    assert edited.content_markdown != document.content_markdown
    assert iteration.resulting_version is not None


def test_a_free_form_message_offline_leaves_the_document_unchanged_with_a_clear_reply(dpo):
    document = completed_document(dpo)
    edited, iteration, events = iterate_and_run(dpo, document, "Make it sound friendlier.")
    assert edited.status == "completed"
    assert edited.version == 1
    assert edited.content_markdown == document.content_markdown
    assert DocumentVersion.objects.filter(document=edited).count() == 1
    assert iteration.resulting_version is None
    assert "Free-form edits need a configured language model" in ai_text(events)
    assert "Free-form edits need a configured language model" in iteration.response


def test_removing_a_mandatory_section_is_undone_by_the_checklist_guard(dpo):
    document = completed_document(dpo)
    assert "{#complaint}" in document.content_markdown
    edited, iteration, events = iterate_and_run(dpo, document, 'remove section "Complaints"')
    assert "{#complaint}" in edited.content_markdown
    assert "put back by the checklist guard: Complaints (Art. 13(2)(d))" in iteration.response
    assert "checklist guard" in ai_text(events)
    body = dpo.client.get(f"{URL}/{document.pk}").json()
    assert body["compliance"]["complete"] is True


def test_removing_an_optional_section_is_kept_removed(dpo):
    document = completed_document(dpo)
    edited, _, _ = iterate_and_run(
        dpo, document, 'add section "Cookies": We set no tracking cookies.'
    )
    edited, iteration, _ = iterate_and_run(dpo, edited, 'remove section "Cookies"')
    assert "Cookies" not in edited.content_markdown
    assert "checklist guard" not in iteration.response
    assert edited.version == 3


def test_every_iteration_of_a_document_is_in_the_thread_of_the_document(dpo):
    document = completed_document(dpo)
    first = iterate(dpo, document, "help").json()
    run_job(str(document.pk))
    # A threadId sent by an older client is ignored: the thread is the document.
    second = iterate(dpo, document, "help", threadId="9b2f9a56-4a53-4c43-9d6e-3f1d2b1a0c11").json()
    assert first["threadId"] == second["threadId"] == str(document.pk)
    assert second["messageId"] != first["messageId"]
    assert second["iterationId"] != first["iterationId"]


def test_the_hundred_and_first_iteration_is_refused_with_iteration_limit(dpo):
    document = completed_document(dpo)
    DocumentIteration.objects.bulk_create(
        DocumentIteration(document=document, message=f"edit {n}", status="completed")
        for n in range(MAX_ITERATIONS)
    )
    response = iterate(dpo, document, "help")
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "ITERATION_LIMIT"
    assert LegalDocument.objects.get(pk=document.pk).status == "completed"
    assert DocumentIteration.objects.filter(document=document).count() == MAX_ITERATIONS


def test_the_hundredth_iteration_is_still_accepted(dpo):
    document = completed_document(dpo)
    DocumentIteration.objects.bulk_create(
        DocumentIteration(document=document, message=f"edit {n}", status="completed")
        for n in range(MAX_ITERATIONS - 1)
    )
    assert iterate(dpo, document, "help").status_code == 202


@pytest.mark.parametrize("message", ["", "   ", "x" * 10_001])
def test_an_empty_or_overlong_message_is_a_validation_error(dpo, message):
    document = completed_document(dpo)
    response = iterate(dpo, document, message)
    assert response.status_code == 400
    assert "message" in response.json()["error"]["details"]
    assert not DocumentIteration.objects.exists()


def test_a_document_without_content_or_still_processing_cannot_be_iterated(dpo):
    created = dpo.client.post(
        URL, {"documentType": "PRIVACY_POLICY", "companyName": "Busy GmbH"}, format="json"
    ).json()
    document = LegalDocument.objects.get(pk=created["id"])
    response = iterate(dpo, document, "help")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "CONFLICT"
    document = completed_document(dpo)
    assert iterate(dpo, document, "help").status_code == 202
    assert iterate(dpo, document, "help").status_code == 409  # the first one still runs


def test_iterating_is_audited_and_refused_to_auditors(dpo, auditor):
    document = completed_document(dpo)
    assert iterate(auditor, document, "help").status_code == 403
    iterate(dpo, document, "help")
    assert AuditEvent.objects.filter(action="document.iterate", outcome="allowed").exists()


def test_the_openai_provider_streams_the_edit_and_the_guard_still_applies(dpo):
    def drop_complaints_and_rename(body: dict) -> str:
        if "Requested change:" not in body["messages"][-1]["content"]:
            return echo_user_message(body)  # writing the document: keep the template's text
        document = body["messages"][-1]["content"].split("\n\n---\nRequested change:")[0]
        lines = document.splitlines()
        start = next(i for i, line in enumerate(lines) if "{#complaint}" in line)
        end = next(i for i, line in enumerate(lines) if "{#statutory-requirement}" in line)
        kept = lines[:start] + lines[end - 1 :]
        return "\n".join(kept).replace("Acme Analytics GmbH", "Acme Europe SE")

    with (
        fake_openai_server(FakeOpenAI(behaviour=drop_complaints_and_rename)) as model,
        override_settings(
            GENERATION_PROVIDER="openai", OPENAI_BASE_URL=model.base_url, OPENAI_API_KEY="sk-test"
        ),
    ):
        document = completed_document(dpo)
        assert document.provider == "openai"
        edited, iteration, events = iterate_and_run(
            dpo, document, "Use our new name Acme Europe SE and shorten it."
        )

    request = model.requests[-1]["body"]
    assert request["stream"] is True
    assert "Requested change: Use our new name Acme Europe SE" in request["messages"][-1]["content"]
    assert "Acme Europe SE" in edited.content_markdown
    assert "{#complaint}" in edited.content_markdown  # the guard put it back
    assert edited.version == 2
    chunks = [e for e in events if e["event"].endswith(".message-response")]
    assert len(chunks) > 2  # the model's text arrives in pieces, then the reply
    assert all(chunk["data"]["type"] == "ai" for chunk in chunks)
    assert "Acme Europe SE" in ai_text(events)
    assert chunks[-1]["data"]["content"] == iteration.response
    assert "Complaints (Art. 13(2)(d))" in iteration.response
    assert events[-1]["event"].endswith(".message-response-finished")


def test_a_model_refusal_fails_the_iteration_and_finishes_the_thread(dpo):
    with (
        fake_openai_server() as model,
        override_settings(
            GENERATION_PROVIDER="openai", OPENAI_BASE_URL=model.base_url, OPENAI_API_KEY="sk-test"
        ),
    ):
        document = completed_document(dpo)
        model.status = 400  # the model refuses every request from now on
        edited, iteration, events = iterate_and_run(dpo, document, "Shorten it.")

    # The failed edit is recorded, and the last good version stays readable.
    assert edited.status == "completed"
    assert edited.version == document.version
    assert edited.error_code == "PROVIDER_ERROR"
    assert iteration.status == "failed"
    assert iteration.resulting_version is None
    assert "The edit failed (PROVIDER_ERROR)" in ai_text(events)
    assert events[-1]["event"].endswith(".message-response-finished")


def test_the_asset_search_during_an_iteration_is_announced_as_a_tool_event(dpo, monkeypatch):
    from gdpr.composition import SourceRef
    from legal_documents.services import documents

    document = completed_document(dpo)
    # The asset search itself is tested in tests/assets; here it finds one uploaded policy.
    monkeypatch.setattr(
        documents, "relevant_sources", lambda _: [SourceRef("retention-policy.pdf", "Keep...")]
    )
    _, iteration, events = iterate_and_run(dpo, document, "help")
    tool = next(e["data"] for e in events if e["data"].get("type") == "tool")
    assert tool["toolName"] == "asset_search"
    assert tool["messageId"] == str(iteration.message_id)
    assert "retention-policy.pdf" in tool["content"]
    assert events.index(next(e for e in events if e["data"].get("type") == "tool")) == 0
