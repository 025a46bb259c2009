"""The admin and its DPO console in the user's language; the API stays English.

The language comes from the switcher's cookie (`set_language`) or the browser's
Accept-Language. Django's own texts come from Django's catalogs, ours from `locale/`.
"""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from tests.admin.support import add_url, change_url
from tests.compliance.register_seed import clean_register
from tests.factories import LegalDocumentFactory
from tests.register.factories import ProcessingActivityFactory
from tests.support.register_workbook import register_workbook

pytestmark = pytest.mark.django_db

CHANGELIST = "admin:legal_documents_legaldocument_changelist"
ACTIVITIES = "admin:register_processingactivity_changelist"
VENDORS = "admin:register_vendor_changelist"
IMPORT = "register_processingactivity_import"
REPORT = "admin:compliance_register_report"
START = "admin:compliance_start"
# Frequent English words of our own texts; none is a German word. A German page showing one
# outside user data has a text nobody marked for translation (or a translation missing).
ENGLISH_WORDS = frozenset({
    "the", "and", "of", "to", "is", "are", "your", "with", "for", "this", "that", "not", "yet",
    "no", "none", "when", "what", "which", "has", "have", "be", "on", "at", "by", "from",
    "once", "its", "it",
})  # fmt: skip


def german(client):  # type: ignore[no-untyped-def]
    """The client with German chosen, as the language switcher leaves it."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    return client


def visible_words(html: str, *, leave_out: tuple[str, ...] = ()) -> set[str]:
    """Lower-case words a reader sees: no scripts, styles, attributes, code or user content."""
    for pattern in (
        r"<script.*?</script>", r"<style.*?</style>", r"<pre.*?</pre>", r"<code.*?</code>",
        r"<iframe.*?</iframe>", r"<textarea.*?</textarea>", r"<option.*?</option>",
        *leave_out,
    ):  # fmt: skip
        html = re.sub(pattern, " ", html, flags=re.DOTALL)
    text = unescape(re.sub(r"<[^>]+>", " ", html))
    return {word.lower() for word in re.findall(r"[A-Za-z]+", text)}


def test_the_document_list_in_german_has_django_and_our_german_texts(dpo_staff, document):
    html = german(dpo_staff.client).get(reverse(CHANGELIST)).content.decode()
    assert '<html lang="de"' in html
    # Django's own catalog.
    assert "Aktion:" in html and "Ausführen" in html
    # Ours: the model's name, a column, a filter choice, the object tool.
    assert "Rechtsdokumente" in html
    assert "Dokumenttyp" in html
    assert "Quelldateien durchsuchen" in html
    assert "In Bearbeitung" in html or "Abgeschlossen" in html


def test_the_document_change_page_in_german(dpo_staff, document):
    html = german(dpo_staff.client).get(change_url(document)).content.decode()
    assert "Geschichte" in html  # Django's "History"
    for text in (
        "Nächste Schritte", "Entwurf neu erzeugen", "Zusätzliche Informationen", "Fertigstellen",
        "Überarbeiten", "Vollständigkeit (", "Artikel der DSGVO", "Fragebogen (",
        "Antworten speichern", "Prüfereignisse", "Abgeschlossen", "Dokumenttyp", "Hash-Kette",
    ):  # fmt: skip
        assert text in html, text
    # The page script's texts come from the JavaScript catalog, in German too.
    catalog = german(dpo_staff.client).get(reverse("javascript-catalog")).content.decode()
    assert "Fertig: Version %(version)s ist %(status)s." in catalog


def test_the_dpo_console_pages_in_german(dpo_staff, document):
    client = german(dpo_staff.client)
    choose = client.get(add_url()).content.decode()
    assert "Rechtsdokument hinzufügen: Typ wählen" in choose
    assert "Wählen Sie den Dokumenttyp" in choose
    form = client.get(add_url("DPIA")).content.decode()
    assert "Anlegen und erzeugen" in form and "Kundenunternehmen" in form
    search = client.get(reverse("admin:legal_documents_asset_search")).content.decode()
    assert "Ihre Quelldateien durchsuchen" in search and "Quelldatei hochladen" in search
    chain = client.get(reverse("admin:audit_auditevent_chain")).content.decode()
    assert "Prüfung der Hash-Kette" in chain and "gültig" in chain


def seeded_register(organization):  # type: ignore[no-untyped-def]
    """A register with a finding of every severity's kind, a review due and a stale document."""
    register = clean_register(organization)
    register["dpia"].delete()  # the CCTV activity lacks its DPIA (high)
    ProcessingActivityFactory(
        organization=organization, name="Visitor log",
        next_review_date=timezone.now().date() + timedelta(days=12),
    )  # fmt: skip
    LegalDocumentFactory(
        organization=organization, document_type="PRIVACY_POLICY",
        stale_since=timezone.now() - timedelta(days=2),
    )  # fmt: skip
    return register


