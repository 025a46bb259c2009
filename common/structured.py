"""Serializer fields for inputs given either as a plain text or as a structured object.

Integrators hold structured facts (a recipient with its country, a DPO with an e-mail) where
the first API took strings; both are accepted. The OpenAPI schema shows both forms (oneOf)
through the extension at the end of this module.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.plumbing import build_basic_type
from drf_spectacular.types import OpenApiTypes
from rest_framework import serializers

from common.fields import MAX_TEXT_LENGTH, BoundedTextField

MAX_OBJECT_KEYS = 100
MAX_KEY_LENGTH = 200
MAX_DEPTH = 4


def _check_text(text: str, where: str) -> None:
    if len(text) > MAX_TEXT_LENGTH:
        raise serializers.ValidationError(
            f"{where}: at most {MAX_TEXT_LENGTH:,} characters are allowed.",
            code="CONTENT_TOO_LONG",
        )
    # PostgreSQL's jsonb refuses both; a 400 beats a 500.
    if "\x00" in text:
        raise serializers.ValidationError(f"{where}: null characters are not allowed.")
    if any(0xD800 <= ord(char) <= 0xDFFF for char in text):
        raise serializers.ValidationError(f"{where}: surrogate characters are not allowed.")


def validate_json_value(value: Any, *, where: str = "value", depth: int = 0) -> Any:
    """A free-form JSON value (an object's extra key) checked as the text fields are.

    Strings are bounded (CONTENT_TOO_LONG) and free of null/surrogate characters; objects
    and lists are bounded in size and depth. Returns the value unchanged.
    """
    if depth > MAX_DEPTH:
        raise serializers.ValidationError(f"{where}: nested too deeply.")
    if isinstance(value, str):
        _check_text(value, where)
    elif isinstance(value, Mapping):
        if len(value) > MAX_OBJECT_KEYS:
            raise serializers.ValidationError(f"{where}: at most {MAX_OBJECT_KEYS} keys.")
        for key, part in value.items():
            if not isinstance(key, str) or not key.strip() or len(key) > MAX_KEY_LENGTH:
                raise serializers.ValidationError(f"{where}: keys are non-empty short texts.")
            _check_text(key, where)
            validate_json_value(part, where=f"{where}.{key}", depth=depth + 1)
    elif isinstance(value, list):
        if len(value) > MAX_OBJECT_KEYS:
            raise serializers.ValidationError(f"{where}: at most {MAX_OBJECT_KEYS} items.")
        for index, part in enumerate(value):
            validate_json_value(part, where=f"{where}[{index}]", depth=depth + 1)
    elif not (value is None or isinstance(value, bool | int | float)):
        raise serializers.ValidationError(f"{where}: not a JSON value.")
    return value


class StringOrObjectField(serializers.Field):
    """A text (as `text_field` validates it) or an object (as `object_serializer` does).

    Unknown keys of the object are refused with the accepted ones named, unless the object
    serializer sets `open_keys = True`: then they are kept (validated as JSON values).
    The validated value is the text, or a dict of the object's given keys in their order.
    """

    default_error_messages = {
        "invalid": "Expected a text or an object.",
    }

    def __init__(
        self,
        *,
        object_serializer: type[serializers.Serializer],
        text_field: serializers.CharField | None = None,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_null", True)
        super().__init__(**kwargs)
        self.object_serializer = object_serializer
        self.text_field = text_field or BoundedTextField(allow_blank=True)

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, str):
            return self.text_field.run_validation(data)
        if not isinstance(data, Mapping):
            self.fail("invalid")
        serializer = self.object_serializer(data=data)
        if not serializer.is_valid():
            raise serializers.ValidationError(serializer.errors)
        known = set(serializer.fields)
        unknown = [key for key in data if key not in known]
        if unknown and not getattr(self.object_serializer, "open_keys", False):
            accepted = ", ".join(known)
            raise serializers.ValidationError(
                {key: [f"Unknown key; accepted keys: {accepted}."] for key in unknown}
            )
        validated = dict(serializer.validated_data)
        result = {}
        for key, value in data.items():
            if key in known:
                if key in validated:
                    result[key] = validated[key]
            else:
                result[key] = validate_json_value(value, where=str(key))
        return result

    def to_representation(self, value: Any) -> Any:
        return value


class StringOrObjectFieldExtension(OpenApiSerializerFieldExtension):
    """oneOf: the plain text, or the object as its serializer describes it."""

    target_class = "common.structured.StringOrObjectField"
    match_subclasses = True

    def map_serializer_field(self, auto_schema, direction):  # type: ignore[no-untyped-def]
        field = self.target
        component = auto_schema.resolve_serializer(field.object_serializer, direction)
        text = build_basic_type(OpenApiTypes.STR)
        schema: dict[str, Any] = {"oneOf": [text, component.ref]}
        if field.help_text:
            schema["description"] = str(field.help_text)
        if field.allow_null:
            schema["nullable"] = True
        return schema
