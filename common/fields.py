"""Serializer fields shared by every app."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

# docs/API.md: any text field over 100,000 characters is CONTENT_TOO_LONG.
MAX_TEXT_LENGTH = 100_000


class BoundedTextField(serializers.CharField):
    """A CharField whose over-long input fails with the code CONTENT_TOO_LONG.

    `max_length` (a column limit, e.g. 200 for a name) still gives a VALIDATION_ERROR; only
    the service-wide bound of 100,000 characters gives CONTENT_TOO_LONG.
    """

    def to_internal_value(self, data: Any) -> str:
        if isinstance(data, str) and len(data) > MAX_TEXT_LENGTH:
            raise serializers.ValidationError(
                f"At most {MAX_TEXT_LENGTH:,} characters are allowed (got {len(data):,}).",
                code="CONTENT_TOO_LONG",
            )
        return super().to_internal_value(data)
