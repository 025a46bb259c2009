"""The substring shortcut of `Concept.matches` never changes what a concept matches.

Every concept of every scheme and of the review checklists, on every sentence of the review
test set (five languages) and on each of its own terms: the same answer with the shortcut
and with the pattern alone.
"""

from __future__ import annotations

import dataclasses
import re
from functools import cache
from pathlib import Path

import pytest

from gdpr.concepts.vocabulary import Concept, fold, scheme, scheme_names
from gdpr.review.checklist import checklist
from gdpr.review.engine import REVIEWABLE_TYPES

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "reviews"


def every_concept() -> list[Concept]:
    concepts = [concept for name in scheme_names() for concept in scheme(name).concepts]
    for document_type in REVIEWABLE_TYPES:
        concepts.extend(checklist(document_type).concepts.values())
    return concepts


@cache
def corpus() -> tuple[str, ...]:
    texts = (path.read_text() for path in sorted(FIXTURES.rglob("*.md")))
    sentences = (part for text in texts for part in re.split(r"(?<=[.;:!?])\s+|\n+", text))
    return tuple(dict.fromkeys(folded for part in sentences if (folded := fold(part))))


def test_the_corpus_covers_the_five_languages_test_set() -> None:
    assert len(corpus()) > 1000


@pytest.mark.parametrize("concept", every_concept(), ids=lambda c: f"{c.scheme}:{c.code}")
def test_the_shortcut_agrees_with_the_pattern_alone(concept: Concept) -> None:
    assert concept.literals  # the shortcut is on
    pattern_alone = dataclasses.replace(concept, literals=None)
    own_terms = [
        fold(term.lstrip("~=!").replace("...", " "))
        for terms in concept.terms.values()
        for term in terms
    ]
    for text in (*corpus(), *own_terms):
        assert concept.matches(text) == pattern_alone.matches(text), text
