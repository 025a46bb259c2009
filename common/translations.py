"""The admin's message catalogs (`locale/`): extracted, checked complete, compiled.

`make messages` runs `update_catalogs` (makemessages, then compilemessages): the `.po` files
get every marked string, a translator fills them, and the compiled `.mo` files are committed,
so that running the service needs neither GNU gettext nor a build step. `make lint` runs
`catalog_problems`: it extracts the marked strings again into a temporary copy of the
sources and fails on any string missing from a language's `.po`, left untranslated or fuzzy,
on any `.po` entry no longer used, and on a `.mo` that is not the compilation of its `.po`.
"""

from __future__ import annotations

import gettext as gnu_gettext
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.pofile import read_po
from django.conf import settings
from django.core.management import call_command
from django.test.utils import override_settings

# The languages translated (settings.LANGUAGES but English, the source language).
TRANSLATED = ("de", "fr", "es", "it")
DOMAINS = ("django", "djangojs")
# What makemessages reads: the apps and templates, not the tests, tools and the GDPR engine
# (documents are translated by gdpr/i18n, for the document's language, not the user's).
IGNORED = ["tests", "bench", "deploy", "docs", "gdpr", "staticfiles"]
SOURCE_SUFFIXES = {".py", ".html", ".txt", ".js"}


@dataclass
class Entry:
    msgid: str
    context: str = ""
    plural: str = ""
    translations: list[str] = field(default_factory=list)
    fuzzy: bool = False

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.context, self.msgid, self.plural)

    @property
    def translated(self) -> bool:
        return not self.fuzzy and bool(self.translations) and all(self.translations)


def catalog_entries(path: Path) -> dict[tuple[str, str, str], Entry]:
    """The entries of a `.po` file read with Babel (the header and obsolete entries left out)."""
    with path.open("rb") as handle:
        catalog = read_po(handle, ignore_obsolete=True)
    entries = []
    for message in catalog:
        if not message.id:
            continue
        singular, plural = (
            (message.id, "") if isinstance(message.id, str) else (message.id[0], message.id[1])
        )
        strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        entries.append(
            Entry(
                msgid=singular,
                context=message.context or "",
                plural=plural,
                translations=[text or "" for text in strings],
                fuzzy=message.fuzzy,
            )
        )
    return {entry.key: entry for entry in entries}


def catalog_path(root: Path, language: str, domain: str) -> Path:
    return root / "locale" / language / "LC_MESSAGES" / f"{domain}.po"


def _copy_sources(source: Path, target: Path) -> None:
    """The files makemessages reads (not the `.po`: the copy's catalogs start empty)."""

    def ignore(directory: str, names: list[str]) -> set[str]:
        here = Path(directory)
        return {
            name
            for name in names
            if name.startswith(".")
            or name in {"__pycache__", "node_modules", "migrations", *IGNORED}
            or ((here / name).is_file() and (here / name).suffix not in SOURCE_SUFFIXES)
        }

    shutil.copytree(source, target, ignore=ignore, dirs_exist_ok=True)


@contextmanager
def _inside(directory: Path) -> Iterator[None]:
    # makemessages reads the current directory.
    previous = Path.cwd()
    os.chdir(directory)
    try:
        yield
    finally:
        os.chdir(previous)


def extract(root: Path) -> None:
    """makemessages for every translated language and domain, into `root/locale`."""
    with _inside(root), override_settings(LOCALE_PATHS=[root / "locale"]):
        for domain in DOMAINS:
            call_command(
                "makemessages",
                locale=list(TRANSLATED),
                domain=domain,
                ignore_patterns=IGNORED,
                add_location="file",
                no_obsolete=True,
                verbosity=0,
            )


def update_catalogs(root: Path | None = None) -> None:
    """`make messages`: extract the marked strings into `locale/`, then compile the `.mo`."""
    root = root or Path(settings.BASE_DIR)
    extract(root)
    with _inside(root):
        call_command("compilemessages", locale=list(TRANSLATED), verbosity=0)


def _compiled_catalog(mo_file: Path) -> dict[object, str]:
    with mo_file.open("rb") as handle:
        return dict(gnu_gettext.GNUTranslations(handle)._catalog)  # type: ignore[attr-defined]


def stale_compilations(root: Path) -> list[str]:
    """The `.mo` files missing or not holding what their `.po` compiles to."""
    problems = []
    with tempfile.TemporaryDirectory() as scratch:
        for language in TRANSLATED:
            for domain in DOMAINS:
                po_file = catalog_path(root, language, domain)
                mo_file = po_file.with_suffix(".mo")
                if not po_file.exists():
                    continue
                fresh = Path(scratch) / f"{language}-{domain}.mo"
                subprocess.run(
                    ["msgfmt", "--check-format", "-o", str(fresh), str(po_file)],
                    check=True,
                    capture_output=True,
                )
                if not mo_file.exists() or _compiled_catalog(mo_file) != _compiled_catalog(fresh):
                    problems.append(f"{mo_file.relative_to(root)}: not compiled from its .po")
    return problems


def catalog_problems(root: Path | None = None) -> list[str]:
    """What is missing, untranslated, fuzzy, unused or not compiled; [] when complete."""
    root = root or Path(settings.BASE_DIR)
    problems = []
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "source"
        _copy_sources(root, copy)
        extract(copy)
        for language in TRANSLATED:
            for domain in DOMAINS:
                committed_file = catalog_path(root, language, domain)
                where = committed_file.relative_to(root)
                committed = catalog_entries(committed_file) if committed_file.exists() else {}
                marked = catalog_entries(catalog_path(copy, language, domain))
                for key in marked.keys() - committed.keys():
                    problems.append(f"{where}: missing {key[1]!r} (run `make messages`)")
                for key in committed.keys() - marked.keys():
                    problems.append(f"{where}: no longer used {key[1]!r} (run `make messages`)")
                for key in marked.keys() & committed.keys():
                    if not committed[key].translated:
                        problems.append(f"{where}: not translated (or fuzzy) {key[1]!r}")
    return sorted(problems) + stale_compilations(root)
