"""Serializer fields of the register: legal bases and Art. 9(2) conditions kept as code + wording.

The register stores a legal basis as `{"code", "wording"}`: the code is what the report and
the writers reason with (an Art. 6(1) code of `gdpr.composition.recognition.LEGAL_BASES`, or
`art-9-2-<letter>` for an Art. 9(2) condition), the wording is the DPO's own text, shown in
documents beside the code. A plain string or an object with either key is accepted.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from gdpr.composition.recognition import LEGAL_BASES
from register import gdpr_inputs
from register.bases import ART_9_CODES, basis_entry
from register.gdpr_inputs import MAX_LIST_LENGTH, LegalBasisField, SafeguardField, TextField


def _basis_schema(codes: tuple[str, ...], example: str) -> dict[str, Any]:
    entry = {
        "type": "object",
        "properties": {
            "code": {"type": "string", "enum": list(codes)},
            "wording": {"type": "string", "description": "The wording as given, kept verbatim."},
        },
    }
    return {
        "oneOf": [
            {"type": "string", "description": f"Free text or a code, e.g. {example!r}"},
            entry,
        ],
        "description": "Stored and returned as {code, wording}.",
    }


@extend_schema_field(_basis_schema((*LEGAL_BASES, *ART_9_CODES), "Art. 6(1)(b) contract"))
class LegalBasisEntryField(serializers.Field):
    """One legal basis: text naming it (or a code), or `{code, wording}`."""

    default_error_messages = {"invalid": "Expected a text or an object {{code, wording}}."}
    allowed_codes: tuple[str, ...] = (*LEGAL_BASES, *ART_9_CODES)
    # A wording naming a basis and a condition ("explicit consent"): which one is the code.
    condition_first = False

    def to_internal_value(self, data: Any) -> dict[str, str]:
        if isinstance(data, str):
            return basis_entry(self._wording(data), condition_first=self.condition_first)
        if not isinstance(data, Mapping):
            self.fail("invalid")
        unknown = sorted(set(data) - {"code", "wording"})
        if unknown:
            raise serializers.ValidationError(f"Unknown keys {unknown}; use code and wording.")
        code = data.get("code") or ""
        if code and code not in self.allowed_codes:
            raise serializers.ValidationError(
                f"{code!r} is not a code; use one of: " + ", ".join(self.allowed_codes)
            )
        wording = self._wording(data["wording"]) if data.get("wording") else ""
        if not code and not wording:
            raise serializers.ValidationError("Give a code, a wording, or both.")
        return basis_entry(wording, code=code, condition_first=self.condition_first)

    def _wording(self, text: Any) -> str:
        return str(LegalBasisField().run_validation(text))

    def to_representation(self, value: Any) -> Any:
        if isinstance(value, str):
            return basis_entry(value, condition_first=self.condition_first)
        return value


@extend_schema_field(_basis_schema(ART_9_CODES, "Art. 9(2)(b) employment law"))
class Art9ConditionField(LegalBasisEntryField):
    """An Art. 9(2) condition: 'Art. 9(2)(a) explicit consent', or `{code, wording}`."""

    allowed_codes = ART_9_CODES
    condition_first = True

    def to_internal_value(self, data: Any) -> dict[str, str]:
        entry = super().to_internal_value(data)
        if entry["code"] not in ART_9_CODES:
            raise serializers.ValidationError(
                f"{entry['wording']!r} names no Art. 9(2) condition; cite it, e.g."
                " 'Art. 9(2)(a) explicit consent' or 'Art. 9(2)(b) employment law'."
            )
        return entry


def entry_list(child: serializers.Field, **kwargs: Any) -> serializers.ListField:
    """An optional list of at most MAX_LIST_LENGTH entries; a single value is a list of one."""
    kwargs.setdefault("required", False)
    return _SingleOrListField(child=child, max_length=MAX_LIST_LENGTH, **kwargs)


class _SingleOrListField(serializers.ListField):
    def to_internal_value(self, data: Any) -> list[Any]:
        if isinstance(data, str | Mapping):
            data = [data]
        return super().to_internal_value(data)


class PurposeSerializer(serializers.Serializer):
    """A purpose with its own legal basis (the record's basis per purpose)."""

    purpose = TextField(allow_blank=False, required=True)
    legalBasis = LegalBasisField(required=False)  # noqa: N815


# A component of its own: the DPA create body's sub-processor has no safeguard.
@extend_schema_serializer(component_name="RegisterSubProcessor")
class SubProcessorSerializer(gdpr_inputs.SubProcessorSerializer):
    """A vendor's sub-processor; outside the EEA it is an onward transfer."""

    safeguard = SafeguardField(help_text="The Chapter V mechanism of an onward transfer.")
