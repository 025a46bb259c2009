"""The clause our own template writes for a checklist item: a review's `suggestion`.

A review tells the DPO what a vendor's document lacks; the suggestion is what our own DPA or
privacy notice would say instead, in the report's language. It is composed by the same item
writers as a generated document (`DocumentType.write_item`), so it never drifts from the
template and reuses its translations, from a neutral context:

- facts of a particular agreement (names, data, purposes, durations, retention) are left out,
  so the writer states what is needed; that statement becomes a placeholder in brackets,
  "[the types of personal data]". Where the writer would put the placeholder mid-sentence
  (the parties' names) the input is the bracketed placeholder itself, "[the processor's name]";
- choices the clause depends on take the template's protective default: general written
  authorisation of sub-processors with 30 days' notice and a right to object, the
  controller's choice between deletion and return, breaches notified within 24 hours, the
  Art. 32(1) measure families Annex III asks for (as their translated labels), a processor
  outside the EEA under the 2021/914 SCCs for the transfer items;
- a privacy notice item that depends on a basis is written for that basis (legitimate
  interests for `legitimate-interests`, consent for `withdraw-consent`), `source` for data
  not obtained from the data subject, `automated-decisions` as "no solely automated
  decisions" (the common case; the DPO adapts it).

The Markdown is flattened to plain text (no emphasis, lists folded into the sentence that
introduces them, tables as "header: cell" lines); a paragraph or two at most.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache
from types import MappingProxyType
from typing import Any

from gdpr.composition.assessments.security_measures import FAMILY_BY_KEY
from gdpr.composition.markdown import MARKER_WORDS
from gdpr.composition.skeleton import build_context
from gdpr.composition.writers.data_processing_agreement import write_compliance_assistance
from gdpr.composition.writers.data_processing_agreement_annexes import REQUIRED_FAMILIES
from gdpr.doctypes.registry import get_document_type
from gdpr.i18n import _, activate, punct

DPA = "DATA_PROCESSING_AGREEMENT"
PRIVACY_POLICY = "PRIVACY_POLICY"

# Ids a review checks beyond the template's checklist, with the checklist item whose writer
# holds the template's own sentence for it and how to take it.
BREACH_NOTIFICATION = "breach-notification"
TRANSFER_INSTRUMENTS = "transfer-instruments"


# Placeholders: the writers' own msgids, translated in the writers' catalogs. Not marked
# here (a marked string in this file would be extracted into another domain).
CONTROLLER_NAME = "the controller's name"
PROCESSOR_NAME = "the processor's name"
THIRD_COUNTRY = "the third country"
RECIPIENT = "Recipient"


def _bracketed(msgid: str) -> str:
    return f"[{_(msgid)}]"


# The inputs every item of a type is written from (see the module docstring). Callables are
# evaluated with the report's language active, so their placeholders are translated.
_DPA_INPUTS: Mapping[str, Callable[[], Any]] = {
    "companyName": lambda: _bracketed(CONTROLLER_NAME),
    "processorName": lambda: _bracketed(PROCESSOR_NAME),
    "subprocessorAuthorisation": lambda: "general",
    "objectionPeriodDays": lambda: 30,
    "securityMeasures": lambda: [_(FAMILY_BY_KEY[key].label) for key in REQUIRED_FAMILIES],
}
# Per item, inputs on top of the type's (an item written for the case it concerns).
_DPA_ITEM_INPUTS: Mapping[str, Mapping[str, Callable[[], Any]]] = {
    "transfers": {
        "processorInEu": lambda: False,
        "transferMechanism": lambda: "Standard contractual clauses",
        # The SCC sentence names the data importer: the processor, not a bracketed name.
        "processorName": lambda: None,
    },
}
_DPA_ITEM_INPUTS = {**_DPA_ITEM_INPUTS, TRANSFER_INSTRUMENTS: _DPA_ITEM_INPUTS["transfers"]}

_PRIVACY_POLICY_INPUTS: Mapping[str, Callable[[], Any]] = {}
_PRIVACY_POLICY_ITEM_INPUTS: Mapping[str, Mapping[str, Callable[[], Any]]] = {
    "legitimate-interests": {"legalBasis": lambda: ["Art. 6(1)(f)"]},
    "withdraw-consent": {"legalBasis": lambda: ["consent"]},
    "transfers": {
        "thirdCountryTransfers": lambda: [
            {
                "country": _bracketed(THIRD_COUNTRY),
                "recipient": _bracketed(RECIPIENT),
                # The safeguard's code (its label, not "as stated"), a processor as importer:
                # the instrument names its SCC module.
                "mechanism": "standard-contractual-clauses",
                "role": "processor",
            }
        ]
    },
    "source": {"dataCollectedFromSubject": lambda: False},
    "automated-decisions": {"automatedDecisions": lambda: False},
}

# Which paragraphs (by index, after flattening) of a writer's text the suggestion keeps,
# where the whole would be more than a clause: the DPA's transfer item also completes the
# SCC options clause by clause; a notice's transfer table is one example row.
_KEPT_PARAGRAPHS: Mapping[tuple[str, str], tuple[int, ...]] = {
    (DPA, "transfers"): (0, -1),
    (DPA, TRANSFER_INSTRUMENTS): (0,),
    (PRIVACY_POLICY, "transfers"): (0, -1),
}
# Paragraphs that describe the neutral example rather than the clause ("No sub-processor is
# authorised at signature." under a general authorisation).
_DROPPED_MESSAGES: Mapping[tuple[str, str], tuple[str, ...]] = {
    (DPA, "d-subprocessors"): ("No sub-processor is authorised at signature.",),
}
# Review-only ids: the checklist item whose writer says it, or a writer of its own.
_ALIASES: Mapping[tuple[str, str], str] = {(DPA, TRANSFER_INSTRUMENTS): "transfers"}


def _breach_notification(context: Any) -> str:
    # Art. 33(2) is one limb of the template's Art. 28(3)(f) sentence; the sentence is kept
    # whole (without the cost note of the questionnaire) so it reads as the template's clause.
    return str(write_compliance_assistance(context))


_OWN_WRITERS: Mapping[tuple[str, str], Callable[[Any], str]] = {
    (DPA, BREACH_NOTIFICATION): _breach_notification,
}

_INPUTS = {DPA: _DPA_INPUTS, PRIVACY_POLICY: _PRIVACY_POLICY_INPUTS}
_ITEM_INPUTS = {DPA: _DPA_ITEM_INPUTS, PRIVACY_POLICY: _PRIVACY_POLICY_ITEM_INPUTS}

# The writers' "to be completed" marker, in any language, up to the end of its line.
_MARKER = re.compile(
    r"\*\*\[(?:" + "|".join(re.escape(word) for word in MARKER_WORDS.values()) + r")\]\*\*"
    r"[ \t]*(?P<what>[^\n]*)"
)
_ESCAPED = re.compile(r"\\(.)")
_EMPHASIS = re.compile(r"\*\*|(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])")


def suggested_clause(*, document_type: str, item_id: str, language: str) -> str:
    """The text our own template writes for ``item_id`` of ``document_type`` in ``language``.

    Plain text, a paragraph or two; "" for a type or item the template does not write.
    ``language`` is one of the document languages (en, de, fr, es, it); another raises
    `gdpr.i18n.UnsupportedLanguage`.
    """
    return _suggestions(document_type, language).get(item_id, "")


def suggested_item_ids(*, document_type: str) -> tuple[str, ...]:
    """The item ids ``suggested_clause`` writes for ``document_type`` (checklist order)."""
    if document_type not in _INPUTS:
        return ()
    checklist = tuple(item.id for item in get_document_type(document_type).checklist)
    extra = tuple(
        item_id for (type_name, item_id) in (*_ALIASES, *_OWN_WRITERS) if type_name == document_type
    )
    return checklist + extra


@cache
def _suggestions(document_type: str, language: str) -> Mapping[str, str]:
    """Every suggestion of a type in a language (composed once per process)."""
    if document_type not in _INPUTS:
        return MappingProxyType({})
    doctype = get_document_type(document_type)
    found: dict[str, str] = {}
    with activate(language):
        for item_id in suggested_item_ids(document_type=document_type):
            context = build_context(document_type=doctype, inputs=_inputs(document_type, item_id))
            own = _OWN_WRITERS.get((document_type, item_id))
            source_id = _ALIASES.get((document_type, item_id), item_id)
            markdown = own(context) if own else doctype.write_item(source_id, context)
            found[item_id] = _clause(document_type, item_id, markdown)
    return MappingProxyType(found)


def _inputs(document_type: str, item_id: str) -> dict[str, Any]:
    layers = {**_INPUTS[document_type], **_ITEM_INPUTS[document_type].get(item_id, {})}
    values = {key: make() for key, make in layers.items()}
    return {key: value for key, value in values.items() if value is not None}


def _clause(document_type: str, item_id: str, markdown: str) -> str:
    paragraphs = plain_paragraphs(markdown)
    dropped = {_(message) for message in _DROPPED_MESSAGES.get((document_type, item_id), ())}
    paragraphs = [paragraph for paragraph in paragraphs if paragraph not in dropped]
    kept = _KEPT_PARAGRAPHS.get((document_type, item_id))
    if kept is not None:
        paragraphs = [paragraphs[index] for index in kept]
    return "\n\n".join(paragraphs)


def plain_paragraphs(markdown: str) -> list[str]:
    """The writers' Markdown as plain paragraphs (markers as bracketed placeholders)."""
    blocks = [block.strip() for block in re.split(r"\n\s*\n", markdown) if block.strip()]
    paragraphs: list[str] = []
    for block in blocks:
        lines = [line.strip() for line in block.split("\n")]
        if lines[0].startswith("|"):
            text = _table_text(lines)
        elif all(line.startswith("- ") for line in lines):
            text = _list_text([_inline(line[2:]) for line in lines])
        else:
            text = " ".join(_inline(line) for line in lines)
        # "... where:" and its list (or table) are one sentence.
        if paragraphs and paragraphs[-1].endswith(":") and (lines[0][:2] in ("- ", "| ")):
            paragraphs[-1] = f"{paragraphs[-1]} {text}"
        else:
            paragraphs.append(text)
    return paragraphs


def _inline(line: str) -> str:
    line = _MARKER.sub(lambda match: f"[{match['what'].strip()}]", line)
    line = _EMPHASIS.sub("", line)
    # A line ending in a backslash is a hard break of the author's lines.
    line = line.removesuffix("\\")
    return _ESCAPED.sub(r"\1", line).strip()


def _list_text(entries: list[str]) -> str:
    """List entries in one sentence: as written when they carry their own punctuation.

    Like `_table_text`, called with the report's language active (its separators' spacing).
    """
    if all(entry.endswith((";", ".", ",")) for entry in entries):
        return " ".join(entries)
    return f"{punct(';')} ".join(entries) + "."


def _table_text(lines: list[str]) -> str:
    def cells(line: str) -> list[str]:
        return [_inline(cell) for cell in re.split(r"(?<!\\)\|", line.strip().strip("|"))]

    headers = cells(lines[0])
    rows = [cells(line) for line in lines[2:]]
    # An empty cell ("-") of the example row says nothing about the clause.
    return " ".join(
        f"{punct(';')} ".join(
            f"{header}{punct(':')} {cell}"
            for header, cell in zip(headers, row, strict=False)
            if cell not in ("", "-")
        )
        + "."
        for row in rows
    )
