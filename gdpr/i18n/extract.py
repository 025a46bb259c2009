"""Build every catalog with Babel: extract the templates, update the `.po`, compile the `.mo`.

    python -m gdpr.i18n.extract          # make catalogs: write what is out of date
    python -m gdpr.i18n.extract --check  # make lint: exit 1 when a file is out of date

A string is marked with `_("...")` (translated where it is evaluated), `N_("...")` (evaluated
at import time, translated where it is shown) or `ngettext("...", "...", n)` (a text with a
count). Babel's Python extractor reads the files the mapping `babel.cfg` (repository root)
lists, each with its domain, so that translators of one language can work on different
files; the strings of a `Question(...)` go to `questionnaire`. A msgid marked in several
domains belongs to the first in DOMAIN_ORDER only. Updating keeps existing translations,
adds new msgids with an empty msgstr and keeps removed translations as obsolete (`#~`)
entries (one marked again gets its translation back); compiling leaves out empty and fuzzy
translations (the English text is shown instead). The dates Babel writes in a header are not
a change: a file whose content is otherwise the same is left as it is.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import check_and_call_extract_file
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po, write_po

from gdpr.i18n.catalog import LOCALE_DIR, TEMPLATES_DIR, mo_path, po_path
from gdpr.i18n.languages import DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
MAPPING = ROOT / "babel.cfg"
# The marker functions and the arguments that are messages (gdpr.i18n.translation).
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
QUESTIONNAIRE = "questionnaire"
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
DOMAIN_ORDER = (
    "common",
    "assessments",
    QUESTIONNAIRE,
    "record_of_processing",
    "dpia",
    "privacy_policy",
    "data_processing_agreement",
    "breach_notification",
    "data_subject_request_form",
    "exports",
    "review",
)
TRANSLATED_LANGUAGES = tuple(lang for lang in SUPPORTED_LANGUAGES if lang != DEFAULT_LANGUAGE)
PROJECT = "legaldocs documents"
# Header lines Babel rewrites on every run (dates, its own version): not a change.
_VOLATILE_HEADER = re.compile(rb'^"(POT-Creation-Date|PO-Revision-Date|Generated-By): .*\n', re.M)

MessageId = str | tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Marked:
    """One marked string (a plural is a pair), its domain and where it was found."""

    msgid: MessageId
    domain: str
    reference: str

    @property
    def key(self) -> str:
        return self.msgid if isinstance(self.msgid, str) else self.msgid[0]


def _mapping() -> tuple[list[tuple[str, str]], dict[str, dict[str, str]]]:
    with MAPPING.open(encoding="utf-8") as handle:
        method_map, options = parse_mapping_cfg(handle, str(MAPPING))  # type: ignore[no-untyped-call]
    return list(method_map), dict(options)


def source_directories(method_map: list[tuple[str, str]]) -> list[Path]:
    """The directories the mapping's patterns name (what comes before the first wildcard)."""
    found = []
    for pattern, method in method_map:
        fixed = re.split(r"[*?\[]", pattern, maxsplit=1)[0].rsplit("/", 1)[0]
        directory = ROOT / fixed
        if method != "ignore" and directory not in found:
            found.append(directory)
    return found


class ExtractionError(ValueError):
    """A marker call Babel cannot read: its text is not fixed (an f-string) or it is hidden
    where Babel's Python extractor does not look (inside an f-string, or inside the keyword
    arguments of another marker call)."""


def _marker_calls(tree: ast.AST) -> Iterator[ast.Call]:
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in KEYWORDS
            and node.args
        ):
            yield node


def _question_lines(tree: ast.AST) -> set[int]:
    """The lines inside `Question(...)` calls (their strings are questionnaire text)."""
    return {
        line
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "Question"
        for line in range(node.lineno, (node.end_lineno or node.lineno) + 1)
    }


