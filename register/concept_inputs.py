"""List items that may name their concept: `{"name": "Befunde", "category": "health"}`.

A text is recognised by the engine in any language (`gdpr.concepts`); an integrator that
already knows the concept says so, and the rules need not guess. The codes are those of the
concept schemes (`gdpr/concepts/data/<scheme>.json`), read when a value is validated and when
the OpenAPI schema is built, so a scheme file added later is taken without a code change.
A scheme that does not exist yet checks nothing (its codes are not known).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from rest_framework import serializers

from gdpr.concepts import codes, scheme_names
from register.gdpr_inputs import TextField, string_or_object_list

DATA_CATEGORY_SCHEMES = ("data-category",)
MEASURE_SCHEMES = ("security-measure", "rights-measure")


def known_codes(schemes: tuple[str, ...]) -> tuple[str, ...] | None:
    """The codes of the schemes that exist, or None when none of them does yet."""
    present = [name for name in schemes if name in scheme_names()]
    if not present:
        return None
    return tuple(code for name in present for code in codes(name))


class ConceptCodeField(serializers.CharField):
    """A code of one of `schemes` (checked against the schemes that exist)."""

    def __init__(self, *, schemes: tuple[str, ...], **kwargs: Any) -> None:
        self.schemes = schemes
        kwargs.setdefault("required", False)
        kwargs.setdefault("max_length", 100)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        code = str(super().to_internal_value(data)).strip()
        accepted = known_codes(self.schemes)
        if accepted is not None and code not in accepted:
            raise serializers.ValidationError(
                f"{code!r} is not a code of {' or '.join(self.schemes)}; accepted: "
                + ", ".join(accepted)
                + "."
            )
        return code


class ConceptCodeFieldExtension(OpenApiSerializerFieldExtension):
    """The codes as an enum, listed when the schema is built."""

    target_class = "register.concept_inputs.ConceptCodeField"

    def map_serializer_field(self, auto_schema, direction):  # type: ignore[no-untyped-def]
        field = self.target
        schema: dict[str, Any] = {"type": "string"}
        accepted = known_codes(field.schemes)
        if accepted is not None:
            schema["enum"] = list(accepted)
        schema["description"] = str(field.help_text or "") or (
            f"A code of the concept scheme(s) {', '.join(field.schemes)}."
        )
        return schema


class DataCategoryItemSerializer(serializers.Serializer):
    """A data category named as the controller calls it, with its concept."""

    name = TextField(allow_blank=False, required=True)
    category = ConceptCodeField(
        schemes=DATA_CATEGORY_SCHEMES,
        help_text="The concept (gdpr/concepts/data/data-category.json): an Art. 9(1) special"
        " category, Art. 10 data, or an ordinary kind. Without it the name is recognised.",
    )


class SecurityMeasureItemSerializer(serializers.Serializer):
    """A measure named as the controller calls it, with its family."""

    name = TextField(allow_blank=False, required=True)
    family = ConceptCodeField(
        schemes=MEASURE_SCHEMES,
        help_text="The family of the measure: a code of the security-measure or rights-measure"
        " concept scheme. Without it the name is recognised.",
    )


def data_category_list(**kwargs: Any) -> serializers.ListField:
    """Data categories: texts, or `{name, category}` naming the concept."""
    kwargs.setdefault("help_text", "Texts, or {name, category} with a data-category code.")
    field: serializers.ListField = string_or_object_list(DataCategoryItemSerializer, **kwargs)
    return field


def security_measure_list(**kwargs: Any) -> serializers.ListField:
    """Security (Art. 32) or rights measures: texts, or `{name, family}` naming the family."""
    kwargs.setdefault(
        "help_text", "Texts, or {name, family} with a security-measure or rights-measure code."
    )
    field: serializers.ListField = string_or_object_list(SecurityMeasureItemSerializer, **kwargs)
    return field
