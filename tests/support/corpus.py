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
