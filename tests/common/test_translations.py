"""The admin's catalogs are complete and compiled; a new unmarked or untranslated text fails.

`catalog_problems` is what `make lint` runs (`manage.py messages --check`); these tests run
it on the repository and on a copy with a text added, to see it fail.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.utils import translation

from common.admin_errors import admin_message
from common.model_labels import FIELD_LABELS, MODEL_LABELS, our_models
from common.translations import TRANSLATED, catalog_entries, catalog_path, catalog_problems
from legal_documents.exceptions import DocumentHasNoContent, GenerationLimitReached

ROOT = Path(settings.BASE_DIR)
SOURCES = (
    "common", "organizations", "audit", "legal_documents", "assets", "webhooks", "register",
    "compliance", "templates",
)  # fmt: skip


@pytest.fixture
def repository_copy(tmp_path: Path) -> Path:
    """The apps, templates and catalogs, copied: a place to add a text without touching ours."""
    for name in (*SOURCES, "locale"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


@pytest.mark.tool  # msgfmt
def test_every_marked_string_is_translated_in_every_language_and_compiled() -> None:
    assert catalog_problems() == []


@pytest.mark.tool  # msgfmt
def test_a_new_marked_string_without_translation_fails_the_check(repository_copy: Path) -> None:
    module = repository_copy / "legal_documents" / "admin" / "announcement.py"
    module.write_text(
        "from django.utils.translation import gettext\n\n"
        "def announce() -> str:\n"
        '    return gettext("A sentence nobody translated yet.")\n'
    )
    template = repository_copy / "templates" / "admin" / "announcement.html"
    template.write_text('{% load i18n %}<p>{% translate "Another new sentence." %}</p>\n')
    problems = catalog_problems(repository_copy)
    for language in TRANSLATED:
        where = f"locale/{language}/LC_MESSAGES/django.po"
        assert f"{where}: missing 'A sentence nobody translated yet.' (run `make messages`)" in (
            problems
        )
        assert f"{where}: missing 'Another new sentence.' (run `make messages`)" in problems


@pytest.mark.tool  # msgfmt
def test_an_empty_or_fuzzy_translation_and_a_stale_mo_fail_the_check(
    repository_copy: Path,
) -> None:
    po_file = catalog_path(repository_copy, "de", "django")
    text = po_file.read_text(encoding="utf-8")
    po_file.write_text(
        text.replace('msgstr "Antworten speichern"', 'msgstr ""').replace(
            'msgid "Next steps"', '#, fuzzy\nmsgid "Next steps"'
        ),
        encoding="utf-8",
    )
    problems = catalog_problems(repository_copy)
    assert "locale/de/LC_MESSAGES/django.po: not translated (or fuzzy) 'Save answers'" in problems
    assert "locale/de/LC_MESSAGES/django.po: not translated (or fuzzy) 'Next steps'" in problems
    assert "locale/de/LC_MESSAGES/django.mo: not compiled from its .po" in problems


def test_the_po_reader_reads_plurals_contexts_and_multiline_strings() -> None:
    entries = catalog_entries(catalog_path(ROOT, "es", "django"))
    saved = entries[("", "%(count)d answer saved.", "%(count)d answers saved.")]
    assert saved.translations == [
        "%(count)d respuesta guardada.",
        "%(count)d respuestas guardadas.",
        "%(count)d respuestas guardadas.",
    ]
    assert entries[("language switcher button", "Change", "")].translations == ["Cambiar"]
    long_id = next(key for key in entries if key[1].startswith("Each event stores the SHA-256"))
    assert long_id[1].endswith("breaks the chain where it happened.")


# --- model, field and app names --------------------------------------------------------------
def unlabelled(models: list[type]) -> list[str]:
    """Models and fields without a marked name (fields named in their model excepted)."""
    missing = [model._meta.label for model in models if model._meta.label_lower not in MODEL_LABELS]
    for model in models:
        for field in [*model._meta.fields, *model._meta.many_to_many]:
            if field._verbose_name is None and field.name not in FIELD_LABELS:
                missing.append(f"{model._meta.label}.{field.name}")
    return missing


def test_every_model_and_field_of_our_apps_has_a_marked_name() -> None:
    assert unlabelled(our_models()) == []


def test_a_model_without_marked_names_is_reported() -> None:
    # Django's ContentType: no entry, and `app_label` is named after its attribute.
    found = unlabelled([apps.get_model("contenttypes", "ContentType")])
    assert found == ["contenttypes.ContentType", "contenttypes.ContentType.app_label"]


def test_names_follow_the_active_language() -> None:
    legal_document = apps.get_model("legal_documents", "LegalDocument")
    field = legal_document._meta.get_field("document_type")
    with translation.override("fr"):
        assert str(legal_document._meta.verbose_name_plural) == "documents juridiques"
        assert str(field.verbose_name) == "type de document"
        assert str(apps.get_app_config("audit").verbose_name) == "Piste d'audit"
    with translation.override("en"):
        assert str(field.verbose_name) == "document type"


# --- domain errors in the admin ---------------------------------------------------------------
def test_a_domain_error_is_shown_in_the_users_language() -> None:
    limit = GenerationLimitReached(running=3, limit=3)
    busy = DocumentHasNoContent("The document has no content to edit yet.")
    with translation.override("de"):
        assert admin_message(limit).startswith("Pro Organisation können höchstens 3 Dokumente")
        assert admin_message(busy) == "Das Dokument hat noch keinen Inhalt zum Bearbeiten."
    with translation.override("en"):
        assert admin_message(limit) == limit.message  # the API's own text


def test_a_message_without_translation_is_introduced_in_the_users_language() -> None:
    error = DocumentHasNoContent("Some text nobody marked.")
    with translation.override("it"):
        assert admin_message(error) == "Non possibile nello stato attuale: Some text nobody marked."
