"""Response serializers shared by every app."""

from __future__ import annotations

from typing import Any, ClassVar

from drf_spectacular.extensions import OpenApiSerializerExtension
from rest_framework import serializers


class OmitEmptyFieldsSerializer(serializers.Serializer):
    """A response whose ``omitted_when_empty`` fields are absent, not null, when empty.

    docs/SEED.md marks some response fields optional ("present when ..."): a client tells
    "there is none" from the key's absence, so the key is left out rather than sent as null.
    The OpenAPI schema lists those fields as optional (OmitEmptyFieldsSchema).
    """

    omitted_when_empty: ClassVar[tuple[str, ...]] = ()

    def to_representation(self, instance: Any) -> dict[str, Any]:
        data = super().to_representation(instance)
        for name in self.omitted_when_empty:
            if data.get(name) in (None, ""):
                data.pop(name, None)
        return data


class OmitEmptyFieldsSchema(OpenApiSerializerExtension):
    """drf-spectacular marks every read-only field required; these ones may be absent."""

    target_class = OmitEmptyFieldsSerializer
    match_subclasses = True

    def map_serializer(self, auto_schema, direction):  # type: ignore[no-untyped-def]
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        optional = set(self.target.omitted_when_empty)
        required = [name for name in schema.get("required", []) if name not in optional]
        if required:
            schema["required"] = required
        else:
            schema.pop("required", None)
        return schema
