"""gettext `.po` catalogs: a small stdlib reader and writer, and the merged runtime catalog.

Catalogs live in `locale/<lang>/<domain>.po`, one file per domain so that translators never
edit the same file; templates in `locale/templates/<domain>.pot`. At run time the domains of
a language are merged into one mapping (a msgid belongs to exactly one domain, see
`extract.py`). Fuzzy and empty translations are ignored: the English text is used instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
TEMPLATES_DIR = LOCALE_DIR / "templates"

_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}
_QUOTED = re.compile(r'^"(.*)"\s*$')


@dataclass(slots=True)
class Entry:
    """One message: its msgid, translation, source files and flags (e.g. fuzzy)."""

    msgid: str
    msgstr: str = ""
    references: list[str] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    obsolete: bool = False

    @property
    def translated(self) -> bool:
        """True when the msgstr is usable: not empty and not fuzzy."""
        return bool(self.msgstr) and "fuzzy" not in self.flags


def _unquote(text: str) -> str:
    match = _QUOTED.match(text.strip())
    if match is None:
        raise ValueError(f"Not a quoted .po string: {text!r}")
    body = match[1]
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m[1], "\\" + m[1]), body)


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    return '"' + escaped.replace("\r", "\\r").replace("\n", "\\n") + '"'


def parse_po(text: str) -> list[Entry]:
    """The entries of a .po/.pot file, the header (empty msgid) included."""
    entries: list[Entry] = []
    current: Entry | None = None
    field_name = ""
    parts: dict[str, list[str]] = {}
    pending: dict[str, list[str]] = {"references": [], "flags": [], "comments": []}

    def finish() -> None:
        nonlocal current, parts
        if current is not None:
            current.msgid = "".join(parts.get("msgid", []))
            current.msgstr = "".join(parts.get("msgstr", []))
            entries.append(current)
        current, parts = None, {}

    for raw in text.splitlines():
        line = raw.strip()
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].strip()
        elif line.startswith("#"):
            if current is not None and "msgstr" in parts:
                finish()
            if line.startswith("#:"):
                pending["references"].extend(line[2:].split())
            elif line.startswith("#,"):
                pending["flags"].extend(flag.strip() for flag in line[2:].split(","))
            elif line.startswith("#."):
                pending["comments"].append(line[2:].strip())
            continue
        if not line:
            continue
        if line.startswith("msgid "):
            finish()
            current = Entry(
                msgid="",
                obsolete=obsolete,
                references=pending["references"],
                flags=pending["flags"],
                comments=pending["comments"],
            )
            pending = {"references": [], "flags": [], "comments": []}
            field_name, value = "msgid", line[len("msgid ") :]
        elif line.startswith("msgstr "):
            field_name, value = "msgstr", line[len("msgstr ") :]
        elif line.startswith('"'):
            value = line
        else:
            raise ValueError(f"Unexpected .po line: {raw!r}")
        parts.setdefault(field_name, []).append(_unquote(value))
    finish()
    return entries


def _field(name: str, value: str, prefix: str) -> list[str]:
    if "\n" not in value.rstrip("\n"):
        return [f"{prefix}{name} {_quote(value)}"]
    pieces = value.splitlines(keepends=True)
    return [f'{prefix}{name} ""', *(prefix + _quote(piece) for piece in pieces)]


def format_po(entries: list[Entry]) -> str:
    """The text of a .po file (stable: no line numbers, entries in the order given)."""
    blocks = []
    for entry in entries:
        prefix = "#~ " if entry.obsolete else ""
        lines = [f"#. {comment}" for comment in entry.comments]
        if entry.references:
            lines.append("#: " + " ".join(entry.references))
        if entry.flags:
            lines.append("#, " + ", ".join(entry.flags))
        lines += _field("msgid", entry.msgid, prefix)
        lines += _field("msgstr", entry.msgstr, prefix)
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def read_po(path: Path) -> list[Entry]:
    """The entries of a catalog file; none when it does not exist."""
    if not path.exists():
        return []
    return parse_po(path.read_text(encoding="utf-8"))


def domains() -> list[str]:
    """The domains with a template, sorted."""
    return sorted(path.stem for path in TEMPLATES_DIR.glob("*.pot"))


def catalog_from(directory: Path) -> dict[str, str]:
    """msgid -> translation for every translated message of the `.po` files in `directory`."""
    merged: dict[str, str] = {}
    for path in sorted(directory.glob("*.po")):
        for entry in read_po(path):
            if entry.msgid and not entry.obsolete and entry.translated:
                merged.setdefault(entry.msgid, entry.msgstr)
    return merged


# French typography: a no-break space before ":", ";", "?" and "!", as `punct()` writes it for
# the code's own separators. Translators type a plain space; the catalog keeps that (easier to
# edit and review) and the no-break space is put in when the catalog is read, so that a line
# never breaks before the mark and every French text follows one convention.
_FRENCH_SPACE_BEFORE_MARK = re.compile(r" (?=[:;?!](?:\s|$|[*)»]))")


def typeset(language: str, text: str) -> str:
    """A translation with the typography of its language applied (French spacing)."""
    if language != "fr":
        return text
    return _FRENCH_SPACE_BEFORE_MARK.sub("\u00a0", text)


@cache
def catalog(language: str) -> dict[str, str]:
    """The merged catalog of a language (all domains), read once per process."""
    merged = catalog_from(LOCALE_DIR / language)
    return {msgid: typeset(language, msgstr) for msgid, msgstr in merged.items()}
