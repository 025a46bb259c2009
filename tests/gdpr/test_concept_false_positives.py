"""Real wordings a DPO types, and the exact concepts each names: traps across languages.

Recognition looks for the terms of EVERY language in any text, so a short stem of one
language can hit a common word of another (the Italian "età" in the French "établissement",
the German "Alter" in "alternative", the Italian "banca" in "banca dati"). For data
categories the stakes are legal: a false Art. 9/10 hit invents a special category, a false
ordinary hit hides an unclassified one (the engine then states the category is not special
instead of asking). An empty set is the right answer for a wording no concept names: the
engine asks. Rows marked "trap" failed before the vocabulary review.
"""

from __future__ import annotations

import pytest

from gdpr.composition.recognition import (
    recognise_legal_basis,
    recognise_role,
    recognise_safeguard,
)
from gdpr.concepts import recognise

# Codes are written space-separated; "" is no concept at all (unclassified: the engine asks).
DATA_CATEGORIES: dict[str, list[tuple[str, str]]] = {
    "en": [
        ("Full name", "identification"),
        ("Email address", "contact"),
        ("Postal address and phone number", "contact"),
        ("Date of birth", "identification"),
        ("Age group", "demographic"),
        ("Browser user agent", "online-identifiers"),  # trap: "age"
        ("Recruitment agency contact person", "contact"),  # trap: "age"
        ("Alternative contact person", "contact"),  # trap: de "~alter"
        ("IP address", "online-identifiers"),  # trap: "address"
        ("Health records", "health"),
        ("Sick leave certificates", "health"),
        ("Disability status", "health"),
        ("Diagnostic data (crash reports)", ""),  # trap: "diagnos"
        ("Sexual orientation", "sexual-orientation"),  # trap: "sex"
        ("Gender", "demographic"),
        ("Trade union membership", "trade-union-membership"),
        ("Content syndication statistics", ""),  # trap: fr "syndica"
        ("Religious denomination", "religious-or-philosophical-beliefs"),
        ("Criminal records check", "criminal-convictions-and-offences"),
        ("Offensive messages reported by users", "communications"),  # trap: "offense"
        ("CV and cover letter", "education-and-skills"),
        ("CVV", "payment-card"),  # trap: "cv"
        ("Mobile application usage data", "online-identifiers"),  # trap: "application"
        ("Job application documents", "education-and-skills"),
        ("Criminal records of applicants", "criminal-convictions-and-offences"),
        ("Bank account details", "financial"),
        ("Job title and position held", "employment"),  # trap: "position"
        ("GPS position of vehicles", "location"),
        ("Ordinary personal data", ""),  # trap: it "ordin"
        ("Order history", "transactions"),
        ("Photos of employees", "images-and-recordings"),
        ("Reddit username", "identification"),  # trap: it "reddit"
        ("Family name", "identification"),  # trap: "family"
        ("Passport number", "identity-documents"),
        ("Fingerprints", "biometric"),
        ("Political party membership", "political-opinions"),
        ("Ethnic origin", "racial-or-ethnic-origin"),
    ],
    "de": [
        ("Vor- und Nachname", "identification"),
        ("E-Mail-Adresse", "contact"),
        ("Geburtsdatum", "identification"),
        ("Alter", "demographic"),
        ("Name des Fahrzeughalters", "identification"),  # trap: "~alter"
        ("Kontaktdaten des Hausverwalters", "contact"),  # trap: "~alter"
        ("Gesundheitsdaten", "health"),
        ("Krankmeldungen", "health"),
        ("Religionszugehörigkeit (Kirchensteuer)", "religious-or-philosophical-beliefs"),
        ("Gewerkschaftszugehörigkeit", "trade-union-membership"),
        ("Führungszeugnis", "criminal-convictions-and-offences"),  # trap: "~zeugnis"
        ("Kundendatenbank", ""),  # trap: "~bank"
        ("Benutzerkonto", ""),  # trap: "~konto"
        ("Bankverbindung (IBAN)", "financial"),
        ("Gehaltsabrechnung", "financial"),
        ("Aus- und Weiterbildung", "education-and-skills"),  # trap: "~bild"
        ("Lichtbild", "images-and-recordings"),
        ("Videoaufzeichnungen", "images-and-recordings"),
        ("Kontoauszüge", "financial"),
        ("Kontobewegungen", "financial"),  # trap: "~bewegung"
        ("IP-Adresse", "online-identifiers"),  # trap: "~adress"
        ("Standortdaten", "location"),
        ("Staatsangehörigkeit", "demographic"),
        ("Familienname", "identification"),  # trap: "~familie"
        ("Ethnische Herkunft", "racial-or-ethnic-origin"),
        ("Sexuelle Orientierung", "sexual-orientation"),
        ("Fingerabdrücke", "biometric"),
        ("Strafrechtliche Verurteilungen", "criminal-convictions-and-offences"),
        ("Karnevalsfotos", "images-and-recordings"),  # trap: pl "karn"
        ("Kontaktdaten des Datenschutzbeauftragten", "contact"),  # trap: "~auftrag"
        ("Bestellhistorie", "transactions"),
        ("Sozialversicherungsnummer", "national-identifier"),
    ],
    "fr": [
        ("Nom et prénom", "identification"),
        ("Adresse électronique", "contact"),
        ("Numéro de téléphone", "contact"),
        ("Date de naissance", "identification"),
        ("Âge", "demographic"),
        ("Données de santé", "health"),
        ("Arrêts maladie", "health"),
        ("Origine raciale ou ethnique", "racial-or-ethnic-origin"),
        ("Appartenance syndicale", "trade-union-membership"),
        ("Données du syndicat de copropriété", ""),  # trap: "syndica"
        ("Données à caractère personnel des salariés", ""),  # trap: en "personnel"
        ("Données nominatives", "identification"),  # trap: es "nomina"
        ("Coordonnées bancaires (RIB)", "financial"),
        ("Coordonnées GPS", "location"),  # trap: "coordonnees"
        ("Mouvements bancaires", "financial"),  # trap: "mouvement"
        ("Établissement d'affectation", ""),  # trap: it "eta"
        ("Numéro de sécurité sociale (NIR)", "national-identifier"),
        ("Casier judiciaire", "criminal-convictions-and-offences"),
        ("Photographies", "images-and-recordings"),
        ("Enregistrements des appels", "images-and-recordings"),
        ("Données d'enregistrement du compte", ""),  # trap: "enregistrement"
        ("Données de connexion", "online-identifiers"),  # gap
        ("Adresse IP", "online-identifiers"),  # trap: "adresse"
        ("Historique des commandes", "transactions"),
        ("Inventaire des ordinateurs", ""),  # trap: it "ordin"
        ("Dénomination sociale", ""),  # trap: en "denomination"
        ("Situation familiale", "demographic"),
        ("Nationalité", "demographic"),
        ("Empreintes digitales", "biometric"),
        ("Opinions politiques", "political-opinions"),
        ("Convictions religieuses", "religious-or-philosophical-beliefs"),
        ("Agents de la collectivité", ""),  # trap: "age"
        ("Curriculum vitae et diplômes", "education-and-skills"),
    ],
    "es": [
        ("Nombre y apellidos", "identification"),
        ("Correo electrónico", "contact"),
        ("Teléfono", "contact"),
        ("Dirección postal", "contact"),
        ("Dirección IP", "online-identifiers"),  # trap: "direccion"
        ("Fecha de nacimiento", "identification"),
        ("Edad", "demographic"),
        ("Datos de salud", "health"),
        ("Bajas médicas", "health"),
        ("Afiliación sindical", "trade-union-membership"),
        ("Origen étnico", "racial-or-ethnic-origin"),
        ("Creencias religiosas", "religious-or-philosophical-beliefs"),
        ("Antecedentes penales", "criminal-convictions-and-offences"),
        ("Nóminas", "financial"),  # trap: fr "nom"
        ("Datos bancarios", "financial"),
        ("Movimientos bancarios", "financial"),  # trap: "movimiento"
        ("Banco de datos de clientes", ""),  # trap: "banco"
        ("Número de la Seguridad Social", "national-identifier"),
        ("DNI", "identity-documents"),
        ("Huellas dactilares", "biometric"),
        ("Geolocalización", "location"),
        ("Puesto de trabajo", "employment"),
        ("Historial de pedidos", "transactions"),
        ("Imágenes de videovigilancia", "images-and-recordings"),
        ("Recetas de cocina favoritas", ""),  # trap: "receta"
        ("Asistencia técnica", ""),  # trap: "asistencia"
        ("Control de asistencia", "employment"),
        ("Dispositivo móvil", "online-identifiers"),
        ("Currículum vitae", "education-and-skills"),
        ("Estado civil", "demographic"),
        ("Orientación sexual", "sexual-orientation"),  # trap: en "sex"
    ],
    "it": [
        ("Nome e cognome", "identification"),
        ("Nomi", "identification"),  # gap: fr "nom" used to cover it
        ("Indirizzo email", "contact"),
        ("Numero di telefono", "contact"),
        ("Indirizzo IP", "online-identifiers"),  # trap: "indirizz"
        ("Data di nascita", "identification"),
        ("Età", "demographic"),
        ("Stato di salute", "health"),
        ("Certificati medici", "health"),
        ("Dati sanitari", "health"),
        ("Iscrizione al sindacato", "trade-union-membership"),
        ("Origine etnica", "racial-or-ethnic-origin"),
        ("Convinzioni religiose", "religious-or-philosophical-beliefs"),
        ("Casellario giudiziale", "criminal-convictions-and-offences"),
        ("Condanne penali e reati", "criminal-convictions-and-offences"),
        ("Banca dati clienti", ""),  # trap: "banca"
        ("Coordinate bancarie (IBAN)", "financial"),
        ("Movimenti del conto corrente", "financial"),  # trap: "moviment"
        ("Busta paga", "financial"),  # gap
        ("Dati nominativi", "identification"),  # gap
        ("Account disabilitati", ""),  # trap: "disabilit"
        ("Posizione lavorativa", "employment"),  # trap: "posizion"
        ("Posizione geografica", "location"),
        ("Ordini e acquisti", "transactions"),
        ("Registrazione utenti", ""),  # trap: "registrazion"
        ("Registrazioni delle chiamate", "images-and-recordings"),
        ("Immagini di videosorveglianza", "images-and-recordings"),
        ("Impronte digitali", "biometric"),
        ("Patente di guida", "identity-documents"),  # trap: "guida"
        ("Stile di guida dei conducenti", "employment"),
        ("Nazionalità", "demographic"),
        ("Curriculum vitae", "education-and-skills"),
        ("Visite mediche", "health"),  # trap: "visit"
    ],
}

