"""Importing a register spreadsheet (XLSX or CSV) into the organization's register.

reading (file -> rows of text) -> headers (which column is what, which sheet is which)
-> parsing (row -> field values and problems) -> planning (created / updated / unchanged /
skipped, before any write) -> applying (one transaction, every write through the register
services, as the API's and the admin's). `import_register` is the one service of an import; it
runs in a worker (register.importing.jobs), for the API and the admin alike.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Callable

from django.db import connection, transaction

from audit.services import Actor, record_event
from organizations.models import Organization
from register.importing.applying import apply_plan
from register.importing.errors import RegisterFileType, RegisterFileUnreadable
from register.importing.planning import ImportPlan, build_plan
from register.importing.reading import read_register_file
from register.models import ProcessingActivity, Vendor

__all__ = [
    "ImportPlan",
    "RegisterFileType",
    "RegisterFileUnreadable",
    "import_register",
]


def import_register(
    *,
    organization: Organization,
    content: bytes,
    file_name: str,
    actor: Actor,
    dry_run: bool,
    on_stage: Callable[[str], None] | None = None,
) -> ImportPlan:
    """Plan the import of a register file and, unless `dry_run`, apply it.

    The dry run returns the same plan and writes nothing to the register (it is audited as
    `processing_activity.import_previewed`). Raises RegisterFileType / RegisterFileUnreadable
    (with what was wrong in `details`) for a file that is not a readable register.
    `on_stage` is told "planning" and "writing" as the import gets there (its progress).

    Reading and planning hold no lock and no transaction: they may take the whole time
    budget of an import, and every audited request of the organization would wait on a
    lock held that long. Only the writes are one (short) transaction, which takes the
    organization's import lock (an advisory lock: never the organization row, whose KEY
    SHARE every audit insert needs) and plans again if the register changed meanwhile.
    """
    stage = on_stage or (lambda _: None)
    sheets = read_register_file(content=content, file_name=file_name)
    stage("planning")
    state = _register_state(organization)
    plan = build_plan(organization=organization, sheets=sheets)
    if dry_run:
        record_event(
            organization=organization,
            actor=actor,
            action="processing_activity.import_previewed",
            object_type="processing_activity",
            details={
                "totals": plan.totals(),
                "sheets": [layout.sheet for layout in plan.layouts],
            },
        )
        return plan
    stage("writing")
    with transaction.atomic():
        # Imports of one organization queue up here: two at once would both plan to create
        # the same entries, and the second would fail on the unique name.
        _lock_imports_of(organization)
        if _register_state(organization) != state:
            # Another write landed since the plan was made: plan from what is written now.
            plan = build_plan(organization=organization, sheets=sheets)
        return apply_plan(plan=plan, actor=actor)


def _lock_imports_of(organization: Organization) -> None:
    digest = hashlib.sha256(f"register-import:{organization.pk}".encode()).digest()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [struct.unpack(">q", digest[:8])[0]])


def _register_state(organization: Organization) -> str:
    """A digest of the organization's entries and their revisions (every write moves one)."""
    digest = hashlib.sha256()
    for model in (Vendor, ProcessingActivity):
        entries = model.objects.filter(organization=organization).order_by("pk")
        for pk, revision in entries.values_list("pk", "revision"):
            digest.update(f"{model.__name__}:{pk}:{revision};".encode())
    return digest.hexdigest()
