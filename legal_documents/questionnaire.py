"""The questionnaire of a document: its questions, the stored answers, answering them.

Questions are data of the document type (`DocumentType.questions`); a question with a
`condition` is asked only while the answer it depends on holds. Answers live in
`LegalDocument.answers` as `{questionId: {"answer": value, "answeredAt": iso}}` and feed the
next composition (draft or finalize).

Validation (`validate_answers`) is shared by the questionnaire and by finalize
(`questionsToFinalize`); it raises `InvalidAnswers` VALIDATION_ERROR (400) with the errors per
question, or CONTENT_TOO_LONG (400) when a text answer is over 100,000 characters.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from audit.services import Actor, record_event
from common.domain import ContentTooLong
from common.fields import MAX_TEXT_LENGTH
from gdpr.doctypes.base import DocumentType, Question
from gdpr.doctypes.registry import get_document_type
from gdpr.i18n import _, activate
from legal_documents.exceptions import InvalidAnswers
from legal_documents.models import LegalDocument

CONTENT_TOO_LONG = "CONTENT_TOO_LONG"


class AnswerError(ValueError):
    """One answer that does not fit its question; `code` is the API error code."""

    def __init__(self, message: str, code: str = "VALIDATION_ERROR") -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Progress:
    answered: int
    total: int

    def as_dict(self) -> dict[str, int]:
        return {"answered": self.answered, "total": self.total}


def answer_values(document: LegalDocument) -> dict[str, Any]:
    """The stored answers as `{questionId: value}` (what composition and conditions read)."""
    return {key: entry["answer"] for key, entry in (document.answers or {}).items()}


def asked_questions(spec: DocumentType, answers: Mapping[str, Any]) -> list[Question]:
    """The questions whose condition holds given `answers`, in questionnaire order."""
    return [question for question in spec.questions if question.is_asked(answers)]


def progress(spec: DocumentType, answers: Mapping[str, Any]) -> Progress:
    """Answered and total count only the questions that are asked given the answers."""
    asked = asked_questions(spec, answers)
    answered = sum(1 for question in asked if answers.get(question.id) is not None)
    return Progress(answered=answered, total=len(asked))


def questionnaire_for(document: LegalDocument) -> dict[str, Any]:
    """The GET shape: `{questions: [...], answered, total}` with each stored answer.

    Texts are in the document's language; option values stay as declared (they are the
    answers the API accepts, whatever the language).
    """
    spec = get_document_type(document.document_type)
    answers = answer_values(document)
    with activate(document.language):
        questions = [
            _question_shape(question, answers) for question in asked_questions(spec, answers)
        ]
    return {"questions": questions, **progress(spec, answers).as_dict()}


def _question_shape(question: Question, answers: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "id": question.id,
        "text": _(question.text),
        "help": _(question.help),
        "article": _(question.article),
        "required": question.required,
        "answerType": question.answer_type,
        # The stored codes (answers use them) and their names in the document's language.
        "options": list(question.options),
        "optionLabels": [_(option) for option in question.options],
        "answer": answers.get(question.id),
    }


# The specification sends every answer as a string ("Questionnaire answer body"), so the
# typed forms (true, ["a", "b"]) have a string twin.
_TRUE_WORDS = frozenset({"true", "yes", "y", "1"})
_FALSE_WORDS = frozenset({"false", "no", "n", "0"})


def _boolean_from_text(text: str) -> bool | str:
    word = text.strip().lower()
    if word in _TRUE_WORDS:
        return True
    if word in _FALSE_WORDS:
        return False
    return text


def _options_from_text(text: str, options: tuple[str, ...]) -> list[str]:
    """One option as written, or several separated by semicolons or new lines."""
    if text.strip() in options:
        return [text.strip()]
    return [part.strip() for part in re.split(r"[;\n]", text) if part.strip()]


def validate_answer(question: Question, value: Any) -> Any:
    """The answer as stored (JSON-ready) or AnswerError; `None` clears an answer."""
    if value is None:
        return None
    kind = question.answer_type
    if kind == "boolean":
        value = _boolean_from_text(value) if isinstance(value, str) else value
        if not isinstance(value, bool):
            raise AnswerError(gettext_noop("Must be true or false (or the strings yes / no)."))
        return value
    if kind == "text":
        if not isinstance(value, str):
            raise AnswerError(gettext_noop("Must be a string."))
        if len(value) > MAX_TEXT_LENGTH:
            raise AnswerError(
                f"At most {MAX_TEXT_LENGTH:,} characters are allowed (got {len(value):,}).",
                code=CONTENT_TOO_LONG,
            )
        if not value.strip():
            raise AnswerError(gettext_noop("May not be blank; send null to clear the answer."))
        if "\x00" in value:  # PostgreSQL cannot store it, and no person typed it
            raise AnswerError(gettext_noop("May not contain NUL characters."))
        return value
    if kind == "choice":
        if not isinstance(value, str) or value not in question.options:
            raise AnswerError(f"Must be one of: {', '.join(question.options)}.")
        return value
    if kind == "multiChoice":
        if isinstance(value, str):
            value = _options_from_text(value, question.options)
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise AnswerError(gettext_noop("Must be a list of options."))
        unknown = [item for item in value if item not in question.options]
        if unknown:
            raise AnswerError(
                f"Unknown options {unknown}; choose from: {', '.join(question.options)}."
            )
        return list(dict.fromkeys(value))  # duplicates dropped, order kept
    # date
    if not isinstance(value, str):
        raise AnswerError(gettext_noop("Must be an ISO date (YYYY-MM-DD)."))
    try:
        return date.fromisoformat(value).isoformat()
    except ValueError:
        raise AnswerError(gettext_noop("Must be an ISO date (YYYY-MM-DD).")) from None


def validate_answers(
    spec: DocumentType, pairs: Iterable[tuple[str, Any]], *, field: str | None = None
) -> dict[str, Any]:
    """`{questionId: value}` validated, or InvalidAnswers / ContentTooLong with every
    error at once.

    Details are `{questionId: [message]}`, nested under `field` when given (the request
    field that carried the answers). CONTENT_TOO_LONG wins over VALIDATION_ERROR.
    """
    known = {question.id: question for question in spec.questions}
    validated: dict[str, Any] = {}
    errors: dict[str, list[str]] = {}
    codes: set[str] = set()
    for question_id, value in pairs:
        question = known.get(question_id)
        if question is None:
            errors[str(question_id)] = [f"Unknown question for {spec.name}."]
            continue
        try:
            validated[question_id] = validate_answer(question, value)
        except AnswerError as error:
            errors[question_id] = [str(error)]
            codes.add(error.code)
    if errors:
        details = {field: errors} if field else errors
        if CONTENT_TOO_LONG in codes:
            raise ContentTooLong("An answer is too long.", details=details)
        raise InvalidAnswers("The request is not valid.", details=details)
    return validated


def merge_answers(document: LegalDocument, validated: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Write `validated` into `document.answers` (not saved); the stored entries, in order.

    A `None` value removes the stored answer.
    """
    answered_at = timezone.now().isoformat().replace("+00:00", "Z")
    stored = dict(document.answers or {})
    entries = []
    for question_id, value in validated.items():
        if value is None:
            stored.pop(question_id, None)
            entries.append({"questionId": question_id, "answer": None, "answeredAt": None})
            continue
        stored[question_id] = {"answer": value, "answeredAt": answered_at}
        entries.append({"questionId": question_id, "answer": value, "answeredAt": answered_at})
    document.answers = stored
    return entries


@transaction.atomic
def questionnaire_answer(
    *,
    document: LegalDocument,
    pairs: Iterable[tuple[str, Any]],
    actor: Actor,
    field: str | None = None,
) -> tuple[list[dict[str, Any]], Progress]:
    """Validate and store answers; returns the stored entries and the new progress.

    Raises InvalidAnswers (VALIDATION_ERROR) / ContentTooLong (nothing stored then). The
    document row is locked so that a job completing at the same time keeps these answers.
    """
    locked = LegalDocument.objects.select_for_update().get(pk=document.pk)
    spec = get_document_type(locked.document_type)
    validated = validate_answers(spec, list(pairs), field=field)
    entries = merge_answers(locked, validated)
    locked.save(update_fields=["answers", "updated_at"])
    document.answers = locked.answers
    record_event(
        organization=document.organization,
        actor=actor,
        action="document.answer",
        object_type="document",
        object_id=locked.pk,
        details={"questionIds": list(validated)},
    )
    return entries, progress(spec, answer_values(locked))
