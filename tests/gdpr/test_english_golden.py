"""English output is pinned byte for byte: marking strings for translation changes nothing.

The golden files were written from the code before any string was marked (issue 18); with
English active every type must still compose to exactly the same Markdown, and the
questionnaire must ask exactly the same questions. Regenerate only for an intended change
to the English text: `python -m tests.gdpr.test_english_golden`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import gdpr
from gdpr.composition.context import SourceRef
from gdpr.doctypes.examples import EXAMPLES
from tests.legal_documents.samples import FIXED_NOW, FULL_ANSWERS, FULL_INPUTS

GOLDEN = Path(__file__).resolve().parent / "golden"
VARIANTS = ("full", "examples", "empty")


def _compose(name: str, variant: str) -> str:
    spec = gdpr.get_document_type(name)
    if variant == "full":
        return gdpr.compose(
            document_type=spec,
            inputs=FULL_INPUTS[name],
            answers=FULL_ANSWERS[name],
            organization_name="Golden DPO Services",
            sources=(SourceRef(file_name="policy.pdf", excerpt="Retention: 3 years."),),
            now=FIXED_NOW,
        )
    if variant == "examples":
        return gdpr.compose(document_type=spec, inputs=EXAMPLES[name], now=FIXED_NOW)
    return gdpr.compose(document_type=spec, inputs={}, now=FIXED_NOW)


def _questions(name: str) -> list[dict[str, Any]]:
    spec = gdpr.get_document_type(name)
    return [
        {"id": q.id, "text": q.text, "help": q.help, "article": q.article, "options": q.options}
        for q in spec.questions
    ]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", sorted(gdpr.DOCUMENT_TYPES))
def test_english_markdown_is_unchanged(name: str, variant: str) -> None:
    expected = (GOLDEN / f"{name}.{variant}.md").read_text(encoding="utf-8")
    assert _compose(name, variant) == expected


@pytest.mark.parametrize("name", sorted(gdpr.DOCUMENT_TYPES))
def test_english_questions_are_unchanged(name: str) -> None:
    expected = json.loads((GOLDEN / f"{name}.questions.json").read_text(encoding="utf-8"))
    assert json.loads(json.dumps(_questions(name))) == expected


def _write() -> None:
    for name in gdpr.DOCUMENT_TYPES:
        for variant in VARIANTS:
            (GOLDEN / f"{name}.{variant}.md").write_text(_compose(name, variant), encoding="utf-8")
        (GOLDEN / f"{name}.questions.json").write_text(
            json.dumps(_questions(name), indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )


if __name__ == "__main__":
    _write()
