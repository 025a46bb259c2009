"""A realistic register of processing activities, as a DPO keeps it in a spreadsheet.

A mid-sized German company's "Verzeichnis von Verarbeitungstätigkeiten": the activities sheet
has the German headers of the DSK/Bitkom templates (a title block above the table, several
values per cell on separate lines, legal bases cited the German way), the processors sheet
English headers. Twelve activities (payroll, recruiting, CCTV, newsletter with consent, CRM,
support, web analytics, security logs, whistleblowing, occupational health data under
Art. 9, video conferencing, accounting) and six vendors, three of them in the United States:
one under Standard Contractual Clauses, one under Binding Corporate Rules, one with no
transfer mechanism on file.

`register_workbook()` writes the XLSX; tests change a row through the `activities` or
`vendors` arguments (copies of ACTIVITIES / VENDORS). `french_register_csv()` is a CNIL-style
register of three activities as a semicolon-separated cp1252 CSV, as French Excel saves it.
"""

from __future__ import annotations

import copy
import datetime
import io
from typing import Any

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font

ACTIVITY_HEADERS = (
    "Nr.", "Verarbeitungstätigkeit", "Zweck der Verarbeitung", "Rechtsgrundlage",
    "Betroffene Personen", "Kategorien personenbezogener Daten", "Besondere Kategorien",
    "Empfänger", "Drittland", "Garantien", "Löschfrist",
    "Technische und organisatorische Maßnahmen", "Verantwortliche Stelle", "Systeme",
    "Widerruf der Einwilligung",
)  # fmt: skip
VENDOR_HEADERS = (
    "Vendor ID", "Vendor", "Address", "Country", "Services", "DPA status", "DPA date",
    "Sub-processors", "Transfer mechanism",
)  # fmt: skip

TOMS_STANDARD = (
    "Rollen- und Berechtigungskonzept\nVerschlüsselte Übertragung (TLS 1.2+)\n"
    "Protokollierung der Zugriffe"
)

