"""legal_documents.refreshing.merge_refresh: the register's new text, untouched edits kept."""

from __future__ import annotations

from legal_documents.refreshing import merge_refresh, split_blocks

OLD = """# Record

- **Date:** 2026-01-01

## 1. Record of the controller (Art. 30(1))

### Overview {#overview}

| Payroll |

## 2. Processing activity: Payroll (Art. 30(1))

### Purposes (Art. 30(1)(b)) {#b-purposes}

- Paying salaries

### Recipients (Art. 30(1)(d)) {#d-recipients}

- Lohncloud GmbH (Germany)

## 3. Processing activity: Recruiting (Art. 30(1))

### Purposes (Art. 30(1)(b)) {#b-purposes}

- Hiring

## 4. Form (Art. 30(3))

### Written form (Art. 30(3)) {#written-form}

Kept electronically.
"""


def _edited(text: str) -> str:
    return (
        text.replace("- Paying salaries", "- Paying salaries\n\nEDIT-PURPOSE")
        .replace("- Lohncloud GmbH (Germany)", "- Lohncloud GmbH (Germany)\n\nEDIT-RECIPIENT")
        .replace("Kept electronically.", "Kept electronically.\n\n## Notes\n\nHAND-ADDED")
    )


def test_untouched_blocks_keep_their_edits_and_changed_blocks_take_the_new_text():
    new = OLD.replace("Lohncloud GmbH (Germany)", "Lohncloud GmbH (Switzerland)")
    merge = merge_refresh(current=_edited(OLD), old=OLD, new=new)
    assert "EDIT-PURPOSE" in merge.markdown  # the purposes did not change
    assert "Switzerland" in merge.markdown and "EDIT-RECIPIENT" not in merge.markdown
    assert "HAND-ADDED" in merge.markdown  # a section added by hand stays...
    assert merge.markdown.index("Kept electronically.") < merge.markdown.index("HAND-ADDED")
    assert merge.rewritten == ["Processing activity: Payroll (Art. 30(1))"]


def test_an_activity_added_before_renumbers_the_sections_and_keeps_their_edits():
    new = OLD.replace(
        "## 2. Processing activity: Payroll",
        "## 2. Processing activity: Accounting (Art. 30(1))\n\n"
        "### Purposes (Art. 30(1)(b)) {#b-purposes}\n\n- Bookkeeping\n\n"
        "## 3. Processing activity: Payroll",
    ).replace("## 3. Processing activity: Recruiting", "## 4. Processing activity: Recruiting")
    new = new.replace("## 4. Form", "## 5. Form").replace(
        "| Payroll |", "| Accounting |\n| Payroll |"
    )
    merge = merge_refresh(current=_edited(OLD), old=OLD, new=new)
    text = merge.markdown
    assert "EDIT-PURPOSE" in text and "EDIT-RECIPIENT" in text
    assert "## 3. Processing activity: Payroll" in text
    assert "## 2. Processing activity: Payroll" not in text
    assert "## 5. Form" in text and "- Bookkeeping" in text
    assert text.index("Bookkeeping") < text.index("EDIT-PURPOSE")
    assert merge.rewritten == [
        "Record of the controller (Art. 30(1))", "Processing activity: Accounting (Art. 30(1))"
    ]  # fmt: skip


def test_a_removed_activity_goes_and_a_block_deleted_by_hand_stays_deleted():
    new = OLD.split("## 3. Processing activity: Recruiting")[0] + OLD.split("Hiring\n\n")[1]
    current = OLD.replace(
        "### Written form (Art. 30(3)) {#written-form}\n\nKept electronically.\n", ""
    )
    merge = merge_refresh(current=current, old=OLD, new=new)
    assert "Recruiting" not in merge.markdown and "Hiring" not in merge.markdown
    assert "{#written-form}" not in merge.markdown


def test_headings_in_code_fences_do_not_cut_blocks():
    blocks = split_blocks("## A\n\n```\n## not a heading\n```\n\n### B {#b}\n\ntext\n")
    assert [block.key for block in blocks] == [("section", "a"), ("a", "b")]
