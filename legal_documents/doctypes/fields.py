"""Input fields shared by every document type's create body.

Names are camelCase as in docs/API.md: the API layer passes the request JSON through unchanged.
Every text is limited to 100,000 characters; an over-long text fails with the error code
`CONTENT_TOO_LONG` so that the API can answer with that code rather than VALIDATION_ERROR.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rest_framework import serializers

from common.fields import BoundedTextField

MAX_LIST_LENGTH = 500
CONTENT_TOO_LONG = "CONTENT_TOO_LONG"

LEGAL_BASES: tuple[str, ...] = (
    "consent",
    "contract",
    "legal-obligation",
    "vital-interests",
    "public-task",
    "legitimate-interests",
)
TRANSFER_SAFEGUARDS: tuple[str, ...] = (
    "adequacy-decision",
    "standard-contractual-clauses",
    "binding-corporate-rules",
    "code-or-certification",
    "art-49-derogation",
    "art-49-compelling-legitimate-interests",
    "none",
)


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


def legal_bases(**kwargs: Any) -> serializers.ListField:
    """The Art. 6(1) legal bases relied on, as a list of LEGAL_BASES values."""
    kwargs.setdefault("required", False)
    return serializers.ListField(child=serializers.ChoiceField(choices=LEGAL_BASES), **kwargs)


class TransferSerializer(serializers.Serializer):
    """One transfer to a third country or international organisation (Art. 44-49)."""

    country = TextField(allow_blank=False, required=True)
    recipient = TextField()
    safeguard = serializers.ChoiceField(choices=TRANSFER_SAFEGUARDS, required=False)
    safeguardDetails = TextField()  # noqa: N815 - API field names are camelCase


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
    companyDetails = TextField()  # noqa: N815
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

    processingActivity = TextField()  # noqa: N815
    purposes = text_list()
    legalBasis = legal_bases()  # noqa: N815
    dataSubjects = text_list()  # noqa: N815
    dataCategories = text_list()  # noqa: N815
    recipients = text_list()
    thirdCountryTransfers = transfers()  # noqa: N815
    retentionPeriods = text_list()  # noqa: N815
    dpoContact = TextField()  # noqa: N815
