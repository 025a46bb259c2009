"""Catalogs: built with Babel, compiled catalogs read with gettext, fallback to English, and
catalogs in step with the code."""

from __future__ import annotations

import ast
import gettext as gnu_gettext
from collections.abc import Iterator
from io import BytesIO
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

import gdpr
from gdpr.i18n import (
    COMPLETE_LANGUAGES,
    SUPPORTED_LANGUAGES,
    activate,
    current_language,
    translation,
)
from gdpr.i18n.catalog import LOCALE_DIR, TEMPLATES_DIR, translations_from
from gdpr.i18n.extract import (
    KEYWORDS,
    PLACEHOLDER,
    TRANSLATED_LANGUAGES,
    ExtractionError,
    check_all_read,
    compiled,
    extract_messages,
    mo_messages,
)
from tests.legal_documents.samples import FIXED_NOW, FULL_ANSWERS, FULL_INPUTS


def catalog_messages(path: Path) -> list[Message]:
    """The messages of a .po/.pot file (header and obsolete entries left out)."""
    language = None if path.suffix == ".pot" else path.parent.name
    catalog = read_po(BytesIO(path.read_bytes()), locale=language, ignore_obsolete=True)
    return [message for message in catalog if message.id]


def pairs(message: Message) -> Iterator[tuple[str, str]]:
    """(English text, its translation) of each form of a message."""
    if isinstance(message.id, str):
        yield message.id, str(message.string)
        return
    singular, plural = message.id
    for index, text in enumerate(message.string):
        yield (singular if index == 0 else plural), text


def test_every_committed_mo_is_compiled_from_its_po() -> None:
    """Fails when a .po was edited without `make catalogs` (the service reads the .mo)."""
    stale = [
        str(po_file.relative_to(LOCALE_DIR))
        for language in TRANSLATED_LANGUAGES
        for po_file in sorted((LOCALE_DIR / language).glob("*.po"))
        if not po_file.with_suffix(".mo").exists()
        or mo_messages(po_file.with_suffix(".mo").read_bytes())
        != mo_messages(compiled(po_file, language))
    ]
    assert not stale, "run `make catalogs`: " + "; ".join(stale)


def test_fuzzy_and_empty_translations_fall_back_to_english(tmp_path: Path) -> None:
    catalog = Catalog(locale="de")
    catalog.add("Controller", "Verantwortlicher")
    catalog.add("Recipients", "Empfänger", flags=["fuzzy"])
    catalog.add("Retention", "")
    po_file = tmp_path / "common.po"
    with po_file.open("wb") as handle:
        write_po(handle, catalog)
    mo_file = tmp_path / "common.mo"
    mo_file.write_bytes(compiled(po_file, "de"))
    german = translations_from([mo_file])
    assert german.gettext("Controller") == "Verantwortlicher"
    assert german.gettext("Recipients") == "Recipients"
    assert german.gettext("Retention") == "Retention"


def _compiled_catalog(language: str, translated: dict[str, str]) -> gnu_gettext.GNUTranslations:
    catalog = Catalog(locale=language)
    for msgid, msgstr in translated.items():
        catalog.add(msgid, msgstr)
    buffer = BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gnu_gettext.GNUTranslations(buffer)


def test_translated_text_gets_its_placeholders_and_citations(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    german = _compiled_catalog(
        "de", {"Basis: {basis} (Art. 6(1)(f))": "Grundlage: {basis} (Art. 6(1)(f))"}
    )
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
            present = {message.id for message in catalog_messages(path)}
            missing = set(messages) - present
            if missing:
                problems.append(f"{path.relative_to(LOCALE_DIR)}: {len(missing)} missing")
    assert not problems, "run `python -m gdpr.i18n.extract`: " + "; ".join(problems)


def test_translations_keep_the_placeholders_of_their_msgid() -> None:
    wrong = [
        f"{path.relative_to(LOCALE_DIR)}: {msgid!r}"
        for path in LOCALE_DIR.glob("*/*.po")
        for message in catalog_messages(path)
        for msgid, msgstr in pairs(message)
        if msgstr and set(PLACEHOLDER.findall(msgid)) != set(PLACEHOLDER.findall(msgstr))
    ]
    assert not wrong


def test_translations_keep_the_surrounding_whitespace_of_their_msgid() -> None:
    """A msgid like "Legal basis: " is followed by more text; its translation must be too."""
    wrong = [
        f"{path.relative_to(LOCALE_DIR)}: {msgid!r}"
        for path in LOCALE_DIR.glob("*/*.po")
        for message in catalog_messages(path)
        for msgid, msgstr in pairs(message)
        if msgstr
        and (
            msgid[: len(msgid) - len(msgid.lstrip())]
            != msgstr[: len(msgstr) - len(msgstr.lstrip())]
            or msgid[len(msgid.rstrip()) :] != msgstr[len(msgstr.rstrip()) :]
        )
    ]
    assert not wrong


def test_a_complete_language_translates_every_msgid() -> None:
    untranslated = [
        f"{language}/{path.name}: {message.id!r}"
        for language in COMPLETE_LANGUAGES
        if language != "en"
        for path in (LOCALE_DIR / language).glob("*.po")
        for message in catalog_messages(path)
        if message.fuzzy or not all(text for _, text in pairs(message))
    ]
    assert not untranslated


@pytest.mark.parametrize(
    "source",
    [
        "title = f\"{_('Contents')}: {name}\"\n",
        'text = _("Name: {name}", name=name or to_be_completed(_("controller name")))\n',
        'text = _(f"Hello {name}")\n',
    ],
)
def test_a_marker_babel_cannot_read_stops_the_extraction(source: str) -> None:
    """Babel's extractor skips these silently; the text would stay English in every language."""
    extracted = {
        text
        for _lineno, message, _comments, _context in extract(
            "python", BytesIO(source.encode()), keywords=KEYWORDS
        )
        for text in ((message,) if isinstance(message, str) else message)
    }
    with pytest.raises(ExtractionError, match=r"module\.py:1"):
        check_all_read(ast.parse(source), "module.py", extracted)
