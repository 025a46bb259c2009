"""The offline edit instructions of `iterate` (providers.editing), on a real document."""

from __future__ import annotations

import pytest

from gdpr.composition import compose
from gdpr.doctypes.registry import get_document_type
from legal_documents.providers.editing import GRAMMAR, apply_edit_instruction, headings
from tests.legal_documents.samples import FIXED_NOW, FULL_ANSWERS, FULL_INPUTS

COMPANY = FULL_INPUTS["PRIVACY_POLICY"]["companyName"]


@pytest.fixture
def markdown() -> str:
    """A complete privacy notice as the template provider writes it."""
    return compose(
        document_type=get_document_type("PRIVACY_POLICY"),
        inputs=FULL_INPUTS["PRIVACY_POLICY"],
        answers=FULL_ANSWERS["PRIVACY_POLICY"],
        now=FIXED_NOW,
    )


def section_body(markdown: str, title_start: str) -> str:
    found = headings(markdown)
    start = next(h for h in found if h.text.startswith(title_start))
    end = next((h.line for h in found if h.line > start.line and h.level <= start.level), None)
    return "\n".join(markdown.splitlines()[start.line : end])


@pytest.mark.parametrize("reference", ["5", "Your rights", "your rights (Art. 13(2)(b)-(d))"])
def test_add_to_section_appends_the_paragraph_at_the_end_of_the_named_section(markdown, reference):
    result = apply_edit_instruction(
        markdown, f'add to section "{reference}": Requests are answered by our DPO team.'
    )
    assert result.markdown is not None
    rights = section_body(result.markdown, "5.")
    assert rights.rstrip().endswith("Requests are answered by our DPO team.")
    assert section_body(markdown, "5.") in result.markdown  # nothing else of it changed
    assert "Added the paragraph" in result.reply


def test_add_to_section_accepts_an_item_anchor_and_curly_quotes(markdown):
    result = apply_edit_instruction(markdown, "Add to section “retention”: Backups: 30 days.")
    assert result.markdown is not None
    assert section_body(result.markdown, "Retention").rstrip().endswith("Backups: 30 days.")


def test_added_text_is_escaped_so_it_cannot_fake_a_heading_or_an_anchor(markdown):
    result = apply_edit_instruction(markdown, 'add to section "1": # Owned {#controller}')
    assert result.markdown is not None
    assert "\\# Owned \\{\\#controller\\}" in result.markdown
    assert len(headings(result.markdown)) == len(headings(markdown))


def test_an_unknown_section_leaves_the_document_unchanged_and_lists_the_sections(markdown):
    result = apply_edit_instruction(markdown, 'add to section "Pricing": Free.')
    assert result.markdown is None
    assert 'No section "Pricing"' in result.reply
    assert "5. Your rights" in result.reply


def test_an_ambiguous_section_title_is_refused(markdown):
    # Sections 2 and 3 both begin with "W" ("What we process...", "Who receives...").
    result = apply_edit_instruction(markdown, 'add to section "W": text')
    assert result.markdown is None
    assert "several sections" in result.reply


def test_add_section_appends_a_new_numbered_section(markdown):
    result = apply_edit_instruction(markdown, 'add section "Cookies": We use no cookies.')
    assert result.markdown is not None
    assert result.markdown.rstrip().endswith("## 9. Cookies\n\nWe use no cookies.")


def test_replace_changes_every_occurrence_but_never_an_anchor(markdown):
    result = apply_edit_instruction(markdown, 'replace "rights" with "entitlements"')
    assert result.markdown is not None
    assert "{#rights}" in result.markdown
    assert "Your entitlements (Art. 13(2)(b))" in result.markdown
    assert "occurrences" in result.reply


def test_replace_of_absent_text_changes_nothing_and_says_so(markdown):
    result = apply_edit_instruction(markdown, "replace 'unicorn' with 'horse'")
    assert result.markdown is None
    assert "does not occur" in result.reply


def test_remove_section_drops_the_heading_and_everything_under_it(markdown):
    result = apply_edit_instruction(markdown, 'remove section "Withdrawing consent"')
    assert result.markdown is not None
    assert "{#withdraw-consent}" not in result.markdown
    assert "{#complaint}" in result.markdown  # the next item stays
    assert 'Removed the section "Withdrawing consent' in result.reply


def test_rename_company_uses_the_documents_company_name(markdown):
    assert COMPANY in markdown
    result = apply_edit_instruction(
        markdown, 'rename company to "Acme Europe SE"', company_name=COMPANY
    )
    assert result.markdown is not None
    assert COMPANY not in result.markdown
    assert "Acme Europe SE" in result.markdown
    assert "inputs keep the old name" in result.reply


def test_rename_company_with_both_names_needs_no_context(markdown):
    result = apply_edit_instruction(markdown, f'rename company "{COMPANY}" to "Acme Europe SE"')
    assert result.markdown is not None and "Acme Europe SE" in result.markdown


def test_rename_company_without_a_known_name_explains_the_long_form(markdown):
    result = apply_edit_instruction(markdown, 'rename company to "X"')
    assert result.markdown is None
    assert 'rename company "<old name>" to "<new name>"' in result.reply


def test_help_lists_the_instructions_without_changing_anything(markdown):
    result = apply_edit_instruction(markdown, "help")
    assert result.markdown is None
    assert GRAMMAR in result.reply


def test_a_free_form_message_needs_a_language_model_and_changes_nothing(markdown):
    result = apply_edit_instruction(markdown, "Please make the tone friendlier.")
    assert result.markdown is None
    assert "Free-form edits need a configured language model" in result.reply
    assert 'add to section "' in result.reply  # the grammar is shown
