"""A company's details: a plain text, or an object whose inner fields vary (docs/SEED.md).

Shared by the client-company body (`details`) and the legal-document create body
(`companyDetails`), so that both accept exactly the same shapes.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from common.fields import BoundedTextField
from common.structured import StringOrObjectField


def _text(**kwargs: Any) -> BoundedTextField:
    kwargs.setdefault("required", False)
    kwargs.setdefault("allow_blank", True)
    kwargs.setdefault("allow_null", True)
    return BoundedTextField(**kwargs)


class ContactSerializer(serializers.Serializer):
    """A person and how to reach them, e.g. the data protection officer."""

    name = _text()
    email = _text()
    phone = _text()


@extend_schema_field({"oneOf": [{"type": "integer", "minimum": 0}, {"type": "string"}]})
class HeadcountField(serializers.Field):
    """A number of employees, or a text such as "about 40"."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, int) and not isinstance(data, bool) and data >= 0:
            return data
        if isinstance(data, str):
            return _text().run_validation(data)
        raise serializers.ValidationError("Expected a non-negative integer or a text.")

    def to_representation(self, value: Any) -> Any:
        return value


class CompanyDetailsObjectSerializer(serializers.Serializer):
    """Known keys of a company's details; any other key is kept and shown as "key: value"."""

    open_keys = True

    address = _text()
    email = _text()
    phone = _text()
    website = _text()
    registrationNumber = _text()  # noqa: N815 - API field names are camelCase
    vatId = _text()  # noqa: N815
    representative = _text(help_text="The representative in the EU (Art. 27), if any.")
    dpo = StringOrObjectField(
        object_serializer=ContactSerializer,
        help_text="The data protection officer: a text, or {name, email, phone}.",
    )
    employees = HeadcountField(required=False, allow_null=True)


def company_details_field(**kwargs: Any) -> StringOrObjectField:
    """`companyDetails` / `details`: a text, or an object (known keys plus any others)."""
    kwargs.setdefault(
        "help_text",
        "A text, or an object: address, email, phone, website, registrationNumber, vatId,"
        " representative, dpo {name, email, phone}, employees, and any other key (shown in"
        ' documents as "key: value").',
    )
    return StringOrObjectField(object_serializer=CompanyDetailsObjectSerializer, **kwargs)


class TextOrObjectFormField(forms.JSONField):
    """Admin widget for a "text or object" input: a plain text, or a JSON object.

    A text starting with "{" is read as an object; anything else is kept as the text, so that
    "Hauptstrasse 1, Berlin" needs no quotes. `api_field` validates as the API does.
    """

    def __init__(self, *, api_field: serializers.Field, **kwargs: Any) -> None:
        kwargs.setdefault("widget", forms.Textarea(attrs={"rows": 4}))
        super().__init__(**kwargs)
        self.api_field = api_field

    @staticmethod
    def _is_text(value: Any) -> bool:
        return isinstance(value, str) and not value.strip().startswith("{")

    def to_python(self, value: Any) -> Any:
        if self._is_text(value):
            return value.strip()
        return super().to_python(value)

    def prepare_value(self, value: Any) -> Any:
        return value if isinstance(value, str) else super().prepare_value(value)

    def bound_data(self, data: Any, initial: Any) -> Any:
        return data if self._is_text(data) else super().bound_data(data, initial)

    def validate(self, value: Any) -> None:
        super().validate(value)
        if value in self.empty_values:
            return
        try:
            self.api_field.run_validation(value)
        except serializers.ValidationError as error:
            raise forms.ValidationError(_flatten(error.detail)) from error


class CompanyDetailsFormField(TextOrObjectFormField):
    """Admin widget of a client company's details."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault(
            "help_text",
            gettext_lazy(
                'A text, or a JSON object such as {"address": "...", "dpo": {"name": "...",'
                ' "email": "..."}}; other keys are shown as "key: value".'
            ),
        )
        super().__init__(api_field=company_details_field(), **kwargs)


def _flatten(detail: Any) -> list[str]:
    if isinstance(detail, dict):
        return [f"{key}: {text}" for key, value in detail.items() for text in _flatten(value)]
    if isinstance(detail, list):
        return [text for item in detail for text in _flatten(item)]
    return [str(detail)]
