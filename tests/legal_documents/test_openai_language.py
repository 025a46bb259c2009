"""The openai provider is told the document's language and checks each section it returns.

Against the loopback OpenAI-compatible server: a section that comes back in another
language is asked once more to be rewritten; if it is still not in the document's language,
the template's text of that section is kept.
"""

from __future__ import annotations

from typing import Any

import gdpr
from legal_documents.providers import WritingRequest
from legal_documents.providers.openai import OpenAIProvider
from tests.legal_documents.samples import FIXED_NOW, FULL_ANSWERS, FULL_INPUTS
from tests.support.fake_openai import fake_openai_server

NAME = "PRIVACY_POLICY"
GERMAN = (
    "Der Verantwortliche für die Verarbeitung Ihrer Daten ist das Unternehmen, das in diesem"
    " Dokument genannt wird und das Sie über die angegebene Adresse erreichen können."
)


def _request(language: str) -> WritingRequest:
    return WritingRequest(
        document_type=gdpr.get_document_type(NAME),
        inputs=FULL_INPUTS[NAME],
        answers=FULL_ANSWERS[NAME],
        now=FIXED_NOW,
        language=language,
    )


def _users(body: dict[str, Any]) -> list[str]:
    return [m["content"] for m in body["messages"] if m["role"] == "user"]


def _section_of(body: dict[str, Any]) -> str:
    return _users(body)[0].split("\n\n---\n")[0]


def _german_answer(body: dict[str, Any]) -> str:
    return _section_of(body).splitlines()[0] + "\n\n" + GERMAN


def test_a_section_in_another_language_is_rewritten_or_replaced_by_the_template() -> None:
    template = gdpr.document_skeleton(
        gdpr.get_document_type(NAME), FULL_INPUTS[NAME], FULL_ANSWERS[NAME], now=FIXED_NOW
    )
    first, second = template.sections[0].markdown, template.sections[1].markdown

    def model(body: dict[str, Any]) -> str:
        section = _section_of(body)
        rewriting = len(_users(body)) > 1
        if section == first:  # German, and German again when asked to rewrite
            return _german_answer(body)
        if section == second:  # German, then English once asked
            return section if rewriting else _german_answer(body)
        return section

    with fake_openai_server() as server:
        server.behaviour = model
        provider = OpenAIProvider(
            model="test", api_key="sk-test", base_url=server.base_url, timeout=5
        )
        markdown = provider.write_document(_request("en"))

    assert GERMAN not in markdown
    assert first in markdown  # the template's section, unchanged
    assert second in markdown  # the model's rewrite
    calls = [r["body"] for r in server.requests if r["path"].endswith("/chat/completions")]
    assert len(calls) == len(template.sections) + 2  # one rewrite each for the two sections
    rewrites = [call for call in calls if len(_users(call)) > 1]
    assert len(rewrites) == 2
    assert all("not written in English" in _users(call)[-1] for call in rewrites)
    assert all(GERMAN in _users(call)[-1] for call in rewrites)
    report = gdpr.completeness_report(document_type=gdpr.get_document_type(NAME), markdown=markdown)
    assert report.complete


def test_the_model_is_told_the_language_and_its_marker() -> None:
    with fake_openai_server() as server:
        provider = OpenAIProvider(
            model="test", api_key="sk-test", base_url=server.base_url, timeout=5
        )
        provider.write_document(_request("de"))
        provider.edit_document("# Text\n", "Shorten it.", _request("fr"))
    calls = [r["body"] for r in server.requests if r["path"].endswith("/chat/completions")]
    writer = calls[0]["messages"][0]["content"]
    assert "Write in German only" in writer
    assert "**[Zu ergänzen]**" in writer
    editor = calls[-1]["messages"][0]["content"]
    assert "written in French" in editor