# One dict per activity, keyed by ACTIVITY_HEADERS.
ACTIVITIES: list[dict[str, Any]] = [
    {
        "Nr.": "VVT-01",
        "Verarbeitungstätigkeit": "Lohn- und Gehaltsabrechnung",
        "Zweck der Verarbeitung": "Durchführung der Lohn- und Gehaltsabrechnung\n"
        "Abführung von Lohnsteuer und Sozialversicherungsbeiträgen",
        "Rechtsgrundlage": "Art. 6 Abs. 1 lit. b DSGVO i.V.m. § 26 BDSG\n"
        "Art. 6 Abs. 1 lit. c DSGVO (§ 41 EStG, § 28a SGB IV)\n"
        "Art. 9 Abs. 2 lit. b DSGVO (Kirchensteuermerkmal)",
        "Betroffene Personen": "Beschäftigte\nAuszubildende",
        "Kategorien personenbezogener Daten": "Stammdaten (Name, Anschrift, Geburtsdatum)\n"
        "Bankverbindung\nSteuer-ID und Steuerklasse\nSozialversicherungsnummer\nGehaltsdaten",
        "Besondere Kategorien": "Religionszugehörigkeit (Kirchensteuer)",
        "Empfänger": "DATEV eG\nFinanzamt\nSozialversicherungsträger",
        "Drittland": "keine",
        "Löschfrist": "Lohnkonten: 6 Jahre nach Ablauf des Kalenderjahres (§ 41 EStG)\n"
        "Buchungsbelege: 8 Jahre (§ 147 AO)",
        "Technische und organisatorische Maßnahmen": TOMS_STANDARD,
        "Verantwortliche Stelle": "Personalabteilung",
        "Systeme": "DATEV Lohn und Gehalt",
    },
    {
        "Nr.": "VVT-02",
        "Verarbeitungstätigkeit": "Bewerbermanagement",
        "Zweck der Verarbeitung": "Durchführung von Bewerbungsverfahren\n"
        "Aufnahme in den Talentpool",
        "Rechtsgrundlage": "Art. 6 Abs. 1 lit. b DSGVO i.V.m. § 26 Abs. 1 BDSG\n"
        "Einwilligung (Art. 6 Abs. 1 lit. a DSGVO) für den Talentpool",
        "Betroffene Personen": "Bewerberinnen und Bewerber",
        "Kategorien personenbezogener Daten": "Kontaktdaten\nLebenslauf und Zeugnisse\n"
        "Gehaltsvorstellung",
        "Empfänger": "Personio SE & Co. KG (Bewerbermanagement-Software)\nFachabteilungen (intern)",
        "Drittland": "keine",
        "Löschfrist": "Bewerbungsunterlagen: 6 Monate nach Abschluss des Verfahrens"
        " (§ 15 Abs. 4 AGG)\nTalentpool: 2 Jahre nach Erteilung der Einwilligung",
        "Technische und organisatorische Maßnahmen": TOMS_STANDARD,
        "Verantwortliche Stelle": "Personalabteilung",
        "Systeme": "Personio",
        "Widerruf der Einwilligung": "E-Mail an jobs@muster-gmbh.de",
    },
    {
        "Nr.": "VVT-03",
        "Verarbeitungstätigkeit": "Videoüberwachung des Firmengeländes",
        "Zweck der Verarbeitung": "Schutz vor Diebstahl und Vandalismus\nAufklärung von Straftaten",
        "Rechtsgrundlage": "Art. 6 Abs. 1 lit. f DSGVO (berechtigtes Interesse am Schutz"
        " des Eigentums)",
        "Betroffene Personen": "Beschäftigte\nBesucher\nLieferanten",
        "Kategorien personenbezogener Daten": "Videoaufnahmen\nZeitstempel",
        "Empfänger": "Securitas Sicherheitsdienste GmbH\nStrafverfolgungsbehörden (im Anlassfall)",
        "Drittland": "keine",
        "Löschfrist": "72 Stunden, bei Vorfällen bis zum Abschluss der Ermittlungen",
        "Technische und organisatorische Maßnahmen": "Zugriff nur durch den"
        " Sicherheitsbeauftragten\nHinweisschilder an allen Zugängen\nVerschlüsselte Speicherung",
        "Verantwortliche Stelle": "Facility Management",
        "Systeme": "Videomanagementsystem (lokal)",
    },
    {
        "Nr.": "VVT-04",
        "Verarbeitungstätigkeit": "Newsletter-Versand",
        "Zweck der Verarbeitung": "Information über Produkte und Veranstaltungen per E-Mail",
        "Rechtsgrundlage": "Einwilligung (Art. 6 Abs. 1 lit. a DSGVO, § 7 Abs. 2 UWG)",
        "Betroffene Personen": "Newsletter-Abonnenten",
        "Kategorien personenbezogener Daten": "E-Mail-Adresse\nName\nÖffnungs- und Klickverhalten",
        "Empfänger": "Mailchimp (The Rocket Science Group LLC)",
        "Drittland": "USA (Mailchimp)",
        "Garantien": "Standardvertragsklauseln",
        "Löschfrist": "Bis zum Widerruf der Einwilligung",
        "Technische und organisatorische Maßnahmen": "Double-Opt-in\nTLS-Verschlüsselung",
        "Verantwortliche Stelle": "Marketing",
        "Systeme": "Mailchimp",
        "Widerruf der Einwilligung": "Abmeldelink in jedem Newsletter\n"
        "E-Mail an datenschutz@muster-gmbh.de",
    },
    {
        "Nr.": "VVT-05",
        "Verarbeitungstätigkeit": "Kundenbeziehungsmanagement (CRM)",
        "Zweck der Verarbeitung": "Verwaltung von Kundenbeziehungen\nVertriebssteuerung",
        "Rechtsgrundlage": "Art. 6 Abs. 1 lit. b DSGVO\n"
        "Art. 6 Abs. 1 lit. f DSGVO (Direktwerbung an Bestandskunden)",
        "Betroffene Personen": "Kunden\nAnsprechpartner bei Geschäftskunden\nInteressenten",
        "Kategorien personenbezogener Daten": "Kontaktdaten\nVertragsdaten\nKommunikationshistorie",
        "Empfänger": "Vertrieb (intern)\nMuster Holding AG (Konzernmutter)",
        "Drittland": "Schweiz (Muster Holding AG)",
        "Garantien": "Angemessenheitsbeschluss (Schweiz)",
        "Löschfrist": "3 Jahre nach Ende der Geschäftsbeziehung",
        "Technische und organisatorische Maßnahmen": TOMS_STANDARD,
        "Verantwortliche Stelle": "Vertrieb",
        "Systeme": "CRM-System (eigenes Rechenzentrum)",
    },
    {
        "Nr.": "VVT-06",
        "Verarbeitungstätigkeit": "Kundensupport und Ticketsystem",
        "Zweck der Verarbeitung": "Bearbeitung von Kundenanfragen und Reklamationen",
        "Rechtsgrundlage": "Art. 6 Abs. 1 lit. b DSGVO",
        "Betroffene Personen": "Kunden\nInteressenten",
        "Kategorien personenbezogener Daten": "Kontaktdaten\nInhalt der Anfrage\nBestellnummer",
        "Empfänger": "Zendesk, Inc.",
        "Drittland": "USA (Zendesk)",
        "Löschfrist": "Tickets: 2 Jahre nach Abschluss",
        "Technische und organisatorische Maßnahmen": TOMS_STANDARD,
        "Verantwortliche Stelle": "Kundenservice",
        "Systeme": "Zendesk",
    },
    {
        "Nr.": "VVT-07",
        "Verarbeitungstätigkeit": "Webanalyse",
        "Zweck der Verarbeitung": "Statistische Auswertung der Nutzung der Website",
        "Rechtsgrundlage": "Einwilligung (Art. 6 Abs. 1 lit. a DSGVO, § 25 Abs. 1 TDDDG)",
        "Betroffene Personen": "Websitebesucher",
        "Kategorien personenbezogener Daten": "Gekürzte IP-Adresse\nSeitenaufrufe\n"
        "Geräte- und Browserinformationen",
        "Empfänger": "IT-Abteilung (intern)",
        "Drittland": "keine",
        "Löschfrist": "13 Monate",
        "Technische und organisatorische Maßnahmen": "IP-Anonymisierung\n"
        "Selbst gehostete Matomo-Instanz",
        "Verantwortliche Stelle": "Marketing",
        "Systeme": "Matomo (selbst gehostet)",
        "Widerruf der Einwilligung": "Cookie-Einstellungen im Fußbereich der Website",
    },
    {
        "Nr.": "VVT-08",
        "Verarbeitungstätigkeit": "Protokollierung zur IT-Sicherheit",
        "Zweck der Verarbeitung": "Erkennung und Abwehr von Angriffen\n"
        "Nachvollziehbarkeit von Systemzugriffen",
        "Rechtsgrundlage": "Art. 6 Abs. 1 lit. f DSGVO (Gewährleistung der IT-Sicherheit)\n"
        "Art. 32 DSGVO",
        "Betroffene Personen": "Beschäftigte\nWebsitebesucher",
        "Kategorien personenbezogener Daten": "IP-Adressen\nBenutzerkennungen\nZeitstempel\n"
        "Systemereignisse",
        "Empfänger": "IT-Abteilung (intern)",
        "Drittland": "keine",
        "Löschfrist": "90 Tage",
        "Technische und organisatorische Maßnahmen": "Manipulationsgeschützte Speicherung\n"
        "Vier-Augen-Prinzip bei Auswertungen",
        "Verantwortliche Stelle": "IT-Sicherheit",
        "Systeme": "SIEM",
    },
    {
        "Nr.": "VVT-09",
        "Verarbeitungstätigkeit": "Hinweisgebersystem",
        "Zweck der Verarbeitung": "Entgegennahme und Bearbeitung von Hinweisen auf Verstöße",
        "Rechtsgrundlage": "Art. 6 Abs. 1 lit. c DSGVO i.V.m. § 10 HinSchG\n"
        "Art. 9 Abs. 2 lit. g DSGVO i.V.m. § 10 HinSchG",
        "Betroffene Personen": "Hinweisgebende Personen\nBeschuldigte Personen\nZeugen",
        "Kategorien personenbezogener Daten": "Identität der hinweisgebenden Person\n"
        "Inhalt der Meldung",
        "Besondere Kategorien": "Gegebenenfalls Gesundheitsdaten oder Gewerkschaftszugehörigkeit",
        "Empfänger": "Interne Meldestelle\nStrafverfolgungsbehörden (im Anlassfall)",
        "Drittland": "keine",
        "Löschfrist": "3 Jahre nach Abschluss des Verfahrens (§ 11 Abs. 5 HinSchG)",
        "Technische und organisatorische Maßnahmen": "Vertraulichkeit der Identität\n"
        "Zugriff nur durch die Meldestelle",
        "Verantwortliche Stelle": "Compliance",
    },
    {
        "Nr.": "VVT-10",
        "Verarbeitungstätigkeit": "Betriebliches Gesundheitsmanagement und Arbeitsmedizin",
        "Zweck der Verarbeitung": "Arbeitsmedizinische Vorsorge\n"
        "Betriebliches Eingliederungsmanagement",
        "Rechtsgrundlage": "Art. 6 Abs. 1 lit. c DSGVO\n"
        "Art. 9 Abs. 2 lit. h DSGVO i.V.m. § 22 Abs. 1 Nr. 1 lit. b BDSG",
        "Betroffene Personen": "Beschäftigte",
        "Kategorien personenbezogener Daten": "Stammdaten\nArbeitsunfähigkeitszeiten",
        "Besondere Kategorien": "Gesundheitsdaten (Ergebnisse der arbeitsmedizinischen Vorsorge)",
        "Empfänger": "Betriebsarzt (externer arbeitsmedizinischer Dienst)\nKrankenkassen",
        "Drittland": "keine",
        "Löschfrist": "Vorsorgekartei: bis zum 75. Lebensjahr, mindestens 40 Jahre nach"
        " Ende der Exposition",
        "Technische und organisatorische Maßnahmen": "Getrennte Aufbewahrung der Gesundheitsakte\n"
        "Zugriff nur durch Betriebsarzt",
        "Verantwortliche Stelle": "Personalabteilung",
    },
    {
        "Nr.": "VVT-11",
        "Verarbeitungstätigkeit": "Videokonferenzen",
        "Zweck der Verarbeitung": "Interne und externe Besprechungen per Video",
        "Rechtsgrundlage": "Art. 6 Abs. 1 lit. b DSGVO\nArt. 6 Abs. 1 lit. f DSGVO",
        "Betroffene Personen": "Beschäftigte\nKunden\nGeschäftspartner",
        "Kategorien personenbezogener Daten": "Name\nBild- und Tondaten\nMetadaten der Verbindung",
        "Empfänger": "Zoom Video Communications, Inc.",
        "Drittland": "USA (Zoom)",
        "Löschfrist": "Aufzeichnungen: 30 Tage",
        "Technische und organisatorische Maßnahmen": "Warteraum\nEnde-zu-Ende-Verschlüsselung",
        "Verantwortliche Stelle": "IT-Abteilung",
        "Systeme": "Zoom",
    },
    {
        "Nr.": "VVT-12",
        "Verarbeitungstätigkeit": "Finanzbuchhaltung",
        "Zweck der Verarbeitung": "Ordnungsgemäße Buchführung\nErfüllung steuerlicher Pflichten",
        "Rechtsgrundlage": "Art. 6 Abs. 1 lit. c DSGVO (§§ 238, 257 HGB, § 147 AO)",
        "Betroffene Personen": "Kunden\nLieferanten\nBeschäftigte (Reisekosten)",
        "Kategorien personenbezogener Daten": "Rechnungsdaten\nBankverbindung\nZahlungsdaten",
        "Empfänger": "DATEV eG\nSteuerberater\nWirtschaftsprüfer\nFinanzamt",
        "Drittland": "keine",
        "Löschfrist": "Buchungsbelege: 8 Jahre (§ 147 AO)\n"
        "Handelsbücher und Jahresabschlüsse: 10 Jahre (§ 257 HGB)",
        "Technische und organisatorische Maßnahmen": TOMS_STANDARD,
        "Verantwortliche Stelle": "Buchhaltung",
        "Systeme": "DATEV Rechnungswesen",
    },
]

