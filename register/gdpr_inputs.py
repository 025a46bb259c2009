"""DRF fields for the GDPR facts integrators send: legal bases, safeguards, recipients, retention.

Shared by the processing register (`register.serializers`) and the document create bodies
(`legal_documents.inputs`), which hold the same facts in the same shapes (a plain string, or
an object). Here, in the register, the lowest app holding these facts (legal_documents sits
above it); not in `common`, which keeps the helpers that know no GDPR. Names are camelCase
as in docs/API.md. Every text is limited to 100,000 characters; an over-long text fails with
the error code `CONTENT_TOO_LONG` so that the API can answer with that code rather than
VALIDATION_ERROR. Legal-basis and safeguard wording is recognised
by `gdpr.composition.recognition` (pure Python) and kept as given.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from common.fields import BoundedTextField
from common.structured import StringOrObjectField
from gdpr.composition.inputs import RECIPIENT_ROLES
from gdpr.composition.recognition import (
    ACCEPTED_LEGAL_BASIS_FORMS,
    ACCEPTED_ROLE_FORMS,
    ACCEPTED_SAFEGUARD_FORMS,
    LEGAL_BASES,
    TRANSFER_SAFEGUARDS,
    recognise_legal_basis,
    recognise_role,
    recognise_safeguard,
)

MAX_LIST_LENGTH = 500
CONTENT_TOO_LONG = "CONTENT_TOO_LONG"
# How much of a refused text the error repeats.
REFUSAL_ECHO = 200


class TextField(BoundedTextField):
    """An optional, trimmed text of at most 100,000 characters (CONTENT_TOO_LONG beyond)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_blank", True)
        super().__init__(**kwargs)


class OneOrManyListField(serializers.ListField):
    """A list; a single item (a text, or an object where objects are items) is taken as a
    list of one: `"measuresTaken": "remote wipe issued"` is one measure, not a 400."""

    def to_internal_value(self, data: Any) -> list[Any]:
        if isinstance(data, str | Mapping):
            data = [data]
        return super().to_internal_value(data)


def text_list(**kwargs: Any) -> serializers.ListField:
    """A list of short texts (purposes, categories, recipients...), each length-limited."""
    kwargs.setdefault("required", False)
    return OneOrManyListField(
        child=TextField(allow_blank=False), max_length=MAX_LIST_LENGTH, **kwargs
    )


def flag(**kwargs: Any) -> serializers.BooleanField:
    """An optional yes/no input; absent means unknown, which writers mark as to be completed."""
    kwargs.setdefault("required", False)
    kwargs.setdefault("allow_null", True)
    return serializers.BooleanField(**kwargs)


class DpiaScreeningFields(serializers.Serializer):
    """The DPIA screening facts (EDPB WP248 criteria, Art. 35(3)); absent or null is unknown.

    Declared once for the DPIA create body, which takes them among its own fields (a base
    class), and the register, which keeps them as an activity's `dpiaScreening` object: the
    register's answers are DPIA inputs under the same keys.
    """

    highlyPersonalData = flag()  # noqa: N815
    approximateSubjects = serializers.IntegerField(required=False, min_value=0)  # noqa: N815
    vulnerableSubjects = flag()  # noqa: N815
    largeScale = flag()  # noqa: N815
    systematicMonitoring = flag()  # noqa: N815
    publicAreaMonitoring = flag()  # noqa: N815
    profiling = flag()
    automatedDecisions = flag()  # noqa: N815
    innovativeTechnology = flag()  # noqa: N815
    datasetMatching = flag()  # noqa: N815
    preventsRightOrService = flag()  # noqa: N815


class RecognisedChoiceField(serializers.ChoiceField):
    """A code of `choices`, or free text naming one (recognised by `recognise`).

    The value kept is the text as given: writers show the recognised code with the wording.
    Text that names nothing is refused with the accepted forms listed.
    """

    def __init__(self, *, recognise: Any, accepted_forms: tuple[str, ...], **kwargs: Any) -> None:
        self.recognise = recognise
        self.accepted_forms = accepted_forms
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str) or not data.strip():
            raise serializers.ValidationError(self._refusal(data))
        text = TextField(allow_blank=False).run_validation(data)
        if text in self.choices:
            return text
        if self.recognise(text) is None:
            raise serializers.ValidationError(self._refusal(text))
        return text

    def _refusal(self, data: Any) -> str:
        shown = repr(data) if len(repr(data)) <= REFUSAL_ECHO else repr(data)[:REFUSAL_ECHO] + "…"
        return f"{shown} is not recognised. Accepted forms: " + "; ".join(self.accepted_forms)


