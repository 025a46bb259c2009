"""List envelope of docs/API.md: `{<items>, totalCount, hasMore}`, `limit` 1..100, `offset`."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.response import Response

MAX_LIMIT = 100


class PaginationQuery(serializers.Serializer):
    limit = serializers.IntegerField(min_value=1, max_value=MAX_LIMIT, required=False, default=20)
    offset = serializers.IntegerField(min_value=0, required=False, default=0)


class EnvelopePagination(LimitOffsetPagination):
    """Use `envelope_pagination("documents")` to name a list's items key."""

    items_key = "results"
    default_limit = 20
    max_limit = MAX_LIMIT

    def paginate_queryset(self, queryset, request, view=None):  # type: ignore[no-untyped-def]
        # Out-of-range values are an error the caller should see, not silently clamped.
        query = PaginationQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        return super().paginate_queryset(queryset, request, view)

    def get_paginated_response(self, data: Any) -> Response:
        has_more = self.offset + self.limit < self.count
        return Response({self.items_key: data, "totalCount": self.count, "hasMore": has_more})

    def get_paginated_response_schema(self, schema: dict) -> dict:
        return {
            "type": "object",
            "required": [self.items_key, "totalCount", "hasMore"],
            "properties": {
                self.items_key: schema,
                "totalCount": {"type": "integer"},
                "hasMore": {"type": "boolean"},
            },
        }


def envelope_pagination(items_key: str) -> type[EnvelopePagination]:
    """A pagination class whose envelope names its items `items_key` (also in the schema)."""
    name = f"{items_key[0].upper()}{items_key[1:]}Pagination"
    return type(name, (EnvelopePagination,), {"items_key": items_key})