SECURITY_MEASURES: dict[str, list[tuple[str, str]]] = {
    "en": [
        ("Encryption at rest (AES-256)", "encryption"),
        ("TLS 1.3 for data in transit", "encryption"),
        ("Multi-factor authentication", "access-control"),
        ("Role-based access control", "access-control"),
        ("Access logs reviewed monthly", "logging"),
        ("Audit trail of administrator actions", "logging"),  # trap: "audit"
        ("Annual penetration test", "testing"),
        ("Daily backups, restore tested quarterly", "backup testing"),
        ("Pseudonymisation of customer IDs", "pseudonymisation"),
        ("Staff training on data protection", "organisational"),
        ("Information security policy", "organisational"),
        ("Badge access to the server room", "physical"),
        ("ISO 27001 certified data centre", "certification"),
        ("Latest security patches installed", ""),  # trap: de "~test"
        ("Login via single sign-on", ""),  # trap: "log"
        ("TLS certificates renewed automatically", "encryption"),
    ],
    "de": [
        ("Verschlüsselung der Festplatten", "encryption"),
        ("Zwei-Faktor-Authentifizierung", "access-control"),
        ("Rollenbasiertes Berechtigungskonzept", "access-control"),
        ("Protokollierung der Zugriffe", "logging"),
        ("Regelmäßige Datensicherung", "backup"),
        ("Wiederherstellung wird jährlich getestet", "backup testing"),
        ("Pseudonymisierung", "pseudonymisation"),
        ("Schulung der Mitarbeiter", "organisational"),
        ("Verpflichtung auf das Datengeheimnis", "organisational"),  # gap
        ("Zutrittskontrolle zum Serverraum", "physical"),
        ("ISO-27001-Zertifizierung", "certification"),
        ("Penetrationstest durch Dritte", "testing"),
        ("Daten werden verschlüsselt gehalten", "encryption"),
        ("Login mit Passwort", "access-control"),
        ("Logistikzentrum mit Alarmanlage", "physical"),  # trap: "log"
    ],
    "fr": [
        ("Chiffrement des données au repos", "encryption"),
        ("Authentification à double facteur", "access-control"),
        ("Gestion des habilitations", "access-control"),
        ("Journalisation des accès", "logging"),
        ("Sauvegardes quotidiennes", "backup"),
        ("Tests de restauration", "backup testing"),
        ("Pseudonymisation", "pseudonymisation"),
        ("Sensibilisation du personnel", "organisational"),
        ("Charte informatique", "organisational"),
        ("Salle serveur fermée à clé", "physical"),
        ("Certification ISO 27001", "certification"),
        ("Audit de sécurité annuel", "testing"),
        ("Piste d'audit", "logging"),  # trap: "audit"
        ("Certificats TLS", "encryption"),  # trap: "certifi"
        ("Politique de mots de passe", "access-control organisational"),
    ],
    "es": [
        ("Cifrado de extremo a extremo", "encryption"),
        ("Autenticación de doble factor", "access-control"),
        ("Control de accesos basado en roles", "access-control"),
        ("Registro de accesos", "logging"),
        ("Copias de seguridad diarias", "backup"),
        ("Pruebas de restauración", "backup testing"),
        ("Seudonimización", "pseudonymisation"),
        ("Formación del personal", "organisational"),
        ("Acuerdo de confidencialidad", "organisational"),
        ("Sala de servidores con cerradura", "physical"),
        ("Certificación ENS", "certification"),
        ("Auditoría anual", "testing"),
        ("Pista de auditoría", "logging"),  # trap: "auditor"
        ("Certificado SSL", "encryption"),  # trap: "certificad"
        ("Política de contraseñas", "access-control organisational"),
    ],
    "it": [
        ("Cifratura dei dati", "encryption"),
        ("Autenticazione a due fattori", "access-control"),
        ("Controllo degli accessi", "access-control"),
        ("Log degli accessi", "logging"),
        ("Backup giornaliero", "backup"),
        ("Test di ripristino", "backup testing"),
        ("Pseudonimizzazione", "pseudonymisation"),
        ("Formazione del personale", "organisational"),
        ("Sala server chiusa a chiave", "physical"),
        ("Certificazione ISO 27001", "certification"),
        ("Certificato SSL", "encryption"),  # trap: "certificat"
        ("Login sicuro per l'accesso", ""),  # trap: "log ... acces"
        ("Traccia di audit", "logging"),  # trap: "audit"
        ("Vulnerability assessment periodico", "testing"),
        ("Password complesse", "access-control"),
    ],
}