def test_the_register_pages_in_german(dpo_staff):
    register = seeded_register(dpo_staff.organization)
    client = german(dpo_staff.client)
    activities = client.get(reverse(ACTIVITIES)).content.decode()
    for text in (
        "Verzeichnis von Verarbeitungstätigkeiten", "Verarbeitungstätigkeiten",
        "Verzeichnis importieren (XLSX/CSV)", "Rechtsgrundlagen", "DSFA erforderlich",
        "nächste Überprüfung am", "Verantwortlicher",
    ):  # fmt: skip
        assert text in activities, text
    vendors = client.get(reverse(VENDORS)).content.decode()
    for text in ("Außerhalb des EWR", "Stand des AV-Vertrags", "Auftragsverarbeiter (Art. 28)"):
        assert text in vendors, text
    payroll = register["activities"][0]
    change = client.get(reverse("admin:register_processingactivity_change", args=[payroll.pk]))
    html = change.content.decode()
    for text in (
        "Zwecke und Rechtsgrundlagen", "Kategorien betroffener Personen",
        "Übermittlungen in Drittländer (außerhalb des EWR)", "Widerruf der Einwilligung",
    ):  # fmt: skip
        assert text in html, text


def test_the_register_import_in_german(dpo_staff, register_imports_here):
    client = german(dpo_staff.client)
    upload = client.get(reverse(IMPORT)).content.decode()
    for text in (
        "Verzeichnis von Verarbeitungstätigkeiten importieren", "Verzeichnis (XLSX oder CSV)",
        "Vorschau des Imports", "dieselbe Datei zweimal zu importieren ändert nichts",
    ):  # fmt: skip
        assert text in upload, text
    workbook = SimpleUploadedFile("register.xlsx", register_workbook())
    # The upload starts a dry-run import (run here at once) and redirects to its preview.
    preview = client.post(reverse(IMPORT), {"file": workbook}, follow=True).content.decode()
    for text in (
        "(noch wird nichts gespeichert): 18 anzulegen", "Tabellenblatt", "Gelesen als",
        "Was der Import tun wird", "Geänderte Felder", "Import übernehmen",
        '<td class="plan-action">angelegt</td>',
    ):  # fmt: skip
        assert text in preview, text


def test_the_consistency_report_and_the_dpo_start_page_in_german(dpo_staff):
    seeded_register(dpo_staff.organization)
    client = german(dpo_staff.client)
    report = client.get(reverse(REPORT)).content.decode()
    for text in (
        "Konsistenzbericht zum Verzeichnis", "Schweregrad:", "Empfohlene Maßnahme",
        "Feststellung", '<span class="severity severity-high">hoch</span>',
        "Verarbeitungstätigkeit: <a",
    ):  # fmt: skip
        assert text in report, text
    start = client.get(reverse(START)).content.decode()
    for text in (
        "Startseite des Datenschutzbeauftragten", "Dokumente nach Status (",
        "Bericht zum Verzeichnis (", "Offene Datenpannen (Art. 33 Abs. 1: 72 Stunden)",
        "Fällige Überprüfungen in den nächsten 30 Tagen", "Veraltete Dokumente",
        "veraltet seit", "Abgeschlossen", "Der ganze Bericht",
    ):  # fmt: skip
        assert text in start, text
    index = client.get(reverse("admin:index")).content.decode()
    assert "Datenschutz" in index and "Konsistenzbericht zum Verzeichnis" in index


PAGES = [
    "changelist", "change", "choose_type", "asset_search", "chain", "index", "audit_list",
    "activities", "vendors", "activity", "vendor", "import", "report", "start",
]  # fmt: skip


