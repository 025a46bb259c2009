"""What a writer sees: the validated inputs, the questionnaire answers, the clock."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, TypedDict

from gdpr.composition.markdown import escape_block, escape_inline
from gdpr.i18n import _, current_language, format_date, format_datetime


@dataclass(frozen=True, slots=True)
class SourceRef:
    """An uploaded asset of the organization relevant to the document (listed in an annex)."""

    file_name: str
    excerpt: str = ""


class CompositionOptions(TypedDict, total=False):
    """The optional arguments of every composition (`compose`, `build_context`, the register).

    Taken as `**options: Unpack[CompositionOptions]` and passed on whole, so that the register
    and the single document are written from the same arguments and no signature repeats
    them. An absent option is None (`sources`: empty).
    """

    answers: Mapping[str, Any] | None
    finalize_answers: Mapping[str, Any] | None
    organization_name: str | None
    sources: Sequence[SourceRef]
    now: datetime | None


@dataclass(slots=True)
class CompositionContext:
    """Inputs and answers of one composition; `value()` reads them in precedence order.

    Finalize answers override questionnaire answers, which override create-body inputs, so
    that a DPO can correct a value at the last step.
    """

    inputs: Mapping[str, Any]
    answers: Mapping[str, Any]
    now: datetime
    organization_name: str | None = None
    sources: Sequence[SourceRef] = ()
    assessment: Any = None
    extra: dict[str, Any] = field(default_factory=dict)

    def value(self, key: str) -> Any:
        """The answer or input under `key`; None when absent or blank."""
        for layer in (self.answers, self.inputs):
            if key in layer:
                found = layer[key]
                if found is None or (isinstance(found, str | list | tuple) and not found):
                    continue
                if isinstance(found, str) and not found.strip():
                    continue
                return found
        return None

    def has(self, key: str) -> bool:
        """True when `value(key)` is not None."""
        return self.value(key) is not None

    def flag(self, key: str) -> bool | None:
        """A yes/no value: True, False, or None when unknown. Accepts 'yes'/'no' answers."""
        found = self.value(key)
        if isinstance(found, bool) or found is None:
            return found
        if isinstance(found, str):
            lowered = found.strip().lower()
            if lowered in {"yes", "true", "y", "1"}:
                return True
            if lowered in {"no", "false", "n", "0"}:
                return False
        return bool(found)

    def items(self, key: str) -> list[Any]:
        """A list value; a single value becomes a one-element list, absent an empty list."""
        found = self.value(key)
        if found is None:
            return []
        if isinstance(found, list | tuple):
            return list(found)
        return [found]

    def text(self, key: str) -> str | None:
        """The value escaped as Markdown paragraphs, or None when absent."""
        found = self.value(key)
        return None if found is None else escape_block(found)

    def choice(self, key: str) -> str | None:
        """A questionnaire choice answer as one Markdown line, each option named in the
        language (answers are stored as the options' English codes, checked on input)."""
        found = self.value(key)
        if found is None:
            return None
        if isinstance(found, list | tuple):
            return ", ".join(escape_inline(_(str(part))) for part in found)
        return escape_inline(_(found) if isinstance(found, str) else format_value(found))

    def inline(self, key: str) -> str | None:
        """The value escaped as one Markdown line, or None when absent."""
        found = self.value(key)
        if found is None:
            return None
        if isinstance(found, list | tuple):
            return ", ".join(escape_inline(part) for part in found)
        return escape_inline(format_value(found))

    @property
    def company_name(self) -> str | None:
        """The controller's (or client company's) name, as given or resolved by the service."""
        found = self.value("companyName") or self.organization_name
        return str(found) if found else None


def format_value(value: Any) -> str:
    """A plain string for any input value (dates in the language's form, booleans Yes/No)."""
    if isinstance(value, bool):
        return _("Yes") if value else _("No")
    if isinstance(value, datetime):
        return value.isoformat() if current_language() == "en" else format_datetime(value)
    if isinstance(value, date):
        return format_date(value)
    if isinstance(value, list | tuple):
        return ", ".join(format_value(part) for part in value)
    if isinstance(value, Mapping):
        return "; ".join(f"{key}: {format_value(part)}" for key, part in value.items())
    return str(value)
