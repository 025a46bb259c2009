"""Build the missing per-organization vector indexes, rebuild those whose tail (the chunks
past the watermark) has grown, and drop those of deleted organizations and the superseded
ones (assets.tenant_indexes), here and now, as the periodic reconcile does in the workers.

    manage.py tenant_vector_indexes                       # every organization
    manage.py tenant_vector_indexes --organization UUID   # one
    manage.py tenant_vector_indexes --list                # what is recorded
"""

from __future__ import annotations

import uuid
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from assets import tenant_indexes
from assets.models import TenantVectorIndex


class Command(BaseCommand):
    help = (
        "Build missing per-organization vector indexes, rebuild those with a grown tail, "
        "drop those of deleted organizations."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--organization", help="only this organization's index (uuid)")
        parser.add_argument("--list", action="store_true", help="list the recorded indexes")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["list"]:
            for row in TenantVectorIndex.objects.order_by("index_name"):
                self.stdout.write(
                    f"{row.organization_id} {row.index_name} {row.state} "
                    f"chunks={row.chunks_when_built} through_id={row.indexed_through_id} "
                    f"seconds={row.build_seconds} "
                    f"built_at={row.built_at}"
                )
            return
        organization = options["organization"]
        if organization is not None:
            try:
                organization = uuid.UUID(organization)
            except ValueError as error:
                raise CommandError(f"not a uuid: {organization!r}") from error
        outcome = tenant_indexes.reconcile(organization_id=organization)
        if outcome.skipped:
            self.stdout.write(f"skipped: {outcome.skipped}")
        self.stdout.write(f"built: {len(outcome.built)} {' '.join(outcome.built)}".rstrip())
        self.stdout.write(f"dropped: {len(outcome.dropped)} {' '.join(outcome.dropped)}".rstrip())