@pytest.mark.parametrize("page", PAGES)
def test_german_pages_show_no_english_sentence_of_ours(dpo_staff, document, page):
    register = seeded_register(dpo_staff.organization)
    payroll, cloud = register["activities"][0], register["vendors"][1]
    urls = {
        "changelist": reverse(CHANGELIST),
        "change": change_url(document),
        "choose_type": add_url(),
        "asset_search": reverse("admin:legal_documents_asset_search"),
        "chain": reverse("admin:audit_auditevent_chain"),
        "index": reverse("admin:index"),
        "audit_list": reverse("admin:audit_auditevent_changelist"),
        "activities": reverse(ACTIVITIES),
        "vendors": reverse(VENDORS),
        "activity": reverse("admin:register_processingactivity_change", args=[payroll.pk]),
        "vendor": reverse("admin:register_vendor_change", args=[cloud.pk]),
        "import": reverse(IMPORT),
        "report": reverse(REPORT),
        "start": reverse(START),
    }
    response = german(dpo_staff.client).get(urls[page])
    assert response.status_code == 200
    # User data and the rules engine's texts (written in the document's language, not the
    # user's) are left out: the questionnaire, the checklist's requirements, the type list.
    english = (
        visible_words(
            response.content.decode(),
            leave_out=(
                r'<div class="panel module" id="questionnaire">.*?</form>',
                r'<tr class="completeness-item".*?</tr>',
                # A DPIA's risk map is drawn in the document's language, like its text.
                r'<figure class="risk-map">.*?</figure>',
                r'<table id="document-types">.*?</table>',
                r'<div class="readonly">.*?</div>',
                r"<title>.*?</title>",
                r'<div class="breadcrumbs">.*?</div>',
                r"<h1>.*?</h1>\s*<h2>.*?</h2>",  # the subtitle: the document's name (user data)
                r"<h1>.*?</h1>",
                r'<td class="field-.*?</td>',
                r'<th class="field-.*?</th>',
                r'<div id="changelist-filter">.*?</nav>',
                r'<ul class="messagelist">.*?</ul>',
                # The report's findings and actions are the API's (English) text.
                r'<td class="report-finding">.*?</td>',
                r'<td class="report-action">.*?</td>',
                r'<ul class="report-objects">.*?</ul>',
            ),
        )
        & ENGLISH_WORDS
    )
    assert not english, f"English on the German {page} page: {sorted(english)}"


def test_the_switcher_is_in_the_header_and_changes_the_language(dpo_staff):
    client = dpo_staff.client
    index = client.get(reverse("admin:index")).content.decode()
    assert 'id="language-switcher"' in index
    for code in ("en", "de", "fr", "es", "it"):
        assert f'<option value="{code}"' in index
    response = client.post(reverse("set_language"), {"language": "fr", "next": "/admin/"})
    assert response.status_code == 302 and response["Location"] == "/admin/"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"
    french = client.get(reverse(CHANGELIST)).content.decode()
    assert '<html lang="fr"' in french
    assert "documents juridiques" in french.lower()
    assert '<option value="fr" lang="fr" selected>' in french
    client.post(reverse("set_language"), {"language": "it", "next": "/admin/"})
    assert "Documenti giuridici" in client.get(reverse("admin:index")).content.decode()


def test_the_browser_language_is_used_until_one_is_chosen(dpo_staff):
    html = dpo_staff.client.get(reverse(CHANGELIST), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert '<html lang="es"' in html and "Buscar en las fuentes" in html
    html = dpo_staff.client.get(reverse(CHANGELIST)).content.decode()
    assert '<html lang="en"' in html and "Search assets" in html


def test_the_login_page_is_translated_and_offers_the_switcher(client):
    html = client.get(reverse("admin:login"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Anmelden" in html  # Django's "Log in"
    assert 'id="language-switcher"' in html


def test_the_api_answers_in_english_whatever_the_browser_asks(dpo):
    response = dpo.client.post(
        "/api/v1/legal-documents",
        {"documentType": "DPIA", "companyName": "Acme", "approximateSubjects": "x"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["error"]["message"] == "The request is not valid."
    assert "A valid integer is required." in str(body["error"]["details"])  # DRF, in English
    assert "Content-Language" not in response
