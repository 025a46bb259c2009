"""Fixtures for the document-type and composition tests: complete inputs per type."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from tests.legal_documents.samples import FIXED_NOW, FULL_ANSWERS, FULL_INPUTS


@pytest.fixture
def now() -> datetime:
    """The fixed clock every composition test uses, so documents are reproducible."""
    return FIXED_NOW


@pytest.fixture
def full_inputs() -> dict[str, dict[str, Any]]:
    """Complete create-body inputs per document type (a fresh copy per test)."""
    return {name: dict(values) for name, values in FULL_INPUTS.items()}


@pytest.fixture
def full_answers() -> dict[str, dict[str, Any]]:
    """Questionnaire answers completing what the inputs leave open, per document type."""
    return {name: dict(values) for name, values in FULL_ANSWERS.items()}