def check_all_read(tree: ast.AST, reference: str, extracted: set[str]) -> None:
    """Every marker call of the module is one Babel extracted (nothing is silently lost)."""
    for call in _marker_calls(tree):
        first = call.args[0]
        if isinstance(first, ast.JoinedStr):
            raise ExtractionError(f"{reference}:{call.lineno}: an f-string passed to a marker")
        if (
            isinstance(first, ast.Constant)
            and isinstance(first.value, str)
            and first.value not in extracted
        ):
            raise ExtractionError(
                f"{reference}:{call.lineno}: {first.value!r} is marked where Babel does not read"
                " it (inside an f-string or another marker's arguments): mark it on its own line"
            )


def _marked_in(
    path: Path, method_map: list[tuple[str, str]], options: dict[str, dict[str, str]]
) -> Iterator[Marked]:
    domains: list[str] = []
    found = check_and_call_extract_file(
        path,
        method_map,
        options,
        # Called with the options of the mapping's section (none for an ignored file).
        lambda _filename, _method, section: domains.append(section.get("domain", "")),
        KEYWORDS,
        (),
        False,
        dirpath=ROOT,
    )
    results = list(found)
    if not domains or not domains[0]:
        return
    reference = path.relative_to(ROOT).as_posix()
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    check_all_read(
        tree,
        reference,
        {text for result in results for text in _texts(result[2])},
    )
    questions = _question_lines(tree)
    for _filename, lineno, message, _comments, _context in results:
        domain = QUESTIONNAIRE if lineno in questions else domains[0]
        yield Marked(message, domain, reference)


def _texts(message: MessageId) -> tuple[str, ...]:
    return (message,) if isinstance(message, str) else message


def extract_messages() -> dict[str, dict[MessageId, list[str]]]:
    """domain -> msgid -> source files, each msgid in one domain, in source order."""
    method_map, options = _mapping()
    sources = sorted(
        {path for directory in source_directories(method_map) for path in directory.rglob("*")}
    )
    marked = [
        message
        for path in sources
        if path.is_file()
        for message in _marked_in(path, method_map, options)
    ]
    rank = {domain: index for index, domain in enumerate(DOMAIN_ORDER)}
    found: dict[str, dict[MessageId, list[str]]] = {domain: {} for domain in DOMAIN_ORDER}
    owner: dict[str, tuple[str, MessageId]] = {}
    for message in sorted(marked, key=lambda m: rank[m.domain]):
        domain, msgid = owner.setdefault(message.key, (message.domain, message.msgid))
        references = found[domain].setdefault(msgid, [])
        if message.reference not in references:
            references.append(message.reference)
    return {domain: messages for domain, messages in found.items() if messages}


def _header(catalog: Catalog, domain: str) -> None:
    catalog.project = PROJECT
    catalog.version = domain
    catalog.msgid_bugs_address = "docs/i18n/README.md"
    catalog.header_comment = (
        f"# The {domain} texts of the legaldocs documents: see docs/i18n/README.md.\n"
        "# Written by `python -m gdpr.i18n.extract` (make catalogs); translate the msgstr."
    )
    catalog.fuzzy = False
    if catalog.locale is not None:
        catalog.last_translator = "see docs/i18n/review-" + str(catalog.locale) + ".md"
        catalog.language_team = str(catalog.locale)


def template(domain: str, messages: dict[MessageId, list[str]]) -> Catalog:
    """The `.pot` of one domain."""
    catalog = Catalog(domain=domain, fuzzy=False)
    _header(catalog, domain)
    for msgid, references in messages.items():
        text = msgid if isinstance(msgid, str) else " ".join(msgid)
        flags = ["python-brace-format"] if PLACEHOLDER.search(text) else []
        # No line numbers: a line added above a message is not a change of the catalog.
        locations: list[tuple[str, int]] = [(ref, None) for ref in references]  # type: ignore[misc]
        catalog.add(msgid, locations=locations, flags=flags)
    return catalog


def _read(path: Path, language: str | None, domain: str) -> Catalog:
    return read_po(BytesIO(path.read_bytes()), locale=language, domain=domain)