# One dict per vendor, keyed by VENDOR_HEADERS.
VENDORS: list[dict[str, Any]] = [
    {
        "Vendor ID": "AV-01",
        "Vendor": "DATEV eG",
        "Address": "Paumgartnerstraße 6-14, 90429 Nürnberg",
        "Country": "Germany",
        "Services": "Payroll accounting\nFinancial accounting (data centre)",
        "DPA status": "signed",
        "DPA date": datetime.date(2022, 3, 1),
    },
    {
        "Vendor ID": "AV-02",
        "Vendor": "Personio SE & Co. KG",
        "Address": "Seidlstraße 3, 80335 München",
        "Country": "Germany",
        "Services": "HR software\nApplicant tracking",
        "DPA status": "signed",
        "DPA date": datetime.date(2023, 1, 15),
        "Sub-processors": "Amazon Web Services EMEA SARL (Luxembourg)",
    },
    {
        "Vendor ID": "AV-03",
        "Vendor": "Mailchimp (The Rocket Science Group LLC)",
        "Address": "675 Ponce de Leon Ave NE, Suite 5000, Atlanta, GA 30308",
        "Country": "United States",
        "Services": "Newsletter dispatch",
        "DPA status": "signed",
        "DPA date": datetime.date(2023, 6, 1),
        "Sub-processors": "Google LLC (United States)\nAmazon Web Services, Inc. (United States)",
        "Transfer mechanism": "Standard Contractual Clauses (Module 2, Decision 2021/914)",
    },
    {
        "Vendor ID": "AV-04",
        "Vendor": "Zendesk, Inc.",
        "Address": "989 Market Street, San Francisco, CA 94103",
        "Country": "United States",
        "Services": "Customer support ticketing",
        "DPA status": "signed",
        "DPA date": datetime.date(2021, 11, 10),
        "Transfer mechanism": "Binding Corporate Rules (processor BCR)",
    },
    {
        "Vendor ID": "AV-05",
        "Vendor": "Zoom Video Communications, Inc.",
        "Address": "55 Almaden Blvd, 6th Floor, San Jose, CA 95113",
        "Country": "United States",
        "Services": "Video conferencing",
        "DPA status": "signed",
        "DPA date": datetime.date(2022, 9, 1),
    },
    {
        "Vendor ID": "AV-06",
        "Vendor": "Securitas Sicherheitsdienste GmbH",
        "Address": "Potsdamer Platz 1, 10785 Berlin",
        "Country": "Germany",
        "Services": "Maintenance of the CCTV system\nSecurity staff",
        "DPA status": "requested",
    },
]


