"""Admin forms generated from data: a type's input serializer, a type's questionnaire.

The forms only translate widgets to the JSON the services expect. Validation stays where
the API has it: the type's input serializer (create) and `validate_answers` (questionnaire),
whose errors are put back on the form fields they name.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Mapping, Sequence
from datetime import date, datetime
from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy, gettext_noop
from rest_framework import serializers

from common.fields import MAX_TEXT_LENGTH
from common.structured import StringOrObjectField
from gdpr.doctypes.base import DocumentType, Question
from legal_documents.inputs.registry import ValidatedDocumentType
from organizations.fields import TextOrObjectFormField
from organizations.models import ClientCompany, Organization
from register.models import ProcessingActivity, Vendor

CLIENT_COMPANY_FIELD = "clientCompanyId"
# Register entries are chosen from the organization's register, not typed as ids.
ACTIVITIES_FIELD = "processingActivityIds"
VENDOR_FIELD = "vendorId"
ROW_SEPARATOR = "|"
LIST_SEPARATOR = ";"
TEXT_OR_OBJECT_HINT = gettext_noop('A text, or a JSON object {"key": "value", ...}.')
_NULL_BOOLEAN_CHOICES = [
    ("", gettext_lazy("Unknown")),
    ("true", gettext_lazy("Yes")),
    ("false", gettext_lazy("No")),
]


def humanize(name: str) -> str:
    """`thirdCountryTransfers` -> `Third country transfers`."""
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).lower()
    words = re.sub(r"\bdpo\b", "DPO", words)
    return words[:1].upper() + words[1:]


def _choice_values(field: serializers.ChoiceField) -> list[str]:
    return [str(value) for value in field.choices]


def _row_columns(child: serializers.Serializer) -> list[str]:
    return list(child.fields)


# --- create form ----------------------------------------------------------------------------
def _form_field(
    name: str, field: serializers.Field, organization: Organization | None
) -> forms.Field:
    """The Django form field standing for one serializer field (a JSON box only as fallback)."""
    label, help_text = humanize(name), str(field.help_text or "")
    common: dict[str, Any] = {"required": False, "label": label, "help_text": help_text}
    if name == CLIENT_COMPANY_FIELD:
        companies = ClientCompany.objects.filter(organization=organization).order_by("name")
        return forms.ModelChoiceField(
            queryset=companies,
            empty_label=gettext("— none: give the company name below —"),
            **{**common, "label": gettext("Client company")},
        )
    if name == ACTIVITIES_FIELD:
        activities = ProcessingActivity.objects.filter(organization=organization)
        return forms.ModelMultipleChoiceField(
            queryset=activities.order_by("name") if organization else activities.none(),
            widget=forms.CheckboxSelectMultiple,
            **{**common, "label": gettext("Processing activities of the register")},
        )
    if name == VENDOR_FIELD:
        vendors = Vendor.objects.filter(organization=organization)
        return forms.ModelChoiceField(
            queryset=vendors.order_by("name") if organization else vendors.none(),
            empty_label=gettext("— none: give the processor below —"),
            **{**common, "label": gettext("Vendor of the register (the processor)")},
        )
    if isinstance(field, StringOrObjectField):
        # A plain text, or a JSON object when it starts with "{" (validated by the API field).
        hint = f"{help_text} {gettext(TEXT_OR_OBJECT_HINT)}".strip()
        return TextOrObjectFormField(api_field=field, **{**common, "help_text": hint})
    if isinstance(field, serializers.Serializer):
        # An object input (e.g. `breach`, `processor`): one "key: value" per line.
        keys = ", ".join(field.fields)
        hint = gettext(
            "One per line: key: value (lists separated by %(separator)r). Keys: %(keys)s."
        ) % {"separator": LIST_SEPARATOR, "keys": keys}
        return forms.CharField(
            widget=forms.Textarea(attrs={"rows": 4}), **{**common, "help_text": hint}
        )
    if isinstance(field, serializers.ListSerializer) and isinstance(
        field.child, serializers.Serializer
    ):
        columns = _row_columns(field.child)
        hint = gettext("One per line: %(columns)s.") % {
            "columns": f" {ROW_SEPARATOR} ".join(humanize(col) for col in columns)
        }
        for column, child_field in field.child.fields.items():
            if isinstance(child_field, serializers.ChoiceField):
                hint += f" {humanize(column)}: {', '.join(_choice_values(child_field))}."
        textarea = forms.Textarea(attrs={"rows": 3})
        return forms.CharField(widget=textarea, **{**common, "help_text": hint})
    if isinstance(field, serializers.ListField):
        if isinstance(field.child, serializers.ChoiceField):
            choices = [(value, value) for value in _choice_values(field.child)]
            return forms.MultipleChoiceField(
                choices=choices, widget=forms.CheckboxSelectMultiple, **common
            )
        one_per_line = gettext("One per line.")  # not inside the f-string: xgettext skips those
        return forms.CharField(
            widget=forms.Textarea(attrs={"rows": 3}),
            **{**common, "help_text": f"{help_text} {one_per_line}".strip()},
        )
    if isinstance(field, serializers.BooleanField):
        return forms.TypedChoiceField(
            choices=_NULL_BOOLEAN_CHOICES, coerce=lambda value: value == "true",
            empty_value=None, **common,
        )  # fmt: skip
    if isinstance(field, serializers.ChoiceField):
        choices = [("", "—"), *((value, value) for value in _choice_values(field))]
        return forms.ChoiceField(choices=choices, **common)
    if isinstance(field, serializers.IntegerField):
        return forms.IntegerField(min_value=field.min_value, max_value=field.max_value, **common)
    if isinstance(field, serializers.DateTimeField):
        widget = forms.DateTimeInput(attrs={"type": "datetime-local"})
        return forms.DateTimeField(widget=widget, **common)
    if isinstance(field, serializers.DateField):
        return forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), **common)
    if isinstance(field, serializers.UUIDField):
        # A register entry (vendorId): its id, as on the register's admin pages.
        return forms.UUIDField(**common)
    if isinstance(field, serializers.CharField):
        return forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), **common)
    return forms.JSONField(**{**common, "help_text": f"{help_text} JSON.".strip()})


class DocumentInputForm(forms.Form):
    """The create body of one document type, field by field.

    `input_data()` returns the body the API would have received (camelCase, blanks left out);
    the type's serializer validates it, so both ways in accept exactly the same documents.
    """

    def __init__(
        self,
        *args: Any,
        spec: ValidatedDocumentType,
        organization: Organization | None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.spec = spec
        self.serializer_fields = spec.input_serializer().fields
        for name, field in self.serializer_fields.items():
            self.fields[name] = _form_field(name, field, organization)

    def _value(self, name: str, value: Any) -> Any:
        field = self.serializer_fields[name]
        if value in (None, "", []):
            return None
        if name in (CLIENT_COMPANY_FIELD, VENDOR_FIELD):
            return str(value.pk)
        if name == ACTIVITIES_FIELD:
            return [str(activity.pk) for activity in value] or None
        if isinstance(field, serializers.ListSerializer):
            columns = _row_columns(field.child)
            rows = []
            for line in str(value).splitlines():
                if not line.strip():
                    continue
                cells = [cell.strip() for cell in line.split(ROW_SEPARATOR, len(columns) - 1)]
                rows.append(
                    {column: cell for column, cell in zip(columns, cells, strict=False) if cell}
                )
            return rows or None
        if isinstance(field, serializers.Serializer):
            return _object_value(field, str(value))
        if isinstance(field, serializers.ListField) and isinstance(value, str):
            return [line.strip() for line in value.splitlines() if line.strip()] or None
        if isinstance(value, datetime | date):
            return value.isoformat()
        if isinstance(value, uuid.UUID):
            return str(value)
        return value

    def input_data(self) -> dict[str, Any]:
        """The create body; call after `is_valid()`."""
        data = {}
        for name in self.serializer_fields:
            value = self._value(name, self.cleaned_data.get(name))
            if value is not None:
                data[name] = value
        return data

    def add_api_errors(self, details: Any) -> None:
        """Put serializer/API error details back on the fields they name."""
        if not isinstance(details, Mapping):
            self.add_error(None, str(details))
            return
        for name, messages in details.items():
            target = name if name in self.fields else None
            for message in _flatten(messages):
                text = _translated(message)
                self.add_error(target, text if target else f"{name}: {text}")


def _object_value(field: serializers.Serializer, text: str) -> dict[str, Any] | None:
    """`key: value` lines as the object the API takes; list keys split on LIST_SEPARATOR.

    An unknown key is passed on, so that the serializer names it in its error.
    """
    found: dict[str, Any] = {}
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if not key or not value:
            continue
        child = field.fields.get(key)
        if isinstance(child, serializers.ListField):
            found[key] = [part.strip() for part in value.split(LIST_SEPARATOR) if part.strip()]
        else:
            found[key] = value
    return found or None


def _translated(message: str) -> str:
    """An API error message in the admin's language when the catalog has it (static ones,
    marked with `gettext_noop` where raised); DRF translates its own messages itself."""
    return gettext(message) if message else message


def _flatten(messages: Any) -> list[str]:
    if isinstance(messages, Mapping):
        return [f"{key}: {text}" for key, value in messages.items() for text in _flatten(value)]
    if isinstance(messages, list | tuple):
        return [text for item in messages for text in _flatten(item)]
    return [str(messages)]


# --- questionnaire form -----------------------------------------------------------------------
def _question_field(question: Question) -> forms.Field:
    common: dict[str, Any] = {
        "required": False,
        "label": question.text,
        "help_text": f"{question.help} ({question.article})",
    }
    options = [(option, option) for option in question.options]
    if question.answer_type == "boolean":
        return forms.TypedChoiceField(
            choices=[
                ("", gettext("Not answered")), ("true", gettext("Yes")), ("false", gettext("No")),
            ],
            coerce=lambda value: value == "true", empty_value=None, **common,
        )  # fmt: skip
    if question.answer_type == "choice":
        return forms.ChoiceField(choices=[("", gettext("Not answered")), *options], **common)
    if question.answer_type == "multiChoice":
        return forms.MultipleChoiceField(
            choices=options, widget=forms.CheckboxSelectMultiple, **common
        )
    if question.answer_type == "date":
        return forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), **common)
    return forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), **common)


def _initial(question: Question, answer: Any) -> Any:
    if answer is None:
        return None
    if question.answer_type == "boolean":
        return "true" if answer else "false"
    return answer


def condition_attributes(question: Question) -> dict[str, str]:
    """`data-*` attributes the page script reads to show a conditional question."""
    if question.condition is None:
        return {}
    depends_on, expected = question.condition
    value = json.dumps(expected) if isinstance(expected, bool) else str(expected)
    return {"data-condition-question": depends_on, "data-condition-value": value}


class QuestionnaireForm(forms.Form):
    """Every question of the type; the page shows a conditional one while its condition holds."""

    def __init__(
        self, *args: Any, spec: DocumentType, answers: Mapping[str, Any], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.spec = spec
        self.stored = dict(answers)
        for question in spec.questions:
            self.fields[question.id] = _question_field(question)
            self.fields[question.id].initial = _initial(question, answers.get(question.id))

    def rows(self) -> list[dict[str, Any]]:
        """What the template renders: the bound field, its question and condition attributes."""
        return [
            {
                "field": self[question.id],
                "question": question,
                "asked": question.is_asked(self.stored),
                "condition": condition_attributes(question),
            }
            for question in self.spec.questions
        ]

    def answer_pairs(self) -> list[tuple[str, Any]]:
        """(questionId, answer) for the questions asked given the new answers.

        An emptied answer clears a stored one (None); questions whose condition no longer
        holds are left as they are.
        """
        values: dict[str, Any] = {}
        for question in self.spec.questions:
            value = self.cleaned_data.get(question.id)
            if isinstance(value, date):
                value = value.isoformat()
            values[question.id] = None if value in ("", [], None) else value
        pairs = []
        for question in self.spec.questions:
            if not question.is_asked(values):
                continue
            value = values[question.id]
            if value is None and question.id not in self.stored:
                continue
            if value != self.stored.get(question.id):
                pairs.append((question.id, value))
        return pairs

    def add_api_errors(self, details: Any) -> None:
        """Put `validate_answers` details (`{questionId: [message]}`) on their questions."""
        if not isinstance(details, Mapping):
            self.add_error(None, str(details))
            return
        for question_id, messages in details.items():
            target = question_id if question_id in self.fields else None
            for message in _flatten(messages):
                self.add_error(target, _translated(message))


class FinalizeQuestionsForm(forms.Form):
    """The free-text questions answered at finalization (SEED.md, Finalize body).

    Rows `question_<n>` / `answer_<n>`: the stored pairs, then EXTRA_ROWS empty ones; empty
    rows are skipped, a question needs its answer and an answer its question. The pairs
    replace the stored ones, as `generate` with `questionsToFinalize` does.
    """

    EXTRA_ROWS = 3
    MAX_ROWS = 50  # as the API's bound (views/flow.py MAX_FINALIZE_QUESTIONS)

    def __init__(self, *args: Any, stored: Sequence[Mapping[str, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        count = min(len(stored) + self.EXTRA_ROWS, self.MAX_ROWS)
        if self.is_bound:
            posted = [key for key in self.data if key.startswith(("question_", "answer_"))]
            indexes = [
                int(key.split("_", 1)[1]) for key in posted if key.split("_", 1)[1].isdigit()
            ]
            count = min(max([count - 1, *indexes]) + 1, self.MAX_ROWS)
        for index in range(count):
            pair = stored[index] if index < len(stored) else {}
            self.fields[f"question_{index}"] = forms.CharField(
                required=False, max_length=MAX_TEXT_LENGTH, initial=pair.get("question"),
                label=gettext("Question %(number)d") % {"number": index + 1},
                widget=forms.Textarea(attrs={"rows": 2}),
            )  # fmt: skip
            self.fields[f"answer_{index}"] = forms.CharField(
                required=False, max_length=MAX_TEXT_LENGTH, initial=pair.get("answer"),
                label=gettext("Answer"), widget=forms.Textarea(attrs={"rows": 2}),
            )  # fmt: skip
        self.row_count = count

    def rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        """(question, answer) bound fields, for the template."""
        return [(self[f"question_{n}"], self[f"answer_{n}"]) for n in range(self.row_count)]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for index in range(self.row_count):
            question = (cleaned.get(f"question_{index}") or "").strip()
            answer = (cleaned.get(f"answer_{index}") or "").strip()
            if question and not answer:
                self.add_error(f"answer_{index}", gettext("This question needs its answer."))
            if answer and not question:
                self.add_error(f"question_{index}", gettext("This answer needs its question."))
        return cleaned

    def has_rows_posted(self) -> bool:
        """True when the bound data carries question rows."""
        return any(key.startswith("question_") for key in self.data)

    def pairs(self) -> list[dict[str, str]]:
        """The filled rows as `{question, answer}`, in order."""
        found = []
        for index in range(self.row_count):
            question = (self.cleaned_data.get(f"question_{index}") or "").strip()
            answer = (self.cleaned_data.get(f"answer_{index}") or "").strip()
            if question and answer:
                found.append({"question": question, "answer": answer})
        return found


class IterateForm(forms.Form):
    message = forms.CharField(
        max_length=10_000,
        widget=forms.Textarea(
            attrs={"rows": 3, "placeholder": gettext_lazy("E.g. Shorten the risk section.")}
        ),
        label=gettext_lazy("Instruction"),
    )