def _rows(table: dict[str, list[tuple[str, str]]]) -> list[object]:
    return [
        pytest.param(wording, frozenset(codes.split()), id=f"{language}:{wording}")
        for language, rows in table.items()
        for wording, codes in rows
    ]


@pytest.mark.parametrize(("wording", "expected"), _rows(DATA_CATEGORIES))
def test_a_data_category_wording_names_exactly_its_concepts(
    wording: str, expected: frozenset[str]
) -> None:
    assert set(recognise("data-category", wording)) == expected


@pytest.mark.parametrize(("wording", "expected"), _rows(SECURITY_MEASURES))
def test_a_security_measure_wording_names_exactly_its_families(
    wording: str, expected: frozenset[str]
) -> None:
    assert set(recognise("security-measure", wording)) == expected


# The legal basis of a wording: (basis codes, Art. 9(2) letters); None when it names none.
# A wording that denies a basis does not name it (decided: "without consent" is no consent).
LEGAL_BASES: list[tuple[str, tuple[str, ...] | None, tuple[str, ...]]] = [
    ("Performance of a contract", ("contract",), ()),
    ("Contractor management", None, ()),  # "contract" is a whole word
    ("Vertragserfüllung", ("contract",), ()),
    ("Vertragspartner", ("contract",), ()),  # decided: naming the party names the contract
    ("AV-Vertrag mit dem Dienstleister", None, ()),  # trap: Art. 28 contract is no basis
    ("Processing without consent", None, ()),  # trap
    ("Legitimate interests, not consent", ("legitimate-interests",), ()),
    ("Berechtigtes Interesse, ohne Einwilligung", ("legitimate-interests",), ()),  # trap
    ("Sans consentement", None, ()),  # trap
    ("Sin consentimiento del interesado", None, ()),  # trap
    ("Senza consenso", None, ()),  # trap
    ("Keine Einwilligung erforderlich", None, ()),  # trap
    ("Consentimiento del interesado", ("consent",), ()),
    ("Notice and consent", ("consent",), ()),
    ("Obligations under the employment contract", ("contract",), ()),  # trap
    ("Legal obligation under tax law", ("legal-obligation",), ()),
    ("Contrattazione collettiva", None, ()),  # trap: it "contratt"
    ("Consenso esplicito", ("consent",), ("a",)),
    ("Verarbeitung ohne ausdrückliche Einwilligung", None, ()),  # trap
    ("Without explicit consent", None, ()),  # trap
]