def register_workbook(
    *,
    activities: list[dict[str, Any]] | None = None,
    vendors: list[dict[str, Any]] | None = None,
    vendor_headers: tuple[str, ...] = VENDOR_HEADERS,
) -> bytes:
    """The register as XLSX bytes: sheet "Verarbeitungstätigkeiten" and sheet "Processors"."""
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "Verarbeitungstätigkeiten"
    # A title block above the table, as in the DSK template.
    sheet.append(["Verzeichnis von Verarbeitungstätigkeiten nach Art. 30 Abs. 1 DSGVO"])
    sheet["A1"].font = Font(bold=True, size=14)
    sheet.append(["Verantwortlicher: Muster GmbH, Musterstraße 1, 10115 Berlin"])
    sheet.append(["Stand:", datetime.date(2026, 10, 1)])
    sheet.append([])
    _table(sheet, ACTIVITY_HEADERS, ACTIVITIES if activities is None else activities)
    vendor_sheet = workbook.create_sheet("Processors")
    _table(vendor_sheet, vendor_headers, VENDORS if vendors is None else vendors)
    notes = workbook.create_sheet("Hinweise")
    notes.append(["Hinweise zum Ausfüllen"])
    notes.append(["Je Zeile eine Verarbeitungstätigkeit; mehrere Angaben je Zelle untereinander."])
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _table(sheet: Any, headers: tuple[str, ...], rows: list[dict[str, Any]]) -> None:
    sheet.append(list(headers))
    for cell in sheet[sheet.max_row]:
        cell.font = Font(bold=True)
    for row in rows:
        sheet.append([row.get(header, "") for header in headers])
        for cell in sheet[sheet.max_row]:
            cell.alignment = Alignment(wrap_text=True, vertical="top")