@extend_schema_field(
    {
        # anyOf, not oneOf: a code is also a text, and both forms are accepted.
        "anyOf": [
            {"type": "string", "enum": list(LEGAL_BASES)},
            {
                "type": "string",
                "description": "Free text naming the basis, kept verbatim in the document,"
                " e.g. 'Art. 6(1)(b) employment contract', 'legitimate interest in fleet"
                " safety', 'Art. 9(2)(b) employment law obligations' (an Art. 9(2) condition).",
            },
        ]
    }
)
class LegalBasisField(RecognisedChoiceField):
    """One Art. 6(1) legal basis (a code, or text naming it) or an Art. 9(2) condition."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            choices=LEGAL_BASES,
            recognise=recognise_legal_basis,
            accepted_forms=ACCEPTED_LEGAL_BASIS_FORMS,
            **kwargs,
        )


@extend_schema_field(
    {
        # anyOf, not oneOf: a code is also a text, and both forms are accepted.
        "anyOf": [
            {"type": "string", "enum": list(TRANSFER_SAFEGUARDS)},
            {
                "type": "string",
                "description": "Free text naming the mechanism, kept verbatim, e.g. 'Standard"
                " Contractual Clauses', 'adequacy decision', 'BCR'.",
            },
        ]
    }
)
class SafeguardField(RecognisedChoiceField):
    """A Chapter V transfer mechanism: a code, or text naming it."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        super().__init__(
            choices=TRANSFER_SAFEGUARDS,
            recognise=recognise_safeguard,
            accepted_forms=ACCEPTED_SAFEGUARD_FORMS,
            **kwargs,
        )


class RoleField(RecognisedChoiceField):
    """A recipient's role: a code (the RecipientRoleEnum of the schema), or words naming it in
    any language ("Auftragsverarbeiter", "sous-traitant", "titolare del trattamento")."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        super().__init__(
            choices=RECIPIENT_ROLES,
            recognise=recognise_role,
            accepted_forms=ACCEPTED_ROLE_FORMS,
            **kwargs,
        )


class LegalBasisListField(serializers.ListField):
    """The legal bases relied on; a single text is taken as a list of one."""

    def to_internal_value(self, data: Any) -> list[str]:
        if isinstance(data, str):
            data = [data]
        return super().to_internal_value(data)


def legal_bases(**kwargs: Any) -> serializers.ListField:
    """The Art. 6(1) legal bases (codes or free text) and any Art. 9(2) conditions."""
    kwargs.setdefault("required", False)
    return LegalBasisListField(child=LegalBasisField(), max_length=MAX_LIST_LENGTH, **kwargs)


class TransferSerializer(serializers.Serializer):
    """One transfer to a third country or international organisation (Art. 44-49).

    `safeguard` and `mechanism` are synonyms, each a code or free text naming one.
    """

    country = TextField(allow_blank=False, required=True)
    recipient = TextField()
    safeguard = SafeguardField()
    mechanism = SafeguardField()
    safeguardDetails = TextField()  # noqa: N815 - API field names are camelCase
    role = RoleField(
        allow_null=True,
        help_text="The recipient's role (picks the SCC module): a code, or words naming it in"
        " any EU language.",
    )


class SubProcessorSerializer(serializers.Serializer):
    """An authorised sub-processor, where it processes and what for."""

    name = TextField(allow_blank=False, required=True)
    country = TextField()
    service = TextField()
    address = TextField()


class RecipientSerializer(serializers.Serializer):
    """A recipient; outside the EEA it is also a third-country transfer."""

    name = TextField(allow_blank=False, required=True)
    role = RoleField(help_text="A code, or words naming the role in any EU language.")
    country = TextField(help_text="Country name or ISO code; outside the EEA = a transfer.")
    safeguard = SafeguardField()


class RetentionSerializer(serializers.Serializer):
    """How long one category of data is kept, or the criteria deciding it (Art. 13(2)(a))."""

    category = TextField()
    period = TextField()
    criteria = TextField()

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not (attrs.get("period") or attrs.get("criteria")):
            raise serializers.ValidationError("Give a period, criteria, or both.")
        return attrs


def string_or_object_list(object_serializer: type[serializers.Serializer], **kwargs: Any):  # type: ignore[no-untyped-def]
    """A list whose entries are texts or objects of `object_serializer`."""
    kwargs.setdefault("required", False)
    return OneOrManyListField(
        child=StringOrObjectField(
            object_serializer=object_serializer,
            text_field=TextField(allow_blank=False),
            allow_null=False,
        ),
        max_length=MAX_LIST_LENGTH,
        **kwargs,
    )


def error_codes(errors: Any) -> set[str]:
    """Every error code in a (nested) DRF `serializer.errors` structure.

    The API layer answers CONTENT_TOO_LONG when that code is among them.
    """
    found: set[str] = set()
    stack: list[Any] = [errors]
    while stack:
        current = stack.pop()
        if isinstance(current, Mapping):
            stack.extend(current.values())
        elif isinstance(current, Iterable) and not isinstance(current, str):
            stack.extend(current)
        code = getattr(current, "code", None)
        if isinstance(code, str):
            found.add(code)
    return found
