"""No regular expression of ours relies on possessive quantifiers or atomic groups.

Python 3.11 introduced both, and before 3.11.5 they matched wrongly: on Debian 12's 3.11.2
`cite("Art. 13(1)(c), 14(1)(d)", "de")` raised "Not an article reference" (the citation
pattern used `\\d++` and `*+`). The project requires Python >= 3.11, so the patterns keep to
what every 3.11 reads the same way (`X*(?!X)` for `X*+`).
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

from gdpr.i18n.citations import cite

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = [
    "gdpr", "common", "config", "organizations", "audit", "legal_documents", "register",
    "assets", "webhooks", "compliance",
]  # fmt: skip
# A quantifier followed by `+` (possessive), or `(?>` (atomic group), not escaped.
POSSESSIVE_OR_ATOMIC = re.compile(r"(?<!\\)(?:[*+?}]\+|\(\?>)")


def raw_strings(path: Path) -> list[tuple[int, str]]:
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    return [
        (token.start[0], token.string)
        for token in tokens
        if token.type == tokenize.STRING and token.string.lstrip("bBuU")[:1] in "rR"
    ]


def test_no_raw_string_pattern_uses_a_possessive_quantifier_or_an_atomic_group():
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        for line, text in raw_strings(path)
        if POSSESSIVE_OR_ATOMIC.search(text)
    ]

    assert not found


@pytest.mark.parametrize(
    ("reference", "expected"),
    [
        ("Art. 13(1)(c), 14(1)(d)", "Art. 13 Abs. 1 lit. c, Art. 14 Abs. 1 lit. d DSGVO"),
        ("Art. 13-14", "Art. 13 und 14 DSGVO"),
        ("Art. 5(1)(b), (e) and (f)", "Art. 5 Abs. 1 lit. b, e und f DSGVO"),
    ],
)
def test_a_number_or_a_list_is_read_whole(reference, expected):
    assert cite(reference, "de") == expected


def test_a_number_is_never_split_to_read_another_form():
    with pytest.raises(ValueError, match="Not an article reference"):
        cite("Art. 35 Abs. 4", "de")
