"""The real-world files the tests upload and parse, kept in the repository.

`tests/fixtures/corpus/` is a verbatim copy of the project's reference corpus (its
`SOURCES.md` gives a phrase each file contains); tests read it and never rewrite it.
"""

from __future__ import annotations

from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "corpus"


def corpus_file(relative: str) -> Path:
    """A file of `tests/fixtures/corpus`, which every clone has: never skipped."""
    path = CORPUS / relative
    assert path.is_file(), f"the corpus is missing {path}"
    return path


def well_formed_first_phrases() -> dict[str, str]:
    """Relative path -> the first search phrase of every well-formed file (SOURCES.md table).

    Rows are `| \\`folder/name\\` | ... | "phrase"; "phrase" |`; `hostile/` rows are left out.
    """
    import re

    phrases: dict[str, str] = {}
    for line in (CORPUS / "SOURCES.md").read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
        if len(cells) < 8 or not cells[0].startswith("`") or cells[0].startswith("`hostile/"):
            continue
        found = re.findall(r'"([^"]+)"', cells[-1])
        if found:
            phrases[cells[0].strip("`")] = found[0]
    return phrases
