"""A document's name as people say it: its type and what it is about.

"DPIA - Customer churn scoring", "DPA - Acme Cloud Ltd", "Breach notification - 2026-11-03
Mailbox compromise" (with an en dash). The subject comes from the stored inputs, which hold
the register's facts too (legal_documents.register_inputs writes them there); the type is
translated into the active (admin user's) language. The id is no part of the name: it stays
available as `short_id`, shown after the name in lists, and in full on the document's page.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from django.utils.translation import pgettext_lazy

from gdpr.composition.register import REGISTER_ACTIVITIES

if TYPE_CHECKING:
    from django.utils.functional import Promise

SEPARATOR = " \u2013 "  # an en dash
SUBJECT_CHARACTERS = 60
SHORT_ID_CHARACTERS = 8


class LegalDocument(Protocol):
    """What naming reads of a `models.LegalDocument` (the model's `__str__` calls this module)."""

    pk: Any
    document_type: str
    inputs: Any


TYPE_LABELS: dict[str, Promise] = {
    "DPIA": pgettext_lazy("document type", "DPIA"),
    "DATA_PROCESSING_AGREEMENT": pgettext_lazy("document type", "DPA"),
    "BREACH_NOTIFICATION": pgettext_lazy("document type", "Breach notification"),
    "PRIVACY_POLICY": pgettext_lazy("document type", "Privacy notice"),
    "RECORD_OF_PROCESSING": pgettext_lazy("document type", "Record of processing"),
    "DATA_SUBJECT_REQUEST_FORM": pgettext_lazy("document type", "Data subject request"),
}


def document_type_label(document_type: str) -> str:
    """The short name of a type in the active language ("DPIA", "DPA", …)."""
    label = TYPE_LABELS.get(document_type)
    return str(label) if label is not None else document_type.replace("_", " ").capitalize()


def short_id(document: LegalDocument) -> str:
    """The id's first characters: enough to tell two documents of one subject apart."""
    return str(document.pk)[:SHORT_ID_CHARACTERS]


def document_name(document: LegalDocument) -> str:
    """The type and the subject; the short id when the inputs name no subject."""
    subject = document_subject(document) or short_id(document)
    return f"{document_type_label(document.document_type)}{SEPARATOR}{subject}"


def document_subject(document: LegalDocument) -> str:
    """What the document is about, as a one-line title ("" when its inputs do not say)."""
    inputs: Mapping[str, Any] = document.inputs or {}
    subject_of = _SUBJECTS.get(document.document_type, _activity)
    return _title(subject_of(inputs) or _company(document))


# -- the subject of each type --------------------------------------------------------------------
def _activity(inputs: Mapping[str, Any]) -> str:
    return _text(inputs.get("processingActivity"))


def _record(inputs: Mapping[str, Any]) -> str:
    # The whole register (or several activities) is the organization's record: named by it.
    if inputs.get(REGISTER_ACTIVITIES):
        return ""
    return _activity(inputs)


def _processor(inputs: Mapping[str, Any]) -> str:
    return _text(inputs.get("processor")) or _text(inputs.get("processorName"))


def _breach(inputs: Mapping[str, Any]) -> str:
    given = inputs.get("breach")
    breach: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
    when = next(
        (
            str(value)[:10]
            for value in (
                inputs.get("awareAt"),
                inputs.get("discoveredAt"),
                breach.get("discoveredAt"),
                inputs.get("occurredAt"),
                breach.get("occurredAt"),
            )
            if value
        ),
        "",
    )
    what = _text(inputs.get("breachNature")) or _text(breach.get("nature"))
    return " ".join(part for part in (when, what) if part)


def _request(inputs: Mapping[str, Any]) -> str:
    return _text(inputs.get("requesterName"))


_SUBJECTS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "DPIA": _activity,
    "PRIVACY_POLICY": _activity,
    "RECORD_OF_PROCESSING": _record,
    "DATA_PROCESSING_AGREEMENT": _processor,
    "BREACH_NOTIFICATION": _breach,
    "DATA_SUBJECT_REQUEST_FORM": _request,
}


# -- shapes --------------------------------------------------------------------------------------
def _text(value: Any) -> str:
    """A text, or the `name` of an object given for one (`{name, description, …}`)."""
    if isinstance(value, Mapping):
        value = value.get("name")
    return value.strip() if isinstance(value, str) else ""


def _company(document: LegalDocument) -> str:
    """The company the document is written for, without a query of its own."""
    name = (document.inputs or {}).get("companyName")
    if isinstance(name, str) and name.strip():
        return name
    # Lists select the client company with the document; elsewhere it is not worth a query.
    field = type(document).client_company.field  # type: ignore[attr-defined]
    client = document.client_company if field.is_cached(document) else None  # type: ignore[attr-defined]
    return client.name if client is not None else ""


def _title(text: str) -> str:
    """The first line of `text`, on one line and cut at a word near SUBJECT_CHARACTERS."""
    line = " ".join(text.strip().splitlines()[0].split()) if text.strip() else ""
    if len(line) <= SUBJECT_CHARACTERS:
        return line
    cut = line[:SUBJECT_CHARACTERS].rsplit(" ", 1)[0].rstrip(" ,;:.-\u2013")
    return f"{cut}…"
