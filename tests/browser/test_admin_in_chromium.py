"""The back-office in a real browser: a DPO's document from form to PDF, an auditor's review,
and another organization's DPO kept out. Screenshots are written for a person to look at."""

from __future__ import annotations

import io
import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from audit.models import AuditEvent
from legal_documents.models import LegalDocument
from organizations.models import Role
from tests.browser.conftest import TIMEOUT_MS, admin_user, log_in
from tests.conftest import make_caller
from tests.legal_documents.history_support import edit, generated_document

pytestmark = pytest.mark.django_db(transaction=True)


def wait_until_completed(page: Page) -> None:
    """The status line turns `completed` without a reload (the page polls), then reload.

    A fast worker may finish before the page is served; the line then starts as completed.
    """
    expect(page.locator("#document-status")).to_have_attribute(
        "data-status", "completed", timeout=TIMEOUT_MS
    )
    page.reload()


def test_a_dpo_creates_answers_finalizes_and_downloads_a_dpia_as_pdf(
    page, admin_server, celery_worker_process, screenshots
):
    dpo = admin_user(make_caller(Role.DPO).membership)
    log_in(page, admin_server, dpo)

    page.goto(admin_server.url + reverse("admin:legal_documents_legaldocument_add"))
    page.screenshot(path=screenshots / "dpo-1-choose-type.png", full_page=True)
    page.click('a[data-type="DPIA"]')
    page.fill("textarea[name=companyName]", "Acme Logistics GmbH")
    page.fill("textarea[name=processingActivity]", "Video surveillance of the warehouse")
    page.fill("textarea[name=purposes]", "Theft prevention\nSafety of employees")
    page.check('input[name=legalBasis][value="legitimate-interests"]')
    page.select_option("select[name=systematicMonitoring]", "true")
    page.screenshot(path=screenshots / "dpo-2-dpia-form.png", full_page=True)
    page.click("input[name=_create]")

    expect(page.locator("#document-status")).to_be_visible()
    wait_until_completed(page)
    document = LegalDocument.objects.get(organization=dpo.membership.organization)
    assert document.inputs["purposes"] == ["Theft prevention", "Safety of employees"]

    # Two answers; the second opens a conditional question, which the page then shows.
    plan_row = page.locator('.question-row[data-question="minimisationPlan"]')
    expect(plan_row).to_be_hidden()
    page.select_option("select[name=dpoOpinion]", "Favourable with reservations")
    page.select_option("select[name=dataMinimisation]", "false")
    expect(plan_row).to_be_visible()
    page.fill("textarea[name=minimisationPlan]", "Drop the visitors' birth dates.")
    page.screenshot(path=screenshots / "dpo-3-questionnaire.png", full_page=True)
    page.click("input[name=_save]")
    expect(page.locator("ul.messagelist")).to_contain_text("3 answers saved")

    page.click("input[name=_finalize][value=Finalize]")
    expect(page.locator("ul.messagelist")).to_contain_text("final document is generated")
    wait_until_completed(page)
    expect(page.locator("#document-status .stage-value")).to_have_text("Final")
    expect(page.locator("#completeness")).to_contain_text("Art. 35(7)(a)")
    preview = page.frame_locator("iframe.preview")
    expect(preview.locator("body")).to_contain_text("Favourable with reservations")
    page.locator("iframe.preview").scroll_into_view_if_needed()
    page.screenshot(path=screenshots / "dpo-4-finalized.png", full_page=True)

    pdf_link = page.locator('a.export-link[data-format="pdf"]')
    pdf_link.scroll_into_view_if_needed()
    expect(pdf_link).to_be_visible()
    with page.expect_download() as download_info:
        pdf_link.click()
    download = download_info.value
    content = download.path().read_bytes()
    assert download.suggested_filename.endswith(".pdf")
    reader = PdfReader(io.BytesIO(content))
    text = " ".join(page_.extract_text() for page_ in reader.pages)
    assert "Data Protection Impact Assessment" in text
    assert "Favourable with reservations" in text
    document.refresh_from_db()
    assert (document.stage, document.version) == ("final", 2)
    exports = AuditEvent.objects.filter(action="document.export", object_id=str(document.pk))
    assert exports.get().details["format"] == "pdf"

    # The documents list with the finalized DPIA in it (the README's first picture).
    page.goto(admin_server.url + reverse("admin:legal_documents_legaldocument_changelist"))
    expect(page.locator("#result_list tbody tr")).to_have_count(1)
    page.screenshot(path=screenshots / "dpo-6-documents-list.png")


