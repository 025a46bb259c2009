"""`manage.py backup_database`: pg_dump the application's database into the object store.

The compose service `backup` runs it every BACKUP_INTERVAL_SECONDS. Each run stores
BACKUP_PREFIX<UTC timestamp>.dump (pg_dump --format=custom) in the default storage and
keeps the newest BACKUP_KEEP dumps. `--list` shows the stored dumps and `--fetch NAME`
writes one to standard output (or --output FILE), for a restore (docs/DEPLOY.md, "Backups").
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.files.storage import storages
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections

from common.backup import BackupError, DatabaseTarget, backup_to_storage, list_dumps


class Command(BaseCommand):
    help = (
        "Dump the database (pg_dump --format=custom) into the default storage under "
        "BACKUP_PREFIX and keep the newest BACKUP_KEEP dumps."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--database", default="default", help="The Django database alias to dump."
        )
        action = parser.add_mutually_exclusive_group()
        action.add_argument(
            "--list", action="store_true", help="List the stored dumps, oldest first."
        )
        action.add_argument(
            "--fetch", metavar="NAME", help="Copy the stored dump NAME to --output."
        )
        parser.add_argument(
            "--output",
            default="-",
            metavar="FILE",
            help="Where --fetch writes the dump (default -: standard output).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        storage = storages["default"]
        prefix = settings.BACKUP_PREFIX
        if options["list"]:
            for name in list_dumps(storage, prefix):
                self.stdout.write(name)
            return
        if options["fetch"]:
            self._fetch(storage, options["fetch"], options["output"])
            return
        database = DatabaseTarget.from_settings(connections[options["database"]].settings_dict)
        try:
            result = backup_to_storage(
                database=database,
                storage=storage,
                prefix=prefix,
                keep=settings.BACKUP_KEEP,
                pg_dump=settings.PG_DUMP_PATH,
            )
        except BackupError as error:
            raise CommandError(
                f"Backup of database {database.name!r} failed, nothing stored: {error}"
            ) from error
        self.stdout.write(f"Stored {result.name} ({result.size} bytes).")
        for name in result.deleted:
            self.stdout.write(f"Deleted {name} (BACKUP_KEEP={settings.BACKUP_KEEP}).")

    def _fetch(self, storage: Any, name: str, output: str) -> None:
        if name not in list_dumps(storage, settings.BACKUP_PREFIX):
            raise CommandError(f"No stored dump {name!r}; `--list` shows them.")
        with storage.open(name, "rb") as dump:
            if output == "-":
                shutil.copyfileobj(dump, sys.stdout.buffer)
                sys.stdout.buffer.flush()
                return
            with Path(output).open("wb") as target:
                shutil.copyfileobj(dump, target)
        self.stderr.write(f"Wrote {name} to {output}.")