def updated(language: str, domain: str, pot: Catalog) -> Catalog:
    """The catalog of one language and domain: existing translations kept."""
    path = po_path(language, domain)
    catalog = _read(path, language, domain) if path.exists() else Catalog(language, domain)
    # A msgid marked again gets back the translation it had before it was removed.
    for message in pot:
        key = message.id if isinstance(message.id, str) else message.id[0]
        if key and message.id not in catalog and key in catalog.obsolete:
            catalog[message.id] = catalog.obsolete.pop(key)
    catalog.update(pot, no_fuzzy_matching=True, update_header_comment=True)
    catalog.obsolete = {
        msgid: old
        for msgid, old in catalog.obsolete.items()
        if msgid not in catalog and _has_translation(old)
    }
    _header(catalog, domain)
    return catalog


def _has_translation(message: Message) -> bool:
    if isinstance(message.string, (list, tuple)):
        return any(message.string)
    return bool(message.string)


def po_bytes(catalog: Catalog) -> bytes:
    """A catalog as a `.po`/`.pot` file: no wrapping, no line numbers, in source order."""
    buffer = BytesIO()
    write_po(buffer, catalog, width=0, include_lineno=False, sort_output=False)
    return buffer.getvalue()


def compiled(po_file: Path, language: str) -> bytes:
    """The `.mo` compiled from a `.po` file (empty and fuzzy translations left out)."""
    buffer = BytesIO()
    write_mo(buffer, _read(po_file, language, po_file.stem))
    return buffer.getvalue()


def mo_messages(mo: bytes) -> tuple[str, dict[tuple[str, ...], tuple[str, ...]]]:
    """What a compiled catalog holds: its plural rule and its translations (header aside)."""
    catalog = read_mo(BytesIO(mo))
    return catalog.plural_forms, {
        _forms(message.id): _forms(message.string) for message in catalog if message.id
    }


def _forms(text: object) -> tuple[str, ...]:
    # A plural's msgid and msgstr are sequences, a singular's one string.
    return (text,) if isinstance(text, str) else tuple(str(form) for form in text)  # type: ignore[attr-defined]


def _same(path: Path, content: bytes) -> bool:
    if not path.exists():
        return False
    if path.suffix == ".mo":
        return mo_messages(path.read_bytes()) == mo_messages(content)
    return _VOLATILE_HEADER.sub(b"", path.read_bytes()) == _VOLATILE_HEADER.sub(b"", content)


def expected_files() -> dict[Path, bytes]:
    """Every template, catalog and compiled catalog as the code's marked strings say."""
    files: dict[Path, bytes] = {}
    for domain, messages in extract_messages().items():
        pot = template(domain, messages)
        files[TEMPLATES_DIR / f"{domain}.pot"] = po_bytes(pot)
        for language in TRANSLATED_LANGUAGES:
            po = po_bytes(updated(language, domain, pot))
            files[po_path(language, domain)] = po
            buffer = BytesIO()
            write_mo(buffer, read_po(BytesIO(po), locale=language, domain=domain))
            files[mo_path(language, domain)] = buffer.getvalue()
    return files


def stale_files() -> list[Path]:
    """Files whose content differs from what extraction and compilation would write."""
    expected = expected_files()
    built = {path for path in LOCALE_DIR.rglob("*") if path.suffix in {".pot", ".po", ".mo"}}
    leftovers = sorted(built - expected.keys())
    return [path for path, content in expected.items() if not _same(path, content)] + leftovers


def main(argv: list[str]) -> int:
    if "--check" in argv:
        stale = stale_files()
        for path in stale:
            print(f"out of date: {path.relative_to(ROOT)} (make catalogs)", file=sys.stderr)
        return 1 if stale else 0
    expected = expected_files()
    for path, content in expected.items():
        if not _same(path, content):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
    counts = {d: len(m) for d, m in extract_messages().items()}
    print(f"{sum(counts.values())} msgids in {len(counts)} domains: {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
