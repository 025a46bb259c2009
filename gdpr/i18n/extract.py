"""Extract every marked msgid into `.pot` templates per domain and update the `.po` files.

    python -m gdpr.i18n.extract          # write templates, merge into every language
    python -m gdpr.i18n.extract --check  # exit 1 when a template or catalog is out of date

A string is marked with `_("...")` (translated where it is evaluated) or `N_("...")`
(evaluated at import time, translated where it is shown). Its domain is that of its module
(DOMAINS below; questions of a questionnaire go to `questionnaire`), so translators of one
language can work on different files. A msgid marked in several domains belongs to the first
in DOMAIN_ORDER only. Merging keeps existing translations, adds new msgids with an empty
msgstr and keeps removed ones as obsolete (`#~`) entries, like msgmerge.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from gdpr.i18n.catalog import LOCALE_DIR, TEMPLATES_DIR, Entry, format_po, read_po
from gdpr.i18n.languages import DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES

PACKAGE_DIR = Path(__file__).resolve().parents[1]
ROOT = PACKAGE_DIR.parent
# Read as text, never imported: the exports' title block and footer are document text too.
EXPORTS_DIR = ROOT / "legal_documents" / "exports"
MARKERS = frozenset({"_", "N_"})
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")

# Module stem (writers and doctypes share one) -> domain; anything else is `common`.
DOMAINS = {
    "privacy_policy": "privacy_policy",
    "dpia": "dpia",
    "dpia_governance": "dpia",
    "record_of_processing": "record_of_processing",
    "data_processing_agreement": "data_processing_agreement",
    "data_processing_agreement_annexes": "data_processing_agreement",
    "breach_notification": "breach_notification",
    "breach_communication": "breach_notification",
    "data_subject_request_form": "data_subject_request_form",
}
DOMAIN_ORDER = (
    "common",
    "assessments",
    "questionnaire",
    "record_of_processing",
    "dpia",
    "privacy_policy",
    "data_processing_agreement",
    "breach_notification",
    "data_subject_request_form",
    "exports",
)
TRANSLATED_LANGUAGES = tuple(lang for lang in SUPPORTED_LANGUAGES if lang != DEFAULT_LANGUAGE)


@dataclass(frozen=True, slots=True)
class Message:
    """One marked string and where it was found."""

    msgid: str
    domain: str
    reference: str


class ExtractionError(ValueError):
    """A marker call the extractor cannot read (e.g. an f-string: its text is not fixed)."""


def module_domain(path: Path) -> str:
    """The domain of the strings marked in one module."""
    if path.is_relative_to(EXPORTS_DIR):
        return "exports"
    relative = path.relative_to(PACKAGE_DIR)
    if relative.parts[:2] == ("composition", "assessments"):
        return "assessments"
    return DOMAINS.get(path.stem, "common")


def _question_args(tree: ast.AST) -> set[int]:
    """ids of the nodes inside `Question(...)` calls (their strings are questionnaire text)."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "Question"
        ):
            inside.update(id(child) for child in ast.walk(node))
    return inside


def _messages_of(path: Path) -> Iterator[Message]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    domain = module_domain(path)
    in_question = _question_args(tree)
    reference = path.relative_to(ROOT).as_posix()
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in MARKERS
            and node.args
        ):
            continue
        first = node.args[0]
        if isinstance(first, ast.JoinedStr):
            raise ExtractionError(
                f"{reference}:{node.lineno}: an f-string passed to {node.func.id}()"
            )
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            message_domain = "questionnaire" if id(node) in in_question else domain
            yield Message(first.value, message_domain, reference)


def extract_messages() -> dict[str, dict[str, list[str]]]:
    """domain -> msgid -> source files, each msgid in one domain, in source order."""
    found: dict[str, dict[str, list[str]]] = {domain: {} for domain in DOMAIN_ORDER}
    owner: dict[str, str] = {}
    sources = [
        path
        for path in sorted(PACKAGE_DIR.rglob("*.py"))
        if "i18n" not in path.relative_to(PACKAGE_DIR).parts
    ]
    sources += sorted(EXPORTS_DIR.glob("*.py"))
    messages = [message for path in sources for message in _messages_of(path)]
    rank = {domain: index for index, domain in enumerate(DOMAIN_ORDER)}
    for message in sorted(messages, key=lambda m: rank[m.domain]):
        domain = owner.setdefault(message.msgid, message.domain)
        references = found[domain].setdefault(message.msgid, [])
        if message.reference not in references:
            references.append(message.reference)
    return {domain: messages for domain, messages in found.items() if messages}


def _header(language: str | None) -> Entry:
    lines = ["Content-Type: text/plain; charset=UTF-8", "Content-Transfer-Encoding: 8bit"]
    if language:
        lines.append(f"Language: {language}")
    return Entry(msgid="", msgstr="\n".join(lines) + "\n")


def _entry(
    msgid: str, references: list[str], msgstr: str = "", flags: list[str] | None = None
) -> Entry:
    flags = list(flags or [])
    if PLACEHOLDER.search(msgid) and "python-brace-format" not in flags:
        flags.append("python-brace-format")
    return Entry(msgid=msgid, msgstr=msgstr, references=list(references), flags=flags)


def template(messages: dict[str, list[str]]) -> str:
    """The `.pot` text of one domain."""
    return format_po([_header(None), *(_entry(m, refs) for m, refs in messages.items())])


def merged(language: str, domain: str, messages: dict[str, list[str]]) -> str:
    """The `.po` text of one language and domain: existing translations kept."""
    existing = {e.msgid: e for e in read_po(LOCALE_DIR / language / f"{domain}.po") if e.msgid}
    entries = [_header(language)]
    for msgid, references in messages.items():
        old = existing.get(msgid)
        entries.append(
            _entry(msgid, references, old.msgstr if old else "", old.flags if old else None)
        )
    for msgid, old in existing.items():
        if msgid not in messages and old.msgstr:
            entries.append(Entry(msgid=msgid, msgstr=old.msgstr, obsolete=True))
    return format_po(entries)


def expected_files() -> dict[Path, str]:
    """Every template and catalog file as the code's marked strings say it should read."""
    files: dict[Path, str] = {}
    for domain, messages in extract_messages().items():
        files[TEMPLATES_DIR / f"{domain}.pot"] = template(messages)
        for language in TRANSLATED_LANGUAGES:
            files[LOCALE_DIR / language / f"{domain}.po"] = merged(language, domain, messages)
    return files


def stale_files() -> list[Path]:
    """Files whose content differs from what extraction would write."""
    return [
        path
        for path, text in expected_files().items()
        if not path.exists() or path.read_text(encoding="utf-8") != text
    ]


def main(argv: list[str]) -> int:
    if "--check" in argv:
        stale = stale_files()
        for path in stale:
            print(f"out of date: {path.relative_to(ROOT)}", file=sys.stderr)
        return 1 if stale else 0
    for path, text in expected_files().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    counts = {d: len(m) for d, m in extract_messages().items()}
    print(f"{sum(counts.values())} msgids in {len(counts)} domains: {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