@pytest.mark.parametrize(("wording", "codes", "letters"), LEGAL_BASES)
def test_a_legal_basis_wording_names_exactly_its_bases(
    wording: str, codes: tuple[str, ...] | None, letters: tuple[str, ...]
) -> None:
    found = recognise_legal_basis(wording)
    if codes is None and not letters:
        assert found is None
    else:
        assert found is not None
        assert (found.codes, found.conditions) == (codes or (), letters)


TRANSFER_MECHANISMS: list[tuple[str, str | None]] = [
    ("Adequate safeguards", None),  # trap: Art. 46 "appropriate safeguards", no adequacy
    ("Adequacy decision (Japan)", "adequacy-decision"),
    ("Country with an adequate level of protection", "adequacy-decision"),
    ("Angemessenheitsbeschluss", "adequacy-decision"),
    ("EU-U.S. Data Privacy Framework", "adequacy-decision"),
    ("Standard contractual clauses with supplementary measures", "standard-contractual-clauses"),
    ("Clausole contrattuali tipo", "standard-contractual-clauses"),
    ("Keine Ahnung", None),
]


@pytest.mark.parametrize(("wording", "code"), TRANSFER_MECHANISMS)
def test_a_transfer_wording_names_exactly_its_mechanism(wording: str, code: str | None) -> None:
    assert recognise_safeguard(wording) == code


RECIPIENT_ROLES: list[tuple[str, str | None]] = [
    ("Auftragsverarbeiter", "processor"),
    ("Responsabile del trattamento", "processor"),  # Italian: the processor
    ("Responsable du traitement", "controller"),  # French: the controller
    ("Mitverantwortlicher", "joint-controller"),
    ("Urząd skarbowy", "public-authority"),
    ("Urządzenie", None),  # trap: pl "urzad" started "urządzenie" (device)
    ("Contractor", None),
    ("Internal IT department", "internal"),
]


@pytest.mark.parametrize(("wording", "role"), RECIPIENT_ROLES)
def test_a_recipient_role_wording_names_exactly_its_role(wording: str, role: str | None) -> None:
    assert recognise_role(wording) == role
