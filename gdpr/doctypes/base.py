"""The declarations every document type is made of.

A document type is data: its questionnaire, its sections and its legal checklist, plus the
writers that turn inputs into the text of each checklist item. Nothing here knows about
models, views, serializers or a particular type (the app attaches each type's DRF input
serializer at its edge: `legal_documents.inputs.registry`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from gdpr.composition.context import CompositionContext

AnswerType = Literal["text", "choice", "multiChoice", "boolean", "date"]
ANSWER_TYPES: frozenset[str] = frozenset({"text", "choice", "multiChoice", "boolean", "date"})

# A writer returns the Markdown body of one checklist item (never its heading).
ItemWriter = Callable[["CompositionContext"], str]
# An assessor computes, once per composition, what several writers share (e.g. a risk matrix).
Assessor = Callable[["CompositionContext"], Any]


@dataclass(frozen=True, slots=True)
class ChecklistItem:
    """One mandatory element of a document, as listed in docs/LEGAL.md.

    `id` is the stable identifier used by the completeness report, `title` the short heading
    shown in the document, `requirement` the legal requirement in full, `section` the id of the
    section whose text satisfies it.
    """

    id: str
    article: str
    requirement: str
    section: str
    title: str


@dataclass(frozen=True, slots=True)
class Question:
    """A questionnaire question; `condition` = (question id, expected answer) gates it.

    `item` names the checklist item whose section the answer is written into.
    """

    id: str
    text: str
    help: str
    article: str
    required: bool
    answer_type: AnswerType
    item: str
    options: tuple[str, ...] = ()
    condition: tuple[str, Any] | None = None

    def __post_init__(self) -> None:
        if self.answer_type not in ANSWER_TYPES:
            raise ValueError(f"Unknown answer type {self.answer_type!r} for {self.id}")
        if self.answer_type in {"choice", "multiChoice"} and not self.options:
            raise ValueError(f"Question {self.id} needs options")

    def is_asked(self, answers: Mapping[str, Any]) -> bool:
        """True when the question applies given the answers so far (its condition holds)."""
        if self.condition is None:
            return True
        question_id, expected = self.condition
        answer = answers.get(question_id)
        if isinstance(answer, list | tuple):
            return expected in answer
        return bool(answer == expected)


@dataclass(frozen=True, slots=True)
class Section:
    """A numbered part of the document; its checklist items are written under it."""

    id: str
    title: str
    article: str


@dataclass(frozen=True)
class DocumentType:
    """Everything the pipeline needs to know about one `documentType`.

    `writers` maps every checklist item id to the function writing its body; `assess`, when
    given, runs once per composition and its result is `context.assessment`.
    """

    name: str
    title: str
    ruleset_version: str
    description: str
    questions: tuple[Question, ...]
    sections: tuple[Section, ...]
    checklist: tuple[ChecklistItem, ...]
    writers: Mapping[str, ItemWriter]
    assess: Assessor | None = None
    section_intros: Mapping[str, ItemWriter] = field(default_factory=dict)
    # Read by data subjects (privacy notice, request form): no working notes in the text.
    public: bool = False
    # Leaves the organization (signed by a processor, sent to an authority): no working notes
    # (rule set, questionnaire answers) in the text either; they stay in the API's metadata.
    external: bool = False
    # For a type that leaves the organization only in some cases (a DPIA submitted to the
    # authority under Art. 36(3)(e)): decides from the composed context.
    external_when: Callable[[CompositionContext], bool] | None = None

    def __post_init__(self) -> None:
        # Fail at import time, not in a worker at generation time.
        section_ids = {section.id for section in self.sections}
        item_ids = [item.id for item in self.checklist]
        if len(set(item_ids)) != len(item_ids):
            raise ValueError(f"{self.name}: duplicate checklist ids")
        for item in self.checklist:
            if item.section not in section_ids:
                raise ValueError(f"{self.name}: item {item.id} names unknown section")
            if item.id not in self.writers:
                raise ValueError(f"{self.name}: no writer for item {item.id}")
        question_ids: set[str] = set()
        for question in self.questions:
            if question.item not in item_ids:
                raise ValueError(f"{self.name}: question {question.id} names unknown item")
            if question.condition and question.condition[0] not in question_ids:
                raise ValueError(f"{self.name}: {question.id} depends on a later question")
            question_ids.add(question.id)

    def leaves_organization(self, context: CompositionContext) -> bool:
        """True when the document is read outside the organization that drafts it."""
        if self.public or self.external:
            return True
        return bool(self.external_when and self.external_when(context))

    def items_of(self, section_id: str) -> tuple[ChecklistItem, ...]:
        """The checklist items a section satisfies, in checklist order."""
        return tuple(item for item in self.checklist if item.section == section_id)

    def question(self, question_id: str) -> Question:
        """The question with this id; KeyError when the type has none."""
        for question in self.questions:
            if question.id == question_id:
                return question
        raise KeyError(question_id)

    def write_item(self, item_id: str, context: CompositionContext) -> str:
        """The template text (Markdown body, no heading) of one checklist item."""
        return self.writers[item_id](context).strip()
