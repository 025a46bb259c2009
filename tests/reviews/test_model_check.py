"""The language model's check of a review (issue 28): asked under a strict JSON schema, its
quotes verified against the document, merged with the offline result by a fixed rule.

Against the loopback OpenAI-compatible server (tests/support/fake_openai.py), so the real
client code (langchain-openai, openai, httpx) runs over HTTP.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest

from gdpr.review.report import Citation, ItemResult, ItemStatus, Passage
from reviews.model_check import BATCH_SIZE, STATUSES, merge, model_review
from tests.support.fake_openai import FakeOpenAI, fake_openai_server

DPA = "DATA_PROCESSING_AGREEMENT"
AUDITS = (
    "The Processor shall make available to the Controller all information necessary to"
    " demonstrate compliance and shall allow for and contribute to audits, including"
    " inspections, conducted by the Controller or another auditor mandated by it."
)
PASSAGES = (
    Passage(
        index=3, text="1. Subject-matter. The Processor hosts the HR platform.", location="page 1"
    ),
    Passage(index=7, text="8. Audits.\n" + AUDITS, location="page 4"),
    Passage(
        index=8,
        text="9. Breaches. The Processor will comply with applicable law.",
        location="page 4",
    ),
)
CANDIDATES = {
    "h-audits": (PASSAGES[1], PASSAGES[0]),
    "breach-notification": (PASSAGES[2],),
    "subject-matter": (PASSAGES[0],),
}


def _offline(item_id: str, status: ItemStatus, *quotes: tuple[str, str]) -> ItemResult:
    return ItemResult(
        item_id=item_id,
        article="Art. 28(3)(h)",
        status=status,
        finding=f"Offline finding for {item_id} (Art. 28).",
        citations=tuple(Citation(location=location, quote=quote) for location, quote in quotes),
        suggestion="Our clause.",
    )


OFFLINE = (
    _offline(
        "subject-matter", ItemStatus.PRESENT, ("page 1", "The Processor hosts the HR platform.")
    ),
    _offline("h-audits", ItemStatus.MISSING),
    _offline("breach-notification", ItemStatus.WEAK, ("page 4", "will comply with applicable law")),
)


def _answer(*items: dict[str, Any]) -> str:
    return json.dumps({"items": list(items)})


def _item(item_id: str, status: str, finding: str, *quotes: tuple[int, str]) -> dict[str, Any]:
    return {
        "itemId": item_id,
        "status": status,
        "finding": finding,
        "quotes": [{"passageIndex": index, "quote": quote} for index, quote in quotes],
    }


AGREEING = [
    _item("subject-matter", "present", "Clause 1 states the subject-matter (Art. 28(3)).",
          (3, "The Processor hosts the HR platform.")),
    _item("breach-notification", "weak", "Clause 9 only promises to comply with the law,"
          " without notifying the controller without undue delay (Art. 33(2)).",
          (8, "The Processor will comply with applicable law.")),
]  # fmt: skip


@pytest.fixture
def model(settings: Any) -> Iterator[FakeOpenAI]:
    with fake_openai_server() as server:
        settings.GENERATION_PROVIDER = "openai"
        settings.OPENAI_API_KEY = "sk-test"
        settings.OPENAI_BASE_URL = server.base_url
        settings.LLM_MODEL = "review-test"
        settings.LLM_TIMEOUT_SECONDS = 1
        yield server


def _review(report_language: str = "en") -> tuple[ItemResult, ...] | None:
    return model_review(
        document_type=DPA,
        items=OFFLINE,
        candidates=CANDIDATES,
        report_language=report_language,
        document_language="en",
    )


def _by_id(items: tuple[ItemResult, ...] | None) -> dict[str, ItemResult]:
    assert items is not None
    return {item.item_id: item for item in items}


def _chat_calls(server: FakeOpenAI) -> list[dict[str, Any]]:
    return [r["body"] for r in server.requests if r["path"].endswith("/chat/completions")]


def test_it_stores_a_verified_quote_with_its_passages_location(model: FakeOpenAI) -> None:
    # The quote comes with a space where the passage breaks the line: stored as the passage
    # writes it, so it is still the document's text.
    quote = "8. Audits. The Processor shall make available to the Controller all information"
    model.behaviour = lambda body: _answer(
        *AGREEING,
        _item("h-audits", "present", "Clause 8 allows for audits and inspections (Art. 28(3)(h)).",
              (7, quote)),
    )  # fmt: skip

    items = _review()

    audits = _by_id(items)["h-audits"]
    assert audits.status == ItemStatus.PRESENT  # missing -> present on a verified quote
    assert audits.citations == (
        Citation(
            location="page 4",
            quote="8. Audits.\nThe Processor shall make available to the Controller"
            " all information",
        ),
    )
    assert audits.finding.startswith("Clause 8 allows")
    assert audits.suggestion == "Our clause."
    assert [item.item_id for item in items or ()] == [item.item_id for item in OFFLINE]
    # Agreement keeps the rules' status and evidence, with the model's added.
    breach = _by_id(items)["breach-notification"]
    assert breach.status == ItemStatus.WEAK
    assert [c.quote for c in breach.citations] == [
        "will comply with applicable law",
        "The Processor will comply with applicable law.",
    ]


def test_an_invented_quote_is_dropped_and_the_item_needs_a_human_check(model: FakeOpenAI) -> None:
    model.behaviour = lambda body: _answer(
        *AGREEING,
        _item("h-audits", "present", "Clause 8 grants on-site audits (Art. 28(3)(h)).",
              (7, "The Controller may carry out on-site audits once a year.")),
    )  # fmt: skip

    audits = _by_id(_review())["h-audits"]

    assert audits.status == ItemStatus.NEEDS_HUMAN_CHECK
    assert audits.citations == ()
    # The finding argued from the invented quote is not shown; the rules' finding is.
    assert audits.finding == "Offline finding for h-audits (Art. 28)."


def test_the_request_carries_the_strict_json_schema(model: FakeOpenAI) -> None:
    model.behaviour = lambda body: _answer(*AGREEING, _item("h-audits", "missing", "None."))

    _review()

    (call,) = _chat_calls(model)
    response_format = call["response_format"]
    assert response_format["type"] == "json_schema"
    assert response_format["json_schema"]["strict"] is True
    schema = response_format["json_schema"]["schema"]
    item = schema["properties"]["items"]["items"]
    assert schema["additionalProperties"] is False and item["additionalProperties"] is False
    assert set(item["required"]) == {"itemId", "status", "finding", "quotes"}
    assert item["properties"]["status"]["enum"] == list(STATUSES)
    assert set(item["properties"]["itemId"]["enum"]) == {i.item_id for i in OFFLINE}
    quote = item["properties"]["quotes"]["items"]
    assert set(quote["required"]) == {"passageIndex", "quote"}
    assert call["model"] == "review-test"
    # The passages are shown with the numbers the quotes cite.
    user = next(m["content"] for m in call["messages"] if m["role"] == "user")
    assert "[passage 7]" in user and AUDITS in user
    assert "English" in next(m["content"] for m in call["messages"] if m["role"] == "system")


@pytest.mark.parametrize("failure", ["invalid-json", "off-schema", "http-500", "timeout"])
def test_a_failing_model_leaves_the_offline_result(
    model: FakeOpenAI, failure: str, caplog: pytest.LogCaptureFixture
) -> None:
    if failure == "invalid-json":
        model.behaviour = lambda body: '{"items": [{"itemId": "h-audits", '
    elif failure == "off-schema":
        model.behaviour = lambda body: _answer(_item("h-audits", "probably", "?"))
    elif failure == "http-500":
        model.status = 500
    else:
        model.delay_seconds = 1.5
        model.behaviour = lambda body: _answer(*AGREEING)

    with caplog.at_level(logging.WARNING, logger="reviews.model_check"):
        assert _review() is None

    assert _chat_calls(model)
    assert "offline result kept" in caplog.text


def test_a_failed_batch_keeps_its_offline_items_and_the_others_are_checked(
    model: FakeOpenAI,
) -> None:
    extra = tuple(_offline(f"item-{n}", ItemStatus.MISSING) for n in range(BATCH_SIZE))
    calls = []

    def answer(body: dict[str, Any]) -> str:
        calls.append(body)
        if len(calls) == 1:
            return "not json"
        return _answer(_item("h-audits", "missing", "No audit clause (Art. 28(3)(h))."))

    model.behaviour = answer
    items = model_review(
        document_type=DPA,
        items=(*extra, OFFLINE[1]),
        candidates=CANDIDATES,
        report_language="en",
        document_language="en",
    )

    assert items is not None
    assert len(calls) == 2
    assert items[:BATCH_SIZE] == extra
    assert items[-1].status == ItemStatus.MISSING


def test_a_model_that_is_down_is_not_asked_about_the_further_batches(model: FakeOpenAI) -> None:
    model.status = 500
    extra = tuple(_offline(f"item-{n}", ItemStatus.MISSING) for n in range(BATCH_SIZE))

    items = model_review(
        document_type=DPA,
        items=(*extra, *OFFLINE),
        candidates=CANDIDATES,
        report_language="en",
        document_language="en",
    )

    assert items is None
    assert len(_chat_calls(model)) == 1


def test_without_a_configured_model_there_is_no_model_check(settings: Any) -> None:
    settings.GENERATION_PROVIDER = "template"
    with fake_openai_server() as server:
        settings.OPENAI_BASE_URL = server.base_url
        assert _review() is None
    assert server.requests == []


# The merge rule, item by item (reviews/model_check.py docstring).
QUOTE = Citation(location="page 4", quote="allow for and contribute to audits")
RULES_QUOTE = Citation(location="page 2", quote="audits by certificates")


def _model(status: ItemStatus, finding: str = "", *citations: Citation) -> ItemResult:
    return ItemResult("h-audits", "Art. 28(3)(h)", status, finding, tuple(citations))


def _rules(status: ItemStatus, *citations: Citation) -> ItemResult:
    return ItemResult("h-audits", "Art. 28(3)(h)", status, "Rules (Art. 28).", tuple(citations))


P, W, M = ItemStatus.PRESENT, ItemStatus.WEAK, ItemStatus.MISSING
NA, H = ItemStatus.NOT_APPLICABLE, ItemStatus.NEEDS_HUMAN_CHECK
EXPLAINED = "Audits are left to the processor's own reports (Art. 28(3)(h))."


@pytest.mark.parametrize(
    ("rules", "opinion", "expected"),
    [
        # Agreement.
        (_rules(P, RULES_QUOTE), _model(P, "ok", QUOTE), P),
        # Upgrade from missing: only with a verified quote.
        (_rules(M), _model(P, EXPLAINED, QUOTE), P),
        (_rules(M), _model(P, EXPLAINED), H),
        (_rules(M), _model(W, EXPLAINED, QUOTE), W),
        # Downgrade from present to weak: a quote and an explanation.
        (_rules(P, RULES_QUOTE), _model(W, EXPLAINED, QUOTE), W),
        (_rules(P, RULES_QUOTE), _model(W, "", QUOTE), H),
        (_rules(P, RULES_QUOTE), _model(W, EXPLAINED), H),
        # The rules saw the clause, the model says it is not there: a human decides.
        (_rules(P, RULES_QUOTE), _model(M, EXPLAINED), H),
        (_rules(W, RULES_QUOTE), _model(P, EXPLAINED, QUOTE), H),
        # Weak against missing: both gaps, the rules' status with its evidence.
        (_rules(W, RULES_QUOTE), _model(M, EXPLAINED), W),
        (_rules(M), _model(W, "", QUOTE), M),
        # Not applicable only where both say so.
        (_rules(M), _model(NA, EXPLAINED), H),
        (_rules(NA), _model(P, EXPLAINED, QUOTE), H),
        # The rules undecided: the model decides with evidence.
        (_rules(H), _model(P, "", QUOTE), P),
        (_rules(H), _model(M, EXPLAINED), M),
        (_rules(H), _model(M, ""), H),
        (_rules(H), _model(NA, EXPLAINED), NA),
        # The model unsure (or its quote was not in the document).
        (_rules(P, RULES_QUOTE), _model(H), H),
    ],
)
def test_the_merge_rule(rules: ItemResult, opinion: ItemResult, expected: ItemStatus) -> None:
    assert merge(offline=rules, model=opinion, report_language="en").status == expected


def test_a_disagreement_keeps_both_findings_and_all_evidence() -> None:
    merged = merge(offline=_rules(P, RULES_QUOTE), model=_model(M, EXPLAINED), report_language="en")

    assert merged.status == H
    assert merged.finding == f"Rules (Art. 28). {EXPLAINED}"
    assert merged.citations == (RULES_QUOTE,)


def test_a_finding_in_another_language_than_the_reports_is_no_explanation() -> None:
    german = "Die Prüfungen werden nur durch eigene Berichte des Auftragsverarbeiters erfüllt."

    merged = merge(offline=_rules(M), model=_model(W, german, QUOTE), report_language="en")
    accepted = merge(offline=_rules(M), model=_model(W, german, QUOTE), report_language="de")

    assert merged.status == M
    assert accepted.status == W and accepted.finding == german