def test_an_auditor_reviews_the_history_diff_and_is_refused_a_crafted_post(
    page, admin_server, screenshots
):
    dpo = make_caller(Role.DPO)
    document = generated_document(dpo)
    assert edit(dpo, document, document.content_markdown + "\nCCTV signs at every gate.\n",
                "Signage added").status_code == 200  # fmt: skip
    auditor = admin_user(make_caller(Role.AUDITOR, organization=dpo.organization).membership)
    log_in(page, admin_server, auditor)

    history = reverse("admin:legal_documents_legaldocument_history", args=[document.pk])
    page.goto(admin_server.url + history)
    expect(page.locator("#content")).to_contain_text("Signage added")
    page.screenshot(path=screenshots / "auditor-1-history.png", full_page=True)
    page.locator("#change-history a", has_text=re.compile("v2|Signage|DPIA")).first.click()
    expect(page.locator("#content")).to_contain_text("CCTV signs at every gate.")
    page.screenshot(path=screenshots / "auditor-2-history-version.png", full_page=True)

    change = reverse("admin:legal_documents_legaldocument_change", args=[document.pk])
    page.goto(admin_server.url + change)
    expect(page.locator("#document-status")).to_be_visible()
    assert page.locator("input[name=_save], input[name=_continue]").count() == 0
    assert page.locator("a.deletelink, #flow-actions").count() == 0
    expect(page.frame_locator("iframe.preview").locator("body")).to_contain_text("CCTV signs")
    page.locator("iframe.preview").scroll_into_view_if_needed()
    page.screenshot(path=screenshots / "auditor-3-document-read-only.png", full_page=True)

    token = page.locator("input[name=csrfmiddlewaretoken]").first.input_value()
    crafted = {"csrfmiddlewaretoken": token, "status": "failed", "_save": "Save"}
    refused = page.request.post(admin_server.url + change, form=crafted)
    draft = reverse("admin:legal_documents_legaldocument_flow", args=[document.pk, "draft"])
    refused_step = page.request.post(admin_server.url + draft, form=crafted)
    assert (refused.status, refused_step.status) == (403, 403)
    document.refresh_from_db()
    assert (document.status, document.version) == ("completed", 2)
    denied = AuditEvent.objects.filter(outcome="denied", object_id=str(document.pk))
    assert set(denied.values_list("action", flat=True)) == {"document.update", "document.draft"}


def test_a_dpo_of_another_organization_cannot_open_the_document_by_url(
    page, admin_server, screenshots
):
    owner = make_caller(Role.DPO)
    document = generated_document(owner)
    outsider = admin_user(make_caller(Role.DPO).membership)
    log_in(page, admin_server, outsider)

    change = reverse("admin:legal_documents_legaldocument_change", args=[document.pk])
    page.goto(admin_server.url + change)
    expect(page).to_have_url(admin_server.url + reverse("admin:index"))
    expect(page.locator("ul.messagelist")).to_contain_text("Perhaps it was deleted")
    assert document.content_sha256 not in page.content()
    page.screenshot(path=screenshots / "outsider-1-redirected.png", full_page=True)

    history = reverse("admin:legal_documents_legaldocument_history", args=[document.pk])
    response = page.goto(admin_server.url + history)
    assert response is not None and response.status == 404
    listing = reverse("admin:legal_documents_legaldocument_changelist")
    page.goto(admin_server.url + listing)
    assert str(document.pk) not in page.content()
    page.screenshot(path=screenshots / "outsider-2-empty-list.png", full_page=True)


def test_the_status_line_follows_a_running_job_without_a_reload(page, admin_server, screenshots):
    dpo = make_caller(Role.DPO)
    document = generated_document(dpo)
    LegalDocument.objects.filter(pk=document.pk).update(status="processing")
    log_in(page, admin_server, admin_user(dpo.membership))
    change = reverse("admin:legal_documents_legaldocument_change", args=[document.pk])
    page.goto(admin_server.url + change)
    expect(page.locator("#document-status .status-value")).to_have_text("Processing")
    page.screenshot(path=screenshots / "dpo-5-processing.png")
    page.evaluate("window.loadedOnce = true")  # gone if the page reloads

    # What a worker's completion writes; the page learns it from its poll, not a reload.
    LegalDocument.objects.filter(pk=document.pk).update(status="completed", version=7)
    expect(page.locator("#document-status .status-value")).to_have_text("Completed")
    expect(page.locator("#document-status .version-value")).to_have_text("7")
    expect(page.locator("#status-reload .reload-link")).to_be_visible()
    assert page.evaluate("window.loadedOnce") is True


def test_the_admin_pages_run_under_the_content_security_policy(page, admin_server, screenshots):
    """Every list, a document's page (flow script, preview) and the API docs: no violation."""
    dpo_caller = make_caller(Role.DPO)
    document = generated_document(dpo_caller)
    dpo = admin_user(dpo_caller.membership)
    violations: list[str] = []
    page.on("console", lambda message: violations.append(message.text))
    log_in(page, admin_server, dpo)
    urls = [
        reverse("admin:index"),
        reverse("admin:legal_documents_legaldocument_change", args=[document.pk]),
        reverse("admin:legal_documents_legaldocument_add"),
        reverse("admin:legal_documents_asset_search"),
        reverse("admin:audit_auditevent_changelist"),
        reverse("admin:webhooks_webhookendpoint_changelist"),
        reverse("admin:organizations_clientcompany_add"),
        reverse("api-docs"),
    ]
    for url in urls:
        response = page.goto(admin_server.url + url)
        assert response is not None and response.ok, url
        assert "script-src 'self'" in response.headers["content-security-policy"], url
    page.goto(admin_server.url + urls[1])
    page.screenshot(path=screenshots / "csp-document-page.png", full_page=True)
    refused = [text for text in violations if "Content Security Policy" in text]
    assert refused == []


def test_the_language_switcher_turns_the_admin_german_at_once(page, admin_server, screenshots):
    dpo = admin_user(make_caller(Role.DPO).membership)
    log_in(page, admin_server, dpo)
    page.goto(admin_server.url + reverse("admin:index"))
    # The script submits on change; the button is only for pages without script.
    expect(page.locator(".language-switcher-submit")).to_be_hidden()
    page.select_option("#language-select", "de")
    expect(page.locator("html")).to_have_attribute("lang", "de", timeout=TIMEOUT_MS)
    expect(page.locator("#content")).to_contain_text("Rechtsdokumente")
    page.screenshot(path=screenshots / "admin-in-german.png", full_page=True)
    page.goto(admin_server.url + reverse("admin:legal_documents_legaldocument_add"))
    expect(page.locator("#content")).to_contain_text("Wählen Sie den Dokumenttyp")