def activities_copy() -> list[dict[str, Any]]:
    return copy.deepcopy(ACTIVITIES)


def vendors_copy() -> list[dict[str, Any]]:
    return copy.deepcopy(VENDORS)


FRENCH_CSV_ROWS = [
    [
        "Référence", "Nom du traitement", "Finalité(s) du traitement", "Base légale",
        "Catégories de personnes concernées", "Catégories de données", "Destinataires",
        "Transferts hors UE", "Durée de conservation", "Mesures de sécurité", "Responsable",
    ],
    [
        "T-01", "Gestion de la paie", "Calcul et versement des salaires",
        "Obligation légale (article 6.1.c du RGPD)", "Salariés", "État civil\nCoordonnées"
        " bancaires\nRémunération", "Service RH\nExpert-comptable", "Aucun",
        "5 ans après le départ du salarié", "Habilitations\nChiffrement", "Direction RH",
    ],
    [
        "T-02", "Lettre d'information", "Envoi de la lettre d'information",
        "Consentement", "Abonnés", "Adresse électronique", "Service marketing", "Aucun",
        "Jusqu'au retrait du consentement", "Double opt-in", "Direction marketing",
    ],
    [
        "T-03", "Vidéosurveillance", "Sécurité des biens et des personnes",
        "Intérêt légitime (prévention des vols)", "Salariés; Visiteurs",
        "Images", "Service sécurité", "Aucun", "30 jours", "Accès restreint", "Services"
        " généraux",
    ],
]  # fmt: skip


def french_register_csv() -> bytes:
    """A CNIL-style register: French headers, ";" separated, cp1252 (French Excel's CSV)."""
    lines = []
    for row in FRENCH_CSV_ROWS:
        cells = ['"' + value.replace('"', '""') + '"' for value in row]
        lines.append(";".join(cells))
    return ("\r\n".join(lines) + "\r\n").encode("cp1252")
