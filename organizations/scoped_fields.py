"""Serializer fields that take ids of the caller's organization only."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from organizations.foreign_ids import CONTEXT_KEY, UnknownReference


class OrganizationPrimaryKeyField(serializers.PrimaryKeyRelatedField):
    """A primary key of the caller's organization (the queryset is scoped by the serializer).

    An id it does not find is noted in the serializer's context (`CONTEXT_KEY`) before it is
    refused, so that the view can tell the owner's trail when the id is another
    organization's.
    """

    def __init__(self, *, object_type: str, **kwargs: Any) -> None:
        self.object_type = object_type
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> Any:
        try:
            return super().to_internal_value(data)
        except serializers.ValidationError:
            noted = self.context.get(CONTEXT_KEY)
            if isinstance(noted, list) and self.queryset is not None:
                field = self.field_name or getattr(self.parent, "field_name", "")
                noted.append(
                    UnknownReference(
                        model=self.queryset.model,
                        ids=(str(data),),
                        object_type=self.object_type,
                        field=field,
                    )
                )
            raise
