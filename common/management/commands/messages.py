"""`manage.py messages`: update the admin's catalogs; `--check`: fail when one is incomplete.

`make messages` and `make lint` run it (common/translations.py says what each does).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from common.translations import catalog_problems, update_catalogs


class Command(BaseCommand):
    help = "Extract and compile the admin's translations; --check only reports what is missing."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--check",
            action="store_true",
            help="Change nothing; exit 1 when a marked string is missing from a .po file, "
            "untranslated, fuzzy or unused, or a .mo is not compiled from its .po.",
        )

    def handle(self, *args: Any, check: bool = False, **options: Any) -> None:
        if not check:
            update_catalogs()
            self.stdout.write("Catalogs updated: translate the empty entries, run it again.")
            return
        problems = catalog_problems()
        if problems:
            raise CommandError("\n".join(["Translations incomplete:", *problems]))
        self.stdout.write("Every marked string is translated in every language.")
