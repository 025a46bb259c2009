"""Carrying out an import plan, in one transaction.

Vendors first, so that the activities created in the same import can link to them. A
failure anywhere rolls the whole import back: a register is never half imported. Every
row is written through the register's services (`activity_create`, `activity_update`,
`vendor_create`, `vendor_update`), as the API and the admin write: the same validation
(a name taken since the plan was made is DuplicateName, 409), the same Transfers, revision
and `<type>.created|updated` audit event. The import's changes are announced once
(`register_changed`, one staleness task) when it commits.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from audit.services import Actor, record_event
from register.importing.headers import normalise
from register.importing.planning import CREATED, UPDATED, ImportPlan, PlannedRow
from register.models import ProcessingActivity, Vendor
from register.services import (
    activity_create,
    activity_update,
    one_change_set,
    vendor_create,
    vendor_update,
)


@transaction.atomic
def apply_plan(*, plan: ImportPlan, actor: Actor) -> ImportPlan:
    """Write the plan's created and updated rows; unchanged and skipped rows write nothing.

    The import as a whole is audited as `processing_activity.imported` with its totals.
    Returns the plan with the ids of the created entries filled in.
    """
    vendors_by_key: dict[str, Vendor] = dict(plan.existing_vendors)
    # One announcement (one staleness task) for the whole import, not one per row.
    with one_change_set(organization_id=plan.organization.pk):
        for row in plan.vendors:
            if row.action in (CREATED, UPDATED):
                _write_vendor(row, plan, actor)
            if row.entry is not None:
                vendors_by_key[normalise(row.parsed.name)] = row.entry  # type: ignore[assignment]
        for row in plan.activities:
            if row.action in (CREATED, UPDATED):
                _write_activity(row, plan, actor, vendors_by_key)
    record_event(
        organization=plan.organization,
        actor=actor,
        action="processing_activity.imported",
        object_type="processing_activity",
        details={"totals": plan.totals(), "sheets": [layout.sheet for layout in plan.layouts]},
    )
    return plan


def _data(row: PlannedRow) -> dict[str, Any]:
    """What the row writes: every value of a new entry; of an existing one, only the fields
    whose cells changed (planning.py), so that what a cell cannot carry is kept."""
    values = row.parsed.values
    if row.action == UPDATED:
        values = {name: value for name, value in values.items() if name in row.changed_fields}
    return {**values, "name": row.parsed.name}


def _write_vendor(row: PlannedRow, plan: ImportPlan, actor: Actor) -> None:
    if row.action == CREATED:
        row.entry = vendor_create(organization=plan.organization, actor=actor, data=_data(row))
    else:
        assert isinstance(row.entry, Vendor)  # an update always has its matched entry
        row.entry = vendor_update(vendor=row.entry, actor=actor, data=_data(row))


def _write_activity(
    row: PlannedRow, plan: ImportPlan, actor: Actor, vendors_by_key: dict[str, Vendor]
) -> None:
    data = _data(row)
    if row.parsed.vendor_keys is not None:  # the sheet names vendors: the links follow it
        keys = row.parsed.vendor_keys
        data["vendors"] = [vendors_by_key[key] for key in keys if key in vendors_by_key]
    if row.action == CREATED:
        row.entry = activity_create(organization=plan.organization, actor=actor, data=data)
    else:
        assert isinstance(row.entry, ProcessingActivity)  # an update has its matched entry
        row.entry = activity_update(activity=row.entry, actor=actor, data=data)
