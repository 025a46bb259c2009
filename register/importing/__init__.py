"""Importing a register spreadsheet (XLSX or CSV) into the organization's register.

reading (file -> rows of text) -> headers (which column is what, which sheet is which)
-> parsing (row -> field values and problems) -> planning (created / updated / unchanged /
skipped, before any write) -> applying (one transaction, every write through
register.services.record_change). `import_register` is the one entry point of the API and
the admin.
"""

from __future__ import annotations

from django.db import transaction

from audit.services import Actor, record_event
from organizations.models import Organization
from register.importing.applying import apply_plan
from register.importing.errors import RegisterFileType, RegisterFileUnreadable
from register.importing.planning import ImportPlan, build_plan
from register.importing.reading import MAX_FILE_BYTES, read_register_file

__all__ = [
    "MAX_FILE_BYTES",
    "ImportPlan",
    "RegisterFileType",
    "RegisterFileUnreadable",
    "import_register",
]


@transaction.atomic
def import_register(
    *,
    organization: Organization,
    content: bytes,
    file_name: str,
    actor: Actor,
    dry_run: bool,
) -> ImportPlan:
    """Plan the import of a register file and, unless `dry_run`, apply it.

    The dry run returns the same plan and writes nothing to the register (it is audited as
    `processing_activity.import_previewed`). Raises RegisterFileType / RegisterFileUnreadable
    (with what was wrong in `details`) for a file that is not a readable register.
    """
    # One transaction around planning and applying: the plan is made from what is written.
    sheets = read_register_file(content=content, file_name=file_name)
    if not dry_run:
        # Imports of one organization queue up: two at once would both plan to create the
        # same entries, and the second would fail on the unique name.
        Organization.objects.select_for_update().filter(pk=organization.pk).first()
    plan = build_plan(organization=organization, sheets=sheets)
    if not dry_run:
        return apply_plan(plan=plan, actor=actor)
    record_event(
        organization=organization,
        actor=actor,
        action="processing_activity.import_previewed",
        object_type="processing_activity",
        details={"totals": plan.totals(), "sheets": [layout.sheet for layout in plan.layouts]},
    )
    return plan
