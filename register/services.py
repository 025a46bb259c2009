"""Writes to the register: every change moves the entry's revision, is audited, and is told.

Views, the admin and the import all write through these functions, so that the revision a
document records (staleness) and the audit trail can never be bypassed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import F

from audit.services import Actor, record_event
from register.models import ProcessingActivity, RegisterEntry, Vendor
from register.signals import register_changed

_OBJECT_TYPES: dict[type[RegisterEntry], str] = {
    ProcessingActivity: "processing_activity",
    Vendor: "vendor",
}


def object_type(entry: RegisterEntry) -> str:
    return _OBJECT_TYPES[type(entry)]


def _announce(*, organization_id: Any, activities: set[Any], vendors: set[Any]) -> None:
    transaction.on_commit(
        lambda: register_changed.send(
            sender=RegisterEntry,
            organization_id=organization_id,
            activity_ids=frozenset(activities),
            vendor_ids=frozenset(vendors),
        )
    )


@transaction.atomic
def record_change(
    *,
    entry: RegisterEntry,
    actor: Actor,
    action: str,
    changed_fields: Iterable[str] = (),
) -> RegisterEntry:
    """Bump `entry`'s revision after a write, audit it as `<type>.<action>`, announce it.

    The caller has saved the entry (and its links) inside the same transaction. A vendor's
    change also concerns the activities linked to it: their documents describe the vendor.
    """
    type(entry)._default_manager.filter(pk=entry.pk).update(revision=F("revision") + 1)
    entry.refresh_from_db(fields=["revision"])
    record_event(
        organization=entry.organization,
        actor=actor,
        action=f"{object_type(entry)}.{action}",
        object_type=object_type(entry),
        object_id=entry.pk,
        details={"name": entry.name, "revision": entry.revision, "fields": sorted(changed_fields)},
    )
    if isinstance(entry, Vendor):
        linked = set(entry.activities.values_list("pk", flat=True))
        _announce(organization_id=entry.organization_id, activities=linked, vendors={entry.pk})
    else:
        _announce(organization_id=entry.organization_id, activities={entry.pk}, vendors=set())
    return entry
