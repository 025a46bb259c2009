"""Document types as data: the registry, the checklists of docs/LEGAL.md, the questionnaires."""

from __future__ import annotations

import pytest

from gdpr.doctypes.registry import (
    DOCUMENT_TYPES,
    UnknownDocumentType,
    get_document_type,
)

# The ids docs/LEGAL.md names; a type may add items for the rules docs/LEGAL.md lists without an id.
LEGAL_IDS = {
    "RECORD_OF_PROCESSING": {
        "a-controller",
        "b-purposes",
        "c-categories",
        "d-recipients",
        "e-transfers",
        "f-erasure",
        "g-security",
        "purpose-basis",
        "special-categories",
    },
    "DPIA": {
        "a-description",
        "b-necessity",
        "c-risks",
        "d-measures",
        "dpo-advice",
        "screening",
        "data-subject-views",
        "review",
        "prior-consultation",
        "special-categories",
        "national-list",
        "balancing-test",
        "action-plan",
        "validation",
    },
    "PRIVACY_POLICY": {
        "controller",
        "dpo",
        "purposes-legal-basis",
        "legitimate-interests",
        "recipients",
        "transfers",
        "retention",
        "rights",
        "withdraw-consent",
        "complaint",
        "statutory-requirement",
        "automated-decisions",
        "data-categories",
        "source",
    },
    "DATA_PROCESSING_AGREEMENT": {
        "subject-matter",
        "duration",
        "nature-purpose",
        "data-types",
        "data-subjects",
        "controller-rights",
        "a-instructions",
        "b-confidentiality",
        "c-security",
        "d-subprocessors",
        "e-dsr-assistance",
        "f-compliance-assistance",
        "g-deletion",
        "h-audits",
        "infringing-instructions",
    },
    "BREACH_NOTIFICATION": {
        "deadline",
        "a-nature",
        "b-contact",
        "c-consequences",
        "d-measures",
        "documentation",
        "data-subject-communication",
    },
    "DATA_SUBJECT_REQUEST_FORM": {
        "requester-identity",
        "access",
        "rectification",
        "erasure",
        "restriction",
        "notification-recipients",
        "portability",
        "objection",
        "automated-decisions",
        "deadline",
        "refusal",
        "free-of-charge",
    },
}


def test_the_registry_knows_the_six_types() -> None:
    assert set(DOCUMENT_TYPES) == set(LEGAL_IDS)
    assert get_document_type("DPIA").ruleset_version == "dpia-2026.2"


def test_an_unknown_type_raises_a_typed_error_usable_as_key_or_value_error() -> None:
    with pytest.raises(UnknownDocumentType) as raised:
        get_document_type("NDA")
    assert isinstance(raised.value, KeyError)
    assert isinstance(raised.value, ValueError)
    assert "NDA" in str(raised.value)


@pytest.mark.parametrize("name", sorted(LEGAL_IDS))
def test_each_checklist_covers_every_item_of_legal_md(name: str) -> None:
    ids = {item.id for item in DOCUMENT_TYPES[name].checklist}
    assert LEGAL_IDS[name] <= ids


@pytest.mark.parametrize("name", sorted(LEGAL_IDS))
def test_each_item_names_an_article_and_a_section_of_its_type(name: str) -> None:
    document_type = DOCUMENT_TYPES[name]
    sections = {section.id for section in document_type.sections}
    for item in document_type.checklist:
        assert item.article.startswith("Art. ")
        assert item.section in sections
    assert all(document_type.items_of(section) for section in sections)


@pytest.mark.parametrize("name", sorted(LEGAL_IDS))
def test_each_questionnaire_has_six_to_twelve_questions_with_articles(name: str) -> None:
    questions = DOCUMENT_TYPES[name].questions
    assert 6 <= len(questions) <= 12
    assert len({q.id for q in questions}) == len(questions)
    assert all(q.article.startswith("Art.") and q.text.endswith("?") for q in questions)
    assert any(q.condition for q in questions)


def test_the_questionnaires_use_every_answer_type() -> None:
    used = {q.answer_type for t in DOCUMENT_TYPES.values() for q in t.questions}
    assert used == {"text", "choice", "multiChoice", "boolean", "date"}


def test_a_conditional_question_is_asked_only_when_the_earlier_answer_matches() -> None:
    question = get_document_type("DPIA").question("consultationSummary")
    assert question.is_asked({"dataSubjectsConsulted": True})
    assert not question.is_asked({"dataSubjectsConsulted": False})
    assert not question.is_asked({})


def test_a_condition_on_a_multi_choice_answer_matches_any_selected_option() -> None:
    from gdpr.doctypes.base import Question

    question = Question("q", "Why?", "", "Art. 1", False, "text", "x", condition=("p", "b"))
    assert question.is_asked({"p": ["a", "b"]})
    assert not question.is_asked({"p": ["a"]})
