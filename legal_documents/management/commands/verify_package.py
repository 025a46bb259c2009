"""`python manage.py verify_package PATH.zip`: check an inspection package against its manifest.

Exit status 0 when every file matches `manifest.json` and no unlisted file exists; otherwise
a CommandError (exit status 1) naming the first mismatch.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from legal_documents.packages.manifest import verify_package


class Command(BaseCommand):
    help = "Check every file of an inspection package ZIP against its manifest.json."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path, help="The package ZIP file.")

    def handle(self, *args: Any, path: Path, **options: Any) -> None:
        if not path.is_file():
            raise CommandError(f"{path}: no such file")
        check = verify_package(path)
        if not check.valid:
            raise CommandError(f"{path}: INVALID: {check.problem}")
        self.stdout.write(f"{path}: OK, {check.files_checked} files match manifest.json")
