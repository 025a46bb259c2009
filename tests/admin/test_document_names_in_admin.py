"""The admin names a document by what it is about, not by its UUID: lists, the change page's
title and breadcrumbs, its history, the versions and the DPO start page."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from legal_documents.models import DocumentVersion
from tests.factories import LegalDocumentFactory

pytestmark = pytest.mark.django_db

NAME = "DPIA \u2013 Customer churn scoring"


def churn_dpia(organization):  # type: ignore[no-untyped-def]
    return LegalDocumentFactory(
        organization=organization,
        inputs={"companyName": "Acme", "processingActivity": "Customer churn scoring"},
        stale_since=timezone.now() - timedelta(hours=3),
    )


def visible_text(html: str) -> str:
    """The page's text without its tags and attributes (ids in links do not count)."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_documents_list_names_each_document_with_its_short_id_in_grey(dpo_staff):
    document = churn_dpia(dpo_staff.organization)
    html = dpo_staff.client.get(reverse("admin:legal_documents_legaldocument_changelist")).content
    html = html.decode()

    assert NAME in visible_text(html)
    assert f'<span class="quiet document-id">{str(document.pk)[:8]}</span>' in html
    assert str(document.pk) not in visible_text(html)


def test_the_change_page_title_and_breadcrumbs_name_the_document(dpo_staff):
    document = churn_dpia(dpo_staff.organization)
    html = dpo_staff.client.get(
        reverse("admin:legal_documents_legaldocument_change", args=[document.pk])
    ).content.decode()

    title = re.search(r"<title>(.*?)</title>", html, re.S).group(1)
    breadcrumbs = re.search(r'<div class="breadcrumbs">(.*?)</div>', html, re.S).group(1)
    assert title.startswith(NAME)
    assert NAME in visible_text(breadcrumbs) and str(document.pk) not in breadcrumbs
    assert re.search(r"<h1>\s*" + re.escape(NAME), html)


def test_the_history_and_versions_name_the_document(dpo_staff):
    document = churn_dpia(dpo_staff.organization)
    DocumentVersion.objects.create(
        document=document, number=1, content_markdown="# x", content_sha256="a" * 64,
        previous_sha256="0" * 64, chain_sha256="b" * 64, stage="draft",
        change_reason="Created", created_at=timezone.now(),
    )  # fmt: skip
    client = dpo_staff.client
    history = client.get(reverse("admin:legal_documents_legaldocument_history", args=[document.pk]))
    versions = client.get(reverse("admin:legal_documents_documentversion_changelist"))

    assert NAME in visible_text(history.content.decode())
    assert NAME in visible_text(versions.content.decode())
    assert str(document.pk) not in visible_text(versions.content.decode())


def test_the_start_page_names_stale_documents(dpo_staff):
    churn_dpia(dpo_staff.organization)
    html = dpo_staff.client.get(reverse("admin:compliance_start")).content.decode()
    stale = re.search(r'id="stale-documents"(.*?)</section>', html, re.S).group(1)
    assert NAME in visible_text(stale)


def test_the_document_type_is_named_in_the_users_language(dpo_staff):
    churn_dpia(dpo_staff.organization)
    dpo_staff.client.cookies["django_language"] = "de"
    html = dpo_staff.client.get(reverse("admin:legal_documents_legaldocument_changelist")).content
    assert "DSFA \u2013 Customer churn scoring" in visible_text(html.decode())
