"""The language model's check of a review, under a strict JSON schema, its quotes verified.

Where a language model is configured (the generation provider is `openai`: the same
OpenAI-compatible endpoint, model and timeout as document generation, see
`legal_documents.providers`), the model is asked, a few checklist items at a time, to decide
each item from the candidate passages the hybrid search retrieved for it, answering under a
strict JSON schema (`response_format` `json_schema`, `strict: true`): per item its `itemId`,
`status`, `finding` and `quotes` (`passageIndex`, `quote`). Every quote goes through
`gdpr.review.report.with_verified_quotes`: one that is not verbatim in the passages the model
was shown is dropped and the item becomes `needs-human-check`. Whitespace is the one thing
forgiven: a quote whose words are in a passage with other spacing (a line break for a space)
is stored as the passage writes it, so the stored quote is still the document's text.

The model's answer is merged with the offline (rules) result, item by item (`merge`):

- the model agrees with the rules: the rules' status, their citations then the model's;
- a quote of the model is not in the document: `needs-human-check`;
- the model may upgrade `missing` to `present` (or to `weak`) only with a verified quote:
  the rules' term sets missed wording the quote shows is there;
- the model may downgrade `present` to `weak` only with a verified quote and an explanation
  (its finding): the quote is the weak wording;
- where the rules could not decide (`needs-human-check`), the model decides: `present` or
  `weak` with a verified quote, `missing` or `not-applicable` with an explanation;
- `weak` against `missing` (either way round): both are gaps, the rules' status stands with
  its evidence;
- any other disagreement (`present` against `missing`, `weak` against `present`, anything
  against `not-applicable`, the model unsure) is `needs-human-check`, with both findings
  and every verified quote, so the DPO decides with the evidence of both.

An explanation is a non-empty finding written in the report's language (its quotes aside);
a finding in another language is not one, and the rules' finding is kept instead.

The model is an addition, never a condition: when it fails (HTTP error, timeout, an answer
that is not the schema's JSON) the failure is logged and the offline result of those items
stands (a model that is down or timing out is not asked about the further batches);
`model_review` returns None when no model is configured or no batch was answered.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.conf import settings

from gdpr.doctypes.registry import get_document_type
from gdpr.i18n.detect import foreign_sentences, without_values
from gdpr.review.report import Citation, ItemResult, ItemStatus, Passage, with_verified_quotes
from legal_documents.providers.openai import LANGUAGE_NAMES, transient_errors

logger = logging.getLogger(__name__)

# Items per request: few enough that each gets the model's attention and its passages fit,
# enough that a DPA (about twenty items) takes a handful of calls.
BATCH_SIZE = 6
# Candidate passages shown per item (the search's best first).
PASSAGES_PER_ITEM = 5

STATUSES = tuple(status.value for status in ItemStatus)

INSTRUCTIONS = """You are an experienced EU data protection lawyer reviewing a {document} \
that the organization did not write, written in {document_language}. For each checklist \
item you receive the requirement and numbered passages of the document. Decide the item:
- "present": the document meets the requirement; quote the clause that does;
- "weak": the document addresses it but falls short (e.g. "comply with applicable law" \
instead of notifying the controller without undue delay; audits satisfied only by the \
processor's own certificates; sub-processors without notice of changes and a right to \
object; deletion only on request); quote the weak wording;
- "missing": the document does not address it; no quote;
- "not-applicable": the requirement does not apply to this document; say why;
- "needs-human-check": you cannot decide from the passages.
Quotes must be copied character for character from one passage (give its number), a \
sentence or a clause, never paraphrased, never joined from two places. Write each finding \
in {report_language}, one or two sentences naming the article. Answer every item, once."""

# What the review-only items check (the checklist items are described by their own titles).
REVIEW_ONLY_ITEMS = {
    "breach-notification": (
        "Art. 33(2)",
        "The processor notifies the controller of a personal data breach without undue delay"
        " after becoming aware of it (a promise to comply with applicable law is weak).",
    ),
    "transfer-instruments": (
        "Art. 44-46",
        "Transfers rest on a current instrument: the standard contractual clauses of"
        " Decision (EU) 2021/914, an adequacy decision (e.g. the EU-US Data Privacy Framework,"
        " Decision (EU) 2023/1795, for certified recipients) or binding corporate rules; not"
        " the repealed SCCs of Decisions 2001/497/EC, 2004/915/EC or 2010/87/EU, nor Privacy"
        " Shield or Safe Harbour.",
    ),
}


class ModelAnswerError(ValueError):
    """The model's answer is not the JSON the schema asks for."""


@dataclass(frozen=True, slots=True)
class ProposedQuote:
    passage_index: int
    quote: str


@dataclass(frozen=True, slots=True)
class ProposedItem:
    item_id: str
    status: ItemStatus
    finding: str
    quotes: tuple[ProposedQuote, ...]


def model_configured() -> bool:
    """Whether a language model is configured (the generation provider says so)."""
    return settings.GENERATION_PROVIDER == "openai"


def model_review(
    *,
    document_type: str,
    items: Sequence[ItemResult],
    candidates: Mapping[str, Sequence[Passage]],
    report_language: str,
    document_language: str,
) -> tuple[ItemResult, ...] | None:
    """The offline ``items`` checked by the language model and merged (module docstring).

    ``candidates``: per item id, the passages retrieved for it (best first). None when no
    model is configured or none of its answers could be used; the items keep their order.
    """
    if not model_configured():
        return None
    chat = _chat()
    merged = {item.item_id: item for item in items}
    answered = False
    for start in range(0, len(items), BATCH_SIZE):
        batch = items[start : start + BATCH_SIZE]
        shown = _shown_passages(batch, candidates)
        try:
            proposed = _ask(
                chat,
                document_type=document_type,
                batch=batch,
                candidates=candidates,
                report_language=report_language,
                document_language=document_language,
            )
        # The review never fails for the model: whatever went wrong (HTTP, timeout, an
        # answer off the schema), it is logged and the rules' result of the batch stands.
        except Exception as error:
            logger.warning(
                "review model check failed for items %s: offline result kept",
                ", ".join(item.item_id for item in batch),
                exc_info=True,
            )
            if isinstance(error, transient_errors()):
                # A model that is down or timing out would cost each further batch its
                # timeout too: the rest of the review stays offline.
                break
            continue
        answered = True
        for item in batch:
            if item.item_id in proposed:
                model_item = _model_item(item, proposed[item.item_id], shown)
                merged[item.item_id] = merge(
                    offline=item, model=model_item, report_language=report_language
                )
    if not answered:
        return None
    return tuple(merged[item.item_id] for item in items)


def _chat() -> Any:
    from langchain_openai import ChatOpenAI

    return ChatOpenAI(
        model=str(settings.LLM_MODEL),
        api_key=settings.OPENAI_API_KEY or "",
        base_url=settings.OPENAI_BASE_URL,
        timeout=settings.LLM_TIMEOUT_SECONDS,
        max_retries=0,  # a failed batch keeps the offline result; the review goes on
        temperature=0,
    )


def response_format(item_ids: Sequence[str]) -> dict[str, Any]:
    """The strict JSON schema of an answer about ``item_ids``."""
    quote = {
        "type": "object",
        "properties": {"passageIndex": {"type": "integer"}, "quote": {"type": "string"}},
        "required": ["passageIndex", "quote"],
        "additionalProperties": False,
    }
    item = {
        "type": "object",
        "properties": {
            "itemId": {"type": "string", "enum": list(item_ids)},
            "status": {"type": "string", "enum": list(STATUSES)},
            "finding": {"type": "string"},
            "quotes": {"type": "array", "items": quote},
        },
        "required": ["itemId", "status", "finding", "quotes"],
        "additionalProperties": False,
    }
    schema = {
        "type": "object",
        "properties": {"items": {"type": "array", "items": item}},
        "required": ["items"],
        "additionalProperties": False,
    }
    return {
        "type": "json_schema",
        "json_schema": {"name": "review_items", "strict": True, "schema": schema},
    }


def _ask(
    chat: Any,
    *,
    document_type: str,
    batch: Sequence[ItemResult],
    candidates: Mapping[str, Sequence[Passage]],
    report_language: str,
    document_language: str,
) -> dict[str, ProposedItem]:
    doctype = get_document_type(document_type)
    instructions = INSTRUCTIONS.format(
        document=doctype.title,
        document_language=LANGUAGE_NAMES.get(document_language, document_language),
        report_language=LANGUAGE_NAMES.get(report_language, report_language),
    )
    item_ids = [item.item_id for item in batch]
    message = chat.bind(response_format=response_format(item_ids)).invoke(
        [("system", instructions), ("user", _user_message(doctype, batch, candidates))]
    )
    content = message.content if isinstance(message.content, str) else ""
    return parse_answer(content, item_ids=item_ids)


def _user_message(
    doctype: Any, batch: Sequence[ItemResult], candidates: Mapping[str, Sequence[Passage]]
) -> str:
    titles = {entry.id: (entry.article, entry.title) for entry in doctype.checklist}
    parts = []
    for item in batch:
        article, requirement = REVIEW_ONLY_ITEMS.get(
            item.item_id, titles.get(item.item_id, (item.article, item.item_id))
        )
        passages = list(candidates.get(item.item_id, ()))[:PASSAGES_PER_ITEM]
        shown = (
            "\n".join(f"[passage {passage.index}]\n{passage.text}" for passage in passages)
            or "(no passage was retrieved for this item)"
        )
        parts.append(f"## Item {item.item_id} ({article}): {requirement}\n\n{shown}")
    return "\n\n".join(parts)


def parse_answer(content: str, *, item_ids: Sequence[str]) -> dict[str, ProposedItem]:
    """The model's items by id; ModelAnswerError for anything off the schema.

    The schema is strict on the model's side; it is checked here again because an
    OpenAI-compatible server may not enforce it.
    """
    try:
        answer = json.loads(content)
        entries = answer["items"]
        if not isinstance(entries, list):
            raise TypeError("items is not a list")
        proposed = {}
        for entry in entries:
            item_id = entry["itemId"]
            if item_id not in item_ids or item_id in proposed:
                raise ValueError(f"unexpected or repeated item {item_id!r}")
            quotes = tuple(
                ProposedQuote(passage_index=int(quote["passageIndex"]), quote=str(quote["quote"]))
                for quote in entry["quotes"]
            )
            proposed[item_id] = ProposedItem(
                item_id=item_id,
                status=ItemStatus(entry["status"]),
                finding=str(entry["finding"]).strip(),
                quotes=quotes,
            )
    except (ValueError, TypeError, KeyError) as error:
        raise ModelAnswerError(f"the model's answer is not the schema's JSON: {error}") from error
    return proposed


def _shown_passages(
    batch: Sequence[ItemResult], candidates: Mapping[str, Sequence[Passage]]
) -> tuple[Passage, ...]:
    seen: dict[int, Passage] = {}
    for item in batch:
        for passage in list(candidates.get(item.item_id, ()))[:PASSAGES_PER_ITEM]:
            seen.setdefault(passage.index, passage)
    return tuple(seen.values())


def _model_item(
    offline: ItemResult, proposed: ProposedItem, shown: Sequence[Passage]
) -> ItemResult:
    """The model's opinion as an item, every quote verified against the passages shown."""
    citations = tuple(_citation(quote, shown) for quote in proposed.quotes)
    item = replace(
        offline,
        status=proposed.status,
        finding=proposed.finding,
        citations=tuple(citation for citation in citations if citation.quote.strip()),
    )
    verified = with_verified_quotes(item, shown)
    if verified.citations != item.citations:
        # A finding argued from a quote the document does not contain is not shown either.
        return replace(verified, finding="")
    return verified


def _citation(proposed: ProposedQuote, shown: Sequence[Passage]) -> Citation:
    """The quote with the location of the passage it is in (the cited one first).

    A quote found in no passage keeps the model's text, for `with_verified_quotes` to drop.
    """
    by_index = {passage.index: passage for passage in shown}
    cited = by_index.get(proposed.passage_index)
    ordered = ([cited] if cited else []) + [p for p in shown if p is not cited]
    for passage in ordered:
        found = _verbatim_span(proposed.quote, passage.text)
        if found is not None:
            return Citation(location=passage.location, quote=found)
    return Citation(location=cited.location if cited else "", quote=proposed.quote)


def _verbatim_span(quote: str, text: str) -> str | None:
    """The passage's own text of ``quote``: as given, or with the passage's spacing."""
    quote = quote.strip()
    if not quote:
        return None
    if quote in text:
        return quote
    words = quote.split()
    match = re.search(r"\s+".join(re.escape(word) for word in words), text)
    return match.group(0) if match else None


def _explains(item: ItemResult, report_language: str) -> bool:
    """A non-empty finding in the report's language (its quotes of the document aside)."""
    finding = without_values(item.finding, [citation.quote for citation in item.citations])
    return bool(item.finding.strip()) and not foreign_sentences(finding, report_language)


def merge(*, offline: ItemResult, model: ItemResult, report_language: str) -> ItemResult:
    """The item after the model's opinion (the rule is the module docstring's)."""
    rules, opinion = offline.status, model.status
    explained = _explains(model, report_language)
    quoted = bool(model.citations)
    citations = _union(offline.citations, model.citations)

    def accepted() -> ItemResult:
        return replace(
            offline,
            status=opinion,
            finding=model.finding if explained else offline.finding,
            citations=model.citations,
        )

    def human_check() -> ItemResult:
        findings = [offline.finding, model.finding if explained else ""]
        return replace(
            offline,
            status=ItemStatus.NEEDS_HUMAN_CHECK,
            finding=" ".join(finding.strip() for finding in findings if finding.strip()),
            citations=citations,
        )

    present, weak, missing = ItemStatus.PRESENT, ItemStatus.WEAK, ItemStatus.MISSING
    undecided = ItemStatus.NEEDS_HUMAN_CHECK
    if opinion == rules and opinion != undecided:
        # A missing item has nothing to quote; the others gain the model's evidence.
        return offline if rules == missing else replace(offline, citations=citations)
    if opinion == undecided:
        # The model is unsure, or one of its quotes is not in the document.
        return human_check()
    if rules == undecided:
        if opinion in (present, weak) and quoted:
            return accepted()
        if opinion in (missing, ItemStatus.NOT_APPLICABLE) and explained:
            return accepted()
        return human_check()
    # An upgrade from missing needs the quote; to weak, also the reason it falls short.
    if rules == missing and quoted and (opinion == present or (opinion == weak and explained)):
        return accepted()
    if rules == present and opinion == weak and quoted and explained:
        return accepted()
    if {rules, opinion} == {weak, missing}:
        return offline
    return human_check()


def _union(*groups: Sequence[Citation]) -> tuple[Citation, ...]:
    seen: dict[str, Citation] = {}
    for group in groups:
        for citation in group:
            seen.setdefault(citation.quote, citation)
    return tuple(seen.values())
