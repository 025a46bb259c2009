"""Input fields shared by every document type's create body.

Names are camelCase as in docs/API.md: the API layer passes the request JSON through unchanged.
Every text is limited to 100,000 characters; an over-long text fails with the error code
`CONTENT_TOO_LONG` so that the API can answer with that code rather than VALIDATION_ERROR.
The fields for GDPR facts (legal bases, safeguards, recipients, retention) live in the
processing register (`register.gdpr_inputs`), which holds the same facts; they are
re-exported here.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from common.structured import StringOrObjectField
from organizations.fields import company_details_field
from register.concept_inputs import data_category_list, security_measure_list
from register.gdpr_inputs import (
    CONTENT_TOO_LONG,
    MAX_LIST_LENGTH,
    LegalBasisField,
    RecipientSerializer,
    RetentionSerializer,
    SafeguardField,
    TextField,
    TransferSerializer,
    error_codes,
    flag,
    legal_bases,
    string_or_object_list,
    text_list,
)

__all__ = [
    "CONTENT_TOO_LONG", "MAX_LIST_LENGTH", "DocumentInputSerializer", "LegalBasisField",
    "ProcessingActivitySerializer", "ProcessingDescriptionSerializer", "RecipientSerializer",
    "RetentionSerializer", "SafeguardField", "TextField", "TransferSerializer",
    "data_category_list", "error_codes", "flag", "legal_bases", "security_measure_list",
    "string_or_object_list", "text_list", "transfers",
]  # fmt: skip


class ProcessingActivitySerializer(serializers.Serializer):
    """A processing activity named and described; its purposes join `purposes`."""

    name = TextField(allow_blank=False, required=True)
    description = TextField()
    purposes = text_list()


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
    dataCategories = data_category_list()  # noqa: N815
    recipients = string_or_object_list(
        RecipientSerializer, help_text="Texts, or {name, role, country, safeguard}."
    )
    thirdCountryTransfers = transfers()  # noqa: N815
    retentionPeriods = string_or_object_list(  # noqa: N815
        RetentionSerializer, help_text="Texts, or {category, period, criteria}."
    )
    dpoContact = TextField()  # noqa: N815
    processingActivityIds = register_ids()  # noqa: N815
