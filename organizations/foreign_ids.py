"""Ids given in a request body that name objects of another organization.

A body id is checked against the caller's organization (a serializer's scoped queryset, a
service reading the register) and refused like an id that exists nowhere. What is refused
is reported here as an `UnknownReference`, by the code that refused it: a domain error
carries it (`unknown_references`), a serializer field adds it to its context
(organizations.scoped_fields); the base viewset (organizations.viewsets) then records
each id that does exist, in another organization, in both trails, as it does for ids in
a path.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Model

# A body may list many ids: past this many per request the rest is not looked up (each
# recorded id costs two audit appends).
MAX_RECORDED_PER_REQUEST = 20
CONTEXT_KEY = "unknown_references"


@dataclass(frozen=True)
class UnknownReference:
    """Ids of `model` (by primary key) that `field` named and that are not the caller's."""

    model: type[Model]
    ids: tuple[str, ...]
    object_type: str
    field: str
    owner_field: str = "organization"


def references_of(exception: BaseException) -> tuple[UnknownReference, ...]:
    return tuple(getattr(exception, CONTEXT_KEY, ()) or ())


def foreign_owners(
    references: Iterable[UnknownReference], *, organization_id: Any
) -> list[tuple[UnknownReference, str, Any]]:
    """(reference, id, owner organization id) of the ids that exist in another organization.

    One query per reference; malformed ids exist nowhere and are skipped.
    """
    found: list[tuple[UnknownReference, str, Any]] = []
    budget = MAX_RECORDED_PER_REQUEST
    for reference in references:
        ids = [value for value in reference.ids[:budget] if _is_key(reference.model, value)]
        budget -= len(reference.ids[:budget])
        if ids:
            owners = (
                reference.model._default_manager.filter(pk__in=ids)
                .exclude(**{reference.owner_field: organization_id})
                .values_list("pk", reference.owner_field)
            )
            found.extend((reference, str(pk), owner) for pk, owner in owners)
        if budget <= 0:
            break
    return found


def _is_key(model: type[Model], value: Any) -> bool:
    try:
        model._meta.pk.to_python(value)  # type: ignore[union-attr]
    except Exception:
        return False
    return True
