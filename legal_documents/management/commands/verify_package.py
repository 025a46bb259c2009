"""`python manage.py verify_package PATH.zip`: check an inspection package against its manifest.

Exit status 0 when the manifest's signature holds (EVIDENCE_SIGNING_KEY or one of
EVIDENCE_SIGNING_OLD_KEYS), every file matches `manifest.json` and no unlisted file exists;
otherwise a CommandError (exit status 1) naming the first mismatch. `--allow-unsigned`
accepts a manifest without a signature (a package built before manifests were signed).
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
        parser.add_argument(
            "--allow-unsigned",
            action="store_true",
            help="Accept a manifest without a signature (built before they were signed).",
        )

    def handle(self, *args: Any, path: Path, allow_unsigned: bool, **options: Any) -> None:
        if not path.is_file():
            raise CommandError(f"{path}: no such file")
        check = verify_package(path, allow_unsigned=allow_unsigned)
        if not check.valid:
            raise CommandError(f"{path}: INVALID: {check.problem}")
        signature = "signature verified" if check.signed else "UNSIGNED manifest"
        self.stdout.write(
            f"{path}: OK, {check.files_checked} files match manifest.json, {signature}"
        )
