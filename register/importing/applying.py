"""Carrying out an import plan, in one transaction.

Vendors first, so that the activities created in the same import can link to them. A
failure anywhere rolls the whole import back: a register is never half imported. Every
written entry keeps its Transfers by the rule of every register write
(`register.services.sync_transfers`) and is recorded through
`register.services.record_change` (revision, audit), and the import's changes are announced
once (`register_changed`, one staleness task) when it commits.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from audit.services import Actor, record_event
from register.importing.headers import normalise
from register.importing.planning import CREATED, UPDATED, ImportPlan, PlannedRow
from register.models import ProcessingActivity, RegisterEntry, Vendor
from register.services import one_change_set, record_change, save_entry, sync_transfers


@transaction.atomic
def apply_plan(*, plan: ImportPlan, actor: Actor) -> ImportPlan:
    """Write the plan's created and updated rows; unchanged and skipped rows write nothing.

    Each written entry gets its revision bump and `<type>.created|updated` audit event from
    record_change; the import as a whole is audited as `processing_activity.imported` with
    its totals. Returns the plan with the ids of the created entries filled in.
    """
    vendors_by_key: dict[str, Vendor] = dict(plan.existing_vendors)
    # One announcement (one staleness task) for the whole import, not one per row.
    with one_change_set(organization_id=plan.organization.pk):
        for row in plan.vendors:
            if row.action in (CREATED, UPDATED):
                _write(row, Vendor, plan, actor)
            if row.entry is not None:
                vendors_by_key[normalise(row.parsed.name)] = row.entry  # type: ignore[assignment]
        for row in plan.activities:
            if row.action in (CREATED, UPDATED):
                _write(row, ProcessingActivity, plan, actor, vendors_by_key=vendors_by_key)
    record_event(
        organization=plan.organization,
        actor=actor,
        action="processing_activity.imported",
        object_type="processing_activity",
        details={"totals": plan.totals(), "sheets": [layout.sheet for layout in plan.layouts]},
    )
    return plan


def _write(
    row: PlannedRow,
    model: type[RegisterEntry],
    plan: ImportPlan,
    actor: Actor,
    *,
    vendors_by_key: dict[str, Vendor] | None = None,
) -> None:
    values: dict[str, Any] = {**row.parsed.values, "name": row.parsed.name}
    entry: RegisterEntry
    kind = "vendor" if model is Vendor else "processing activity"
    if row.action == CREATED:
        entry = model(organization=plan.organization, **values)
        # A name another write took since the plan was made: DuplicateName (409), as the API.
        save_entry(entry, kind=kind)
        row.entry = entry
        changed = sorted(values)
    else:
        assert row.entry is not None  # an update always has its matched entry
        entry = row.entry
        for name, value in values.items():
            setattr(entry, name, value)
        save_entry(entry, kind=kind)
        changed = row.changed_fields
    if isinstance(entry, ProcessingActivity) and row.parsed.vendor_keys is not None:
        assert vendors_by_key is not None
        entry.vendors.set(
            [vendors_by_key[key] for key in row.parsed.vendor_keys if key in vendors_by_key]
        )
    sync_transfers(entry=entry)
    record_change(entry=entry, actor=actor, action=row.action, changed_fields=changed)
