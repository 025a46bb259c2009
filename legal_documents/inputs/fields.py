"""Input fields shared by every document type's create body.

Names are camelCase as in docs/API.md: the API layer passes the request JSON through unchanged.
Every text is limited to 100,000 characters; an over-long text fails with the error code
`CONTENT_TOO_LONG` so that the API can answer with that code rather than VALIDATION_ERROR.
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
    ACCEPTED_SAFEGUARD_FORMS,
    LEGAL_BASES,
    TRANSFER_SAFEGUARDS,
    recognise_legal_basis,
    recognise_safeguard,
)
from organizations.fields import company_details_field

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


def text_list(**kwargs: Any) -> serializers.ListField:
    """A list of short texts (purposes, categories, recipients...), each length-limited."""
    kwargs.setdefault("required", False)
    return serializers.ListField(
        child=TextField(allow_blank=False), max_length=MAX_LIST_LENGTH, **kwargs
    )


def flag(**kwargs: Any) -> serializers.BooleanField:
    """An optional yes/no input; absent means unknown, which writers mark as to be completed."""
    kwargs.setdefault("required", False)
    kwargs.setdefault("allow_null", True)
    return serializers.BooleanField(**kwargs)


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
    role = serializers.ChoiceField(
        choices=RECIPIENT_ROLES,
        required=False,
        allow_null=True,
        help_text="The recipient's role (picks the SCC module).",
    )


class RecipientSerializer(serializers.Serializer):
    """A recipient; outside the EEA it is also a third-country transfer."""

    name = TextField(allow_blank=False, required=True)
    role = serializers.ChoiceField(choices=RECIPIENT_ROLES, required=False)
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


class ProcessingActivitySerializer(serializers.Serializer):
    """A processing activity named and described; its purposes join `purposes`."""

    name = TextField(allow_blank=False, required=True)
    description = TextField()
    purposes = text_list()


def string_or_object_list(object_serializer: type[serializers.Serializer], **kwargs: Any):  # type: ignore[no-untyped-def]
    """A list whose entries are texts or objects of `object_serializer`."""
    kwargs.setdefault("required", False)
    return serializers.ListField(
        child=StringOrObjectField(
            object_serializer=object_serializer,
            text_field=TextField(allow_blank=False),
            allow_null=False,
        ),
        max_length=MAX_LIST_LENGTH,
        **kwargs,
    )


def register_ids(**kwargs: Any) -> serializers.ListField:
    """Ids of processing activities of the caller's register (checked by the service)."""
    kwargs.setdefault("required", False)
    kwargs.setdefault(
        "help_text",
        "Processing activities of your register to write the document from, instead of"
        " repeating their facts; facts given in the body win over the register's.",
    )
    return serializers.ListField(
        child=serializers.UUIDField(), max_length=MAX_LIST_LENGTH, allow_empty=False, **kwargs
    )


def transfers(**kwargs: Any) -> TransferSerializer:
    """A list of third-country transfers."""
    kwargs.setdefault("required", False)
    return TransferSerializer(many=True, **kwargs)


class DocumentInputSerializer(serializers.Serializer):
    """The create-body fields every document type shares.

    Rule: either `companyName` (optionally with `companyDetails`) or `clientCompanyId`, not
    both. Whether `clientCompanyId` belongs to the caller's organization is checked by the
    service that creates the document, not here.
    """

    companyName = TextField()  # noqa: N815
    companyDetails = company_details_field()  # noqa: N815
    clientCompanyId = serializers.UUIDField(required=False, allow_null=True)  # noqa: N815

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        has_name = bool((attrs.get("companyName") or "").strip())
        has_client = attrs.get("clientCompanyId") is not None
        if has_name and has_client:
            raise serializers.ValidationError(
                {"clientCompanyId": ["Give either companyName or clientCompanyId, not both."]}
            )
        if not has_name and not has_client:
            raise serializers.ValidationError(
                {"companyName": ["Give companyName (and companyDetails) or clientCompanyId."]}
            )
        if attrs.get("companyDetails") and not has_name:
            raise serializers.ValidationError(
                {"companyDetails": ["companyDetails goes with companyName."]}
            )
        return attrs


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


class ProcessingDescriptionSerializer(DocumentInputSerializer):
    """The description of a processing activity that records (Art. 30(1)), privacy notices
    (Art. 13-14) and DPIAs (Art. 35(7)(a)) all start from, declared once."""

    processingActivity = StringOrObjectField(  # noqa: N815
        object_serializer=ProcessingActivitySerializer,
        text_field=TextField(),
        help_text="A text, or {name, description, purposes}.",
    )
    purposes = text_list()
    legalBasis = legal_bases()  # noqa: N815
    dataSubjects = text_list()  # noqa: N815
    dataCategories = text_list()  # noqa: N815
    recipients = string_or_object_list(
        RecipientSerializer, help_text="Texts, or {name, role, country, safeguard}."
    )
    thirdCountryTransfers = transfers()  # noqa: N815
    retentionPeriods = string_or_object_list(  # noqa: N815
        RetentionSerializer, help_text="Texts, or {category, period, criteria}."
    )
    dpoContact = TextField()  # noqa: N815
    processingActivityIds = register_ids()  # noqa: N815
