"""The admin and its DPO console in the user's language; the API stays English.

The language comes from the switcher's cookie (`set_language`) or the browser's
Accept-Language. Django's own texts come from Django's catalogs, ours from `locale/`.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.conf import settings
from django.urls import reverse

from tests.admin.support import add_url, change_url

pytestmark = pytest.mark.django_db

CHANGELIST = "admin:legal_documents_legaldocument_changelist"
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


@pytest.mark.parametrize(
    "page",
    ["changelist", "change", "choose_type", "asset_search", "chain", "index", "audit_list"],
)
def test_german_pages_show_no_english_sentence_of_ours(dpo_staff, document, page):
    urls = {
        "changelist": reverse(CHANGELIST),
        "change": change_url(document),
        "choose_type": add_url(),
        "asset_search": reverse("admin:legal_documents_asset_search"),
        "chain": reverse("admin:audit_auditevent_chain"),
        "index": reverse("admin:index"),
        "audit_list": reverse("admin:audit_auditevent_changelist"),
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
                r'<table id="document-types">.*?</table>',
                r'<div class="readonly">.*?</div>',
                r"<title>.*?</title>",
                r'<div class="breadcrumbs">.*?</div>',
                r"<h1>.*?</h1>",
                r'<td class="field-.*?</td>',
                r'<th class="field-.*?</th>',
                r'<div id="changelist-filter">.*?</nav>',
                r'<ul class="messagelist">.*?</ul>',
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
