"""Catalogs: the .po reader/writer, fallback to English, and catalogs in step with the code."""

from __future__ import annotations

from pathlib import Path

import pytest

import gdpr
from gdpr.i18n import (
    COMPLETE_LANGUAGES,
    SUPPORTED_LANGUAGES,
    activate,
    current_language,
    translation,
)
from gdpr.i18n.catalog import (
    LOCALE_DIR,
    TEMPLATES_DIR,
    Entry,
    catalog_from,
    format_po,
    parse_po,
    read_po,
)
from gdpr.i18n.extract import PLACEHOLDER, TRANSLATED_LANGUAGES, extract_messages
from tests.legal_documents.samples import FIXED_NOW, FULL_ANSWERS, FULL_INPUTS


def test_a_po_file_reads_back_what_was_written() -> None:
    entries = [
        Entry(msgid="", msgstr="Language: de\n"),
        Entry(
            msgid='Two "lines"\nwith a \\ backslash {name}',
            msgstr="Zwei\nZeilen {name}",
            references=["gdpr/a.py", "gdpr/b.py"],
            flags=["python-brace-format"],
        ),
        Entry(msgid="Untranslated", msgstr=""),
        Entry(msgid="Gone", msgstr="Weg", obsolete=True),
    ]
    assert parse_po(format_po(entries)) == entries


def test_fuzzy_and_empty_translations_fall_back_to_english(tmp_path: Path) -> None:
    (tmp_path / "common.po").write_text(
        format_po(
            [
                Entry(msgid="Controller", msgstr="Verantwortlicher"),
                Entry(msgid="Recipients", msgstr="Empfänger", flags=["fuzzy"]),
                Entry(msgid="Retention", msgstr=""),
            ]
        ),
        encoding="utf-8",
    )
    assert catalog_from(tmp_path) == {"Controller": "Verantwortlicher"}


def test_translated_text_gets_its_placeholders_and_citations(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    german = {"Basis: {basis} (Art. 6(1)(f))": "Grundlage: {basis} (Art. 6(1)(f))"}
    monkeypatch.setattr(translation, "catalog", lambda language: german)
    with activate("de"):
        # The user's value is inserted as given: neither a placeholder nor a citation.
        text = translation.gettext("Basis: {basis} (Art. 6(1)(f))", basis="{x} Art. 6(1)(a)")
        assert text == "Grundlage: {x} Art. 6(1)(a) (Art. 6 Abs. 1 lit. f DSGVO)"
        assert translation.gettext("Not in the catalog") == "Not in the catalog"
    with activate("en"):
        assert translation.gettext("Basis: {basis} (Art. 6(1)(f))", basis="x") == (
            "Basis: x (Art. 6(1)(f))"
        )


def test_compose_activates_its_language_only_for_the_call() -> None:
    spec = gdpr.get_document_type("DPIA")
    assert current_language() == "en"
    gdpr.compose(
        document_type=spec,
        inputs=FULL_INPUTS["DPIA"],
        answers=FULL_ANSWERS["DPIA"],
        now=FIXED_NOW,
        language="de",
    )
    assert current_language() == "en"
    with pytest.raises(gdpr.i18n.UnsupportedLanguage, match="expected one of: en, de"):
        gdpr.compose(document_type=spec, inputs={}, now=FIXED_NOW, language="pt")


def test_complete_languages_are_supported_ones() -> None:
    assert COMPLETE_LANGUAGES[0] == "en"
    assert set(COMPLETE_LANGUAGES) <= set(SUPPORTED_LANGUAGES)


def test_every_catalog_holds_every_msgid_of_the_code() -> None:
    """Fails when a string was marked (or changed) without running the extractor."""
    problems = []
    for domain, messages in extract_messages().items():
        files = [TEMPLATES_DIR / f"{domain}.pot"] + [
            LOCALE_DIR / language / f"{domain}.po" for language in TRANSLATED_LANGUAGES
        ]
        for path in files:
            present = {e.msgid for e in read_po(path) if e.msgid and not e.obsolete}
            missing = set(messages) - present
            if missing:
                problems.append(f"{path.relative_to(LOCALE_DIR)}: {len(missing)} missing")
    assert not problems, "run `python -m gdpr.i18n.extract`: " + "; ".join(problems)


def test_translations_keep_the_placeholders_of_their_msgid() -> None:
    wrong = [
        f"{path.relative_to(LOCALE_DIR)}: {entry.msgid!r}"
        for path in LOCALE_DIR.glob("*/*.po")
        for entry in read_po(path)
        if entry.msgid
        and entry.msgstr
        and set(PLACEHOLDER.findall(entry.msgid)) != set(PLACEHOLDER.findall(entry.msgstr))
    ]
    assert not wrong


def test_translations_keep_the_surrounding_whitespace_of_their_msgid() -> None:
    """A msgid like "Legal basis: " is followed by more text; its translation must be too."""
    wrong = [
        f"{path.relative_to(LOCALE_DIR)}: {entry.msgid!r}"
        for path in LOCALE_DIR.glob("*/*.po")
        for entry in read_po(path)
        if entry.msgid
        and entry.msgstr
        and (
            entry.msgid[: len(entry.msgid) - len(entry.msgid.lstrip())]
            != entry.msgstr[: len(entry.msgstr) - len(entry.msgstr.lstrip())]
            or entry.msgid[len(entry.msgid.rstrip()) :]
            != entry.msgstr[len(entry.msgstr.rstrip()) :]
        )
    ]
    assert not wrong


def test_a_complete_language_translates_every_msgid() -> None:
    untranslated = [
        f"{language}/{path.name}: {entry.msgid!r}"
        for language in COMPLETE_LANGUAGES
        if language != "en"
        for path in (LOCALE_DIR / language).glob("*.po")
        for entry in read_po(path)
        if entry.msgid and not entry.obsolete and not entry.translated
    ]
    assert not untranslated
