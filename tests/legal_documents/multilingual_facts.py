"""The same facts written in English, German, French, Spanish and Italian (issue 24).

Each `FactSet` is one processing, breach or request: `shared` holds what a DPO writes the
same way in any language (names, ids, dates, numbers, flags, API codes), `worded` each fact
the engine reasons on, in every language of `LANGUAGES` (data categories, special
categories, measures, legal bases in the language's citation form or words, countries,
transfer mechanisms, purposes, data subjects, recipients). `FactSet.inputs(language)` is the
create body a DPO of that language would send. Add a set to `FACT_SETS` to extend
tests/legal_documents/test_invariance.py.

The translations use the GDPR's official terms in each language where the Regulation has
one (tests/gdpr/official_terms.py) and the wording a DPO of that country writes otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tests.legal_documents.samples import FULL_ANSWERS, FULL_INPUTS

LANGUAGES: tuple[str, ...] = ("en", "de", "fr", "es", "it")

# A fact in each language: {language: value}.
Worded = Mapping[str, Any]


@dataclass(frozen=True)
class FactSet:
    """One set of facts, written in each language."""

    name: str
    document_type: str
    shared: Mapping[str, Any]
    worded: Mapping[str, Worded]
    answers: Mapping[str, Any] = field(default_factory=dict)

    def inputs(self, language: str) -> dict[str, Any]:
        """The create body in `language`: the shared facts and each worded one."""
        return {
            **self.shared,
            **{key: values[language] for key, values in self.worded.items()},
        }


def each(build: Callable[[str], Any]) -> dict[str, Any]:
    """A worded fact built per language (for facts combining several terms)."""
    return {language: build(language) for language in LANGUAGES}


def _without(document_type: str, *keys: str) -> dict[str, Any]:
    """The sample's inputs minus the worded keys (they are given per language)."""
    return {k: v for k, v in FULL_INPUTS[document_type].items() if k not in keys}


# --- terms used by several sets ---------------------------------------------------------------
UNITED_STATES = {
    "en": "United States",
    "de": "Vereinigte Staaten",
    "fr": "États-Unis",
    "es": "Estados Unidos",
    "it": "Stati Uniti",
}
SWITZERLAND = {
    "en": "Switzerland",
    "de": "Schweiz",
    "fr": "Suisse",
    "es": "Suiza",
    "it": "Svizzera",
}
IRELAND = {"en": "Ireland", "de": "Irland", "fr": "Irlande", "es": "Irlanda", "it": "Irlanda"}
GERMANY = {
    "en": "Germany",
    "de": "Deutschland",
    "fr": "Allemagne",
    "es": "Alemania",
    "it": "Germania",
}
FRANCE = {"en": "France", "de": "Frankreich", "fr": "France", "es": "Francia", "it": "Francia"}
ITALY = {"en": "Italy", "de": "Italien", "fr": "Italie", "es": "Italia", "it": "Italia"}
SPAIN = {"en": "Spain", "de": "Spanien", "fr": "Espagne", "es": "España", "it": "Spagna"}
STANDARD_CLAUSES = {
    "en": "Standard contractual clauses",
    "de": "Standardvertragsklauseln",
    "fr": "Clauses contractuelles types",
    "es": "Cláusulas contractuales tipo",
    "it": "Clausole contrattuali tipo",
}
ADEQUACY = {
    "en": "Adequacy decision",
    "de": "Angemessenheitsbeschluss",
    "fr": "Décision d'adéquation",
    "es": "Decisión de adecuación",
    "it": "Decisione di adeguatezza",
}
SCC_DOCUMENTATION = {
    "en": "SCC module 2, transfer impact assessment of 2026-01-10",
    "de": "SCC Modul 2, Transfer-Folgenabschätzung vom 2026-01-10",
    "fr": "CCT module 2, analyse d'impact du transfert du 2026-01-10",
    "es": "CCT módulo 2, evaluación de impacto de la transferencia de 2026-01-10",
    "it": "CCT modulo 2, valutazione d'impatto del trasferimento del 2026-01-10",
}
CONSENT = {
    "en": "Consent",
    "de": "Einwilligung",
    "fr": "Consentement",
    "es": "Consentimiento",
    "it": "Consenso",
}
CONTRACT = {
    "en": "Performance of a contract",
    "de": "Vertragserfüllung",
    "fr": "Exécution d'un contrat",
    "es": "Ejecución de un contrato",
    "it": "Esecuzione di un contratto",
}
LEGITIMATE_INTERESTS = {
    "en": "Legitimate interests",
    "de": "Berechtigte Interessen",
    "fr": "Intérêts légitimes",
    "es": "Intereses legítimos",
    "it": "Legittimo interesse",
}
LEGAL_OBLIGATION = {
    "en": "Legal obligation",
    "de": "Rechtliche Verpflichtung",
    "fr": "Obligation légale",
    "es": "Obligación legal",
    "it": "Obbligo legale",
}
CONTACT_DATA = {
    "en": "Contact data",
    "de": "Kontaktdaten",
    "fr": "Coordonnées",
    "es": "Datos de contacto",
    "it": "Dati di contatto",
}
ORDER_HISTORY = {
    "en": "Order history",
    "de": "Bestellhistorie",
    "fr": "Historique des commandes",
    "es": "Historial de pedidos",
    "it": "Storico degli ordini",
}
CUSTOMERS = {"en": "Customers", "de": "Kunden", "fr": "Clients", "es": "Clientes", "it": "Clienti"}
EMPLOYEES = {
    "en": "Employees",
    "de": "Beschäftigte",
    "fr": "Salariés",
    "es": "Empleados",
    "it": "Dipendenti",
}


def citation(article: int, paragraph: int, point: str) -> dict[str, str]:
    """An article reference in each language's official citation form (gdpr.i18n.citations)."""
    return {
        "en": f"Art. {article}({paragraph})({point}) GDPR",
        "de": f"Art. {article} Abs. {paragraph} lit. {point} DSGVO",
        "fr": f"article {article}, paragraphe {paragraph}, point {point}) du RGPD",
        "es": f"artículo {article}, apartado {paragraph}, letra {point}) del RGPD",
        "it": f"articolo {article}, paragrafo {paragraph}, lettera {point}) del GDPR",
    }


def _us_transfer(language: str) -> dict[str, Any]:
    return {
        "country": UNITED_STATES[language],
        "recipient": "CloudCo Inc.",
        "safeguard": STANDARD_CLAUSES[language],
        "safeguardDetails": SCC_DOCUMENTATION[language],
    }


def _list(*terms: Mapping[str, Any]) -> dict[str, list[Any]]:
    """Several terms as one list-valued fact, per language."""
    return each(lambda language: [term[language] for term in terms])


# --- one set per document type, from the samples ---------------------------------------------
ROP_PURPOSES = {
    "en": ["Contract management", "Customer support", "Prospect follow-up"],
    "de": ["Vertragsverwaltung", "Kundenbetreuung", "Nachverfolgung von Interessenten"],
    "fr": ["Gestion des contrats", "Support client", "Suivi des prospects"],
    "es": ["Gestión de contratos", "Atención al cliente", "Seguimiento de clientes potenciales"],
    "it": ["Gestione dei contratti", "Assistenza clienti", "Follow-up dei potenziali clienti"],
}
ROP_FULL = FactSet(
    name="record-of-processing-sample",
    document_type="RECORD_OF_PROCESSING",
    shared=_without(
        "RECORD_OF_PROCESSING",
        "processingActivity",
        "purposes",
        "legalBasis",
        "purposeLegalBases",
        "dataSubjects",
        "dataCategories",
        "recipients",
        "thirdCountryTransfers",
        "retentionPeriods",
        "securityMeasures",
    ),
    worded={
        "processingActivity": {
            "en": "Customer relationship management",
            "de": "Kundenbeziehungsmanagement",
            "fr": "Gestion de la relation client",
            "es": "Gestión de la relación con los clientes",
            "it": "Gestione delle relazioni con i clienti",
        },
        "purposes": ROP_PURPOSES,
        "legalBasis": _list(CONTRACT, LEGITIMATE_INTERESTS),
        "purposeLegalBases": each(
            lambda language: [
                {"purpose": purpose, "legalBasis": basis[language]}
                for purpose, basis in zip(
                    ROP_PURPOSES[language],
                    (CONTRACT, CONTRACT, LEGITIMATE_INTERESTS),
                    strict=True,
                )
            ]
        ),
        "dataSubjects": {
            "en": ["Customers", "Prospects"],
            "de": ["Kunden", "Interessenten"],
            "fr": ["Clients", "Prospects"],
            "es": ["Clientes", "Clientes potenciales"],
            "it": ["Clienti", "Potenziali clienti"],
        },
        "dataCategories": _list(
            {
                "en": "Identification data",
                "de": "Identifikationsdaten",
                "fr": "Données d'identification",
                "es": "Datos identificativos",
                "it": "Dati identificativi",
            },
            CONTACT_DATA,
            ORDER_HISTORY,
        ),
        "recipients": {
            "en": ["Customer support staff", "CRM hosting provider"],
            "de": ["Mitarbeitende des Kundendienstes", "CRM-Hosting-Anbieter"],
            "fr": ["Personnel du support client", "Hébergeur du CRM"],
            "es": ["Personal de atención al cliente", "Proveedor de alojamiento del CRM"],
            "it": ["Personale dell'assistenza clienti", "Fornitore di hosting del CRM"],
        },
        "thirdCountryTransfers": each(lambda language: [_us_transfer(language)]),
        "retentionPeriods": {
            "en": [
                "Identification data: 3 years after the last contact",
                "Contact data: 3 years after the last contact",
                "Order history: 10 years after the end of the financial year",
            ],
            "de": [
                "Identifikationsdaten: 3 Jahre nach dem letzten Kontakt",
                "Kontaktdaten: 3 Jahre nach dem letzten Kontakt",
                "Bestellhistorie: 10 Jahre nach Ende des Geschäftsjahres",
            ],
            "fr": [
                "Données d'identification : 3 ans après le dernier contact",
                "Coordonnées : 3 ans après le dernier contact",
                "Historique des commandes : 10 ans après la fin de l'exercice",
            ],
            "es": [
                "Datos identificativos: 3 años tras el último contacto",
                "Datos de contacto: 3 años tras el último contacto",
                "Historial de pedidos: 10 años tras el cierre del ejercicio",
            ],
            "it": [
                "Dati identificativi: 3 anni dall'ultimo contatto",
                "Dati di contatto: 3 anni dall'ultimo contatto",
                "Storico degli ordini: 10 anni dalla chiusura dell'esercizio",
            ],
        },
        "securityMeasures": {
            "en": ["Encryption at rest", "Role-based access control"],
            "de": ["Verschlüsselung ruhender Daten", "Rollenbasierte Zugriffskontrolle"],
            "fr": ["Chiffrement des données au repos", "Contrôle d'accès basé sur les rôles"],
            "es": ["Cifrado de los datos en reposo", "Control de acceso basado en roles"],
            "it": ["Cifratura dei dati a riposo", "Controllo degli accessi basato sui ruoli"],
        },
    },
    answers=FULL_ANSWERS["RECORD_OF_PROCESSING"],
)

DPIA_FULL = FactSet(
    name="dpia-sample",
    document_type="DPIA",
    shared=_without(
        "DPIA",
        "processingActivity",
        "purposes",
        "country",
        "legalBasis",
        "dataCategories",
        "specialCategories",
        "dataSubjects",
        "recipients",
        "thirdCountryTransfers",
        "retentionPeriods",
        "securityMeasures",
        "actionPlan",
    ),
    worded={
        "processingActivity": {
            "en": "Video analytics of visitors in shopping centres",
            "de": "Videoanalyse der Besucher von Einkaufszentren",
            "fr": "Analyse vidéo des visiteurs de centres commerciaux",
            "es": "Análisis de vídeo de los visitantes de centros comerciales",
            "it": "Analisi video dei visitatori dei centri commerciali",
        },
        "purposes": {
            "en": ["Footfall measurement", "Security of premises"],
            "de": ["Besucherzählung", "Sicherheit der Räumlichkeiten"],
            "fr": ["Mesure de la fréquentation", "Sécurité des locaux"],
            "es": ["Medición de la afluencia", "Seguridad de las instalaciones"],
            "it": ["Misurazione dell'affluenza", "Sicurezza dei locali"],
        },
        "country": GERMANY,
        "legalBasis": {
            "en": [
                "Legitimate interests",
                "Art. 9(2)(a) GDPR: explicit consent of enrolled staff",
            ],
            "de": [
                "Berechtigte Interessen",
                "Art. 9 Abs. 2 lit. a DSGVO: ausdrückliche Einwilligung der registrierten"
                " Beschäftigten",
            ],
            "fr": [
                "Intérêts légitimes",
                "article 9, paragraphe 2, point a) du RGPD : consentement explicite du personnel"
                " inscrit",
            ],
            "es": [
                "Intereses legítimos",
                "artículo 9, apartado 2, letra a) del RGPD: consentimiento explícito del"
                " personal inscrito",
            ],
            "it": [
                "Legittimo interesse",
                "articolo 9, paragrafo 2, lettera a) del GDPR: consenso esplicito del personale"
                " registrato",
            ],
        },
        "dataCategories": {
            "en": ["Video images", "Movement patterns"],
            "de": ["Videobilder", "Bewegungsmuster"],
            "fr": ["Images vidéo", "Trajets et déplacements"],
            "es": ["Imágenes de vídeo", "Patrones de movimiento"],
            "it": ["Immagini video", "Percorsi e spostamenti"],
        },
        "specialCategories": {
            "en": ["Biometric data"],
            "de": ["Biometrische Daten"],
            "fr": ["Données biométriques"],
            "es": ["Datos biométricos"],
            "it": ["Dati biometrici"],
        },
        "dataSubjects": _list(
            {
                "en": "Visitors",
                "de": "Besucher",
                "fr": "Visiteurs",
                "es": "Visitantes",
                "it": "Visitatori",
            },
            EMPLOYEES,
        ),
        "recipients": {
            "en": ["Security contractor"],
            "de": ["Sicherheitsdienstleister"],
            "fr": ["Prestataire de sécurité"],
            "es": ["Empresa de seguridad contratada"],
            "it": ["Società di vigilanza incaricata"],
        },
        "thirdCountryTransfers": each(lambda language: [_us_transfer(language)]),
        "retentionPeriods": {
            "en": ["Video: 72 hours", "Aggregates: 2 years"],
            "de": ["Video: 72 Stunden", "Aggregierte Daten: 2 Jahre"],
            "fr": ["Vidéo : 72 heures", "Données agrégées : 2 ans"],
            "es": ["Vídeo: 72 horas", "Datos agregados: 2 años"],
            "it": ["Video: 72 ore", "Dati aggregati: 2 anni"],
        },
        "securityMeasures": {
            "en": [
                "AES-256 encryption at rest",
                "Multi-factor authentication",
                "Access logs reviewed weekly",
                "Nightly backups",
            ],
            "de": [
                "AES-256-Verschlüsselung ruhender Daten",
                "Multi-Faktor-Authentifizierung",
                "Wöchentlich geprüfte Zugriffsprotokolle",
                "Nächtliche Datensicherungen",
            ],
            "fr": [
                "Chiffrement AES-256 des données au repos",
                "Authentification multifacteur",
                "Journaux d'accès revus chaque semaine",
                "Sauvegardes nocturnes",
            ],
            "es": [
                "Cifrado AES-256 de los datos en reposo",
                "Autenticación multifactor",
                "Registros de acceso revisados semanalmente",
                "Copias de seguridad nocturnas",
            ],
            "it": [
                "Cifratura AES-256 dei dati a riposo",
                "Autenticazione a più fattori",
                "Log degli accessi verificati settimanalmente",
                "Backup notturni",
            ],
        },
        "actionPlan": each(
            lambda language: [
                {
                    **FULL_INPUTS["DPIA"]["actionPlan"][0],
                    "measure": {
                        "en": "Deploy blurring of faces",
                        "de": "Verpixelung der Gesichter einführen",
                        "fr": "Déployer le floutage des visages",
                        "es": "Implantar el difuminado de los rostros",
                        "it": "Introdurre l'oscuramento dei volti",
                    }[language],
                }
            ]
        ),
    },
    answers=FULL_ANSWERS["DPIA"],
)

PRIVACY_PURPOSES = {
    "en": ["Running the newsletter", "Improving the website"],
    "de": ["Versand des Newsletters", "Verbesserung der Website"],
    "fr": ["Envoi de la newsletter", "Amélioration du site web"],
    "es": ["Envío del boletín", "Mejora del sitio web"],
    "it": ["Invio della newsletter", "Miglioramento del sito web"],
}
EMAIL_ADDRESS = {
    "en": "E-mail address",
    "de": "E-Mail-Adresse",
    "fr": "Adresse e-mail",
    "es": "Dirección de correo electrónico",
    "it": "Indirizzo e-mail",
}
BROWSING_DATA = {
    "en": "Browsing data",
    "de": "Surfdaten",
    "fr": "Données de navigation",
    "es": "Datos de navegación",
    "it": "Dati di navigazione",
}
NEWSLETTER_PROVIDER = {
    "en": "Newsletter service provider",
    "de": "Newsletter-Dienstleister",
    "fr": "Prestataire d'envoi de la newsletter",
    "es": "Proveedor del servicio de boletines",
    "it": "Fornitore del servizio di newsletter",
}
PARTNER_LISTS = {
    "en": "Partner marketing lists",
    "de": "Marketinglisten von Partnern",
    "fr": "Listes marketing de partenaires",
    "es": "Listas de marketing de socios",
    "it": "Liste di marketing dei partner",
}


def _privacy_purposes(language: str) -> list[dict[str, Any]]:
    newsletter, website = PRIVACY_PURPOSES[language]
    return [
        {
            "purpose": newsletter,
            "dataCategories": [EMAIL_ADDRESS[language]],
            "legalBasis": [CONSENT[language]],
            "retention": {
                "en": "Until you unsubscribe",
                "de": "Bis zur Abmeldung",
                "fr": "Jusqu'à votre désinscription",
                "es": "Hasta que se dé de baja",
                "it": "Fino alla disiscrizione",
            }[language],
            "recipients": [NEWSLETTER_PROVIDER[language]],
            "source": PARTNER_LISTS[language],
        },
        {
            "purpose": website,
            "dataCategories": [BROWSING_DATA[language]],
            "legalBasis": [LEGITIMATE_INTERESTS[language]],
            "legitimateInterest": {
                "en": "Measuring website audience to improve content.",
                "de": "Reichweitenmessung der Website zur Verbesserung der Inhalte.",
                "fr": "Mesure d'audience du site pour en améliorer le contenu.",
                "es": "Medición de la audiencia del sitio para mejorar sus contenidos.",
                "it": "Misurazione dell'audience del sito per migliorarne i contenuti.",
            }[language],
            "retention": {
                "en": "13 months",
                "de": "13 Monate",
                "fr": "13 mois",
                "es": "13 meses",
                "it": "13 mesi",
            }[language],
            "recipients": [
                {
                    "en": "No one outside Acme",
                    "de": "Niemand außerhalb von Acme",
                    "fr": "Personne en dehors d'Acme",
                    "es": "Nadie fuera de Acme",
                    "it": "Nessuno al di fuori di Acme",
                }[language]
            ],
            "source": {
                "en": "Your browser, when you visit the website",
                "de": "Ihr Browser beim Besuch der Website",
                "fr": "Votre navigateur, lorsque vous visitez le site",
                "es": "Su navegador, cuando visita el sitio web",
                "it": "Il vostro browser, quando visitate il sito",
            }[language],
        },
    ]


PRIVACY_FULL = FactSet(
    name="privacy-policy-sample",
    document_type="PRIVACY_POLICY",
    shared=_without(
        "PRIVACY_POLICY",
        "purposes",
        "legalBasis",
        "processingPurposes",
        "dataCategories",
        "recipients",
        "thirdCountryTransfers",
        "retentionPeriods",
        "dataSources",
    ),
    worded={
        "purposes": PRIVACY_PURPOSES,
        "legalBasis": _list(CONSENT, LEGITIMATE_INTERESTS),
        "processingPurposes": each(_privacy_purposes),
        "dataCategories": _list(EMAIL_ADDRESS, BROWSING_DATA),
        "recipients": _list(NEWSLETTER_PROVIDER),
        "thirdCountryTransfers": each(lambda language: [_us_transfer(language)]),
        "retentionPeriods": {
            "en": ["Until you unsubscribe", "Browsing data: 13 months"],
            "de": ["Bis zur Abmeldung", "Surfdaten: 13 Monate"],
            "fr": ["Jusqu'à votre désinscription", "Données de navigation : 13 mois"],
            "es": ["Hasta que se dé de baja", "Datos de navegación: 13 meses"],
            "it": ["Fino alla disiscrizione", "Dati di navigazione: 13 mesi"],
        },
        "dataSources": _list(PARTNER_LISTS),
    },
    answers=FULL_ANSWERS["PRIVACY_POLICY"],
)

DPA_FULL = FactSet(
    name="data-processing-agreement-sample",
    document_type="DATA_PROCESSING_AGREEMENT",
    shared=_without(
        "DATA_PROCESSING_AGREEMENT",
        "purposes",
        "dataCategories",
        "dataSubjects",
        "processorCountry",
        "securityMeasures",
        "subprocessors",
        "thirdCountryTransfers",
        "governingLaw",
    ),
    worded={
        "purposes": {
            "en": ["Provision of the CRM service"],
            "de": ["Bereitstellung des CRM-Dienstes"],
            "fr": ["Fourniture du service CRM"],
            "es": ["Prestación del servicio de CRM"],
            "it": ["Fornitura del servizio CRM"],
        },
        "dataCategories": _list(CONTACT_DATA, ORDER_HISTORY),
        "dataSubjects": _list(CUSTOMERS),
        "processorCountry": UNITED_STATES,
        "securityMeasures": {
            "en": [
                "AES-256 encryption at rest and TLS 1.3 in transit",
                "Role-based access control with multi-factor authentication",
                "Daily encrypted backups with tested restoration",
                "Yearly penetration tests",
                "ISO 27001 certified data centres",
            ],
            "de": [
                "AES-256-Verschlüsselung ruhender Daten und TLS 1.3 bei der Übertragung",
                "Rollenbasierte Zugriffskontrolle mit Multi-Faktor-Authentifizierung",
                "Tägliche verschlüsselte Datensicherungen mit getesteter Wiederherstellung",
                "Jährliche Penetrationstests",
                "Nach ISO 27001 zertifizierte Rechenzentren",
            ],
            "fr": [
                "Chiffrement AES-256 des données au repos et TLS 1.3 en transit",
                "Contrôle d'accès basé sur les rôles avec authentification multifacteur",
                "Sauvegardes chiffrées quotidiennes avec restauration testée",
                "Tests d'intrusion annuels",
                "Centres de données certifiés ISO 27001",
            ],
            "es": [
                "Cifrado AES-256 de los datos en reposo y TLS 1.3 en tránsito",
                "Control de acceso basado en roles con autenticación multifactor",
                "Copias de seguridad cifradas diarias con restauración probada",
                "Pruebas de penetración anuales",
                "Centros de datos con certificación ISO 27001",
            ],
            "it": [
                "Cifratura AES-256 dei dati a riposo e TLS 1.3 in transito",
                "Controllo degli accessi basato sui ruoli con autenticazione a più fattori",
                "Backup cifrati giornalieri con ripristino verificato",
                "Test di penetrazione annuali",
                "Data center certificati ISO 27001",
            ],
        },
        "subprocessors": each(
            lambda language: [
                {
                    **FULL_INPUTS["DATA_PROCESSING_AGREEMENT"]["subprocessors"][0],
                    "country": FRANCE[language],
                    "service": {
                        "en": "backups",
                        "de": "Datensicherungen",
                        "fr": "sauvegardes",
                        "es": "copias de seguridad",
                        "it": "backup",
                    }[language],
                }
            ]
        ),
        "thirdCountryTransfers": each(lambda language: [_us_transfer(language)]),
        "governingLaw": {
            "en": "the law of Germany",
            "de": "deutsches Recht",
            "fr": "le droit allemand",
            "es": "el Derecho alemán",
            "it": "il diritto tedesco",
        },
    },
    answers=FULL_ANSWERS["DATA_PROCESSING_AGREEMENT"],
)

BREACH_FULL = FactSet(
    name="breach-notification-sample",
    document_type="BREACH_NOTIFICATION",
    shared=_without(
        "BREACH_NOTIFICATION",
        "breachNature",
        "dataSubjects",
        "dataCategories",
        "likelyConsequences",
        "measuresTaken",
        "measuresProposed",
    ),
    worded={
        "breachNature": {
            "en": "A laptop with customer exports was stolen.",
            "de": "Ein Laptop mit Kundenexporten wurde gestohlen.",
            "fr": "Un ordinateur portable contenant des exports clients a été volé.",
            "es": "Se robó un portátil con exportaciones de clientes.",
            "it": "È stato rubato un portatile con esportazioni dei clienti.",
        },
        "dataSubjects": _list(CUSTOMERS),
        "dataCategories": _list(
            CONTACT_DATA,
            {
                "en": "Bank account numbers",
                "de": "Kontonummern",
                "fr": "Numéros de compte bancaire",
                "es": "Números de cuenta bancaria",
                "it": "Numeri di conto corrente",
            },
        ),
        "likelyConsequences": {
            "en": "Phishing and fraud attempts against customers.",
            "de": "Phishing- und Betrugsversuche gegen Kunden.",
            "fr": "Tentatives d'hameçonnage et de fraude visant les clients.",
            "es": "Intentos de phishing y fraude contra los clientes.",
            "it": "Tentativi di phishing e di frode ai danni dei clienti.",
        },
        "measuresTaken": {
            "en": ["Remote wipe requested", "Passwords reset"],
            "de": ["Fernlöschung veranlasst", "Passwörter zurückgesetzt"],
            "fr": ["Effacement à distance demandé", "Mots de passe réinitialisés"],
            "es": ["Borrado remoto solicitado", "Contraseñas restablecidas"],
            "it": ["Cancellazione da remoto richiesta", "Password reimpostate"],
        },
        "measuresProposed": {
            "en": ["Full-disk encryption on all laptops"],
            "de": ["Festplattenverschlüsselung auf allen Laptops"],
            "fr": ["Chiffrement intégral du disque sur tous les ordinateurs portables"],
            "es": ["Cifrado completo del disco en todos los portátiles"],
            "it": ["Cifratura completa del disco su tutti i portatili"],
        },
    },
    answers=FULL_ANSWERS["BREACH_NOTIFICATION"],
)

DSR_FULL = FactSet(
    name="data-subject-request-form-sample",
    document_type="DATA_SUBJECT_REQUEST_FORM",
    shared=_without("DATA_SUBJECT_REQUEST_FORM", "identityVerification", "supervisoryAuthority"),
    worded={
        "identityVerification": {
            "en": "We match the e-mail address to the customer account.",
            "de": "Wir gleichen die E-Mail-Adresse mit dem Kundenkonto ab.",
            "fr": "Nous rapprochons l'adresse e-mail du compte client.",
            "es": "Comprobamos que la dirección de correo coincide con la cuenta de cliente.",
            "it": "Verifichiamo che l'indirizzo e-mail corrisponda all'account cliente.",
        },
        "supervisoryAuthority": {
            "en": "the Berlin Commissioner for Data Protection",
            "de": "die Berliner Beauftragte für Datenschutz und Informationsfreiheit",
            "fr": "la commissaire berlinoise à la protection des données",
            "es": "la Comisionada de Protección de Datos de Berlín",
            "it": "la Commissaria per la protezione dei dati di Berlino",
        },
    },
    answers=FULL_ANSWERS["DATA_SUBJECT_REQUEST_FORM"],
)

# --- targeted sets: one recogniser each --------------------------------------------------------
_CONTROLLER = {
    "companyName": "Acme Analytics GmbH",
    "companyDetails": "Hauptstrasse 1, 10115 Berlin, privacy@acme.example",
    "dpoContact": "Jane Roe, dpo@acme.example",
}
HEALTH_DATA = {
    "en": "Health data",
    "de": "Gesundheitsdaten",
    "fr": "Données de santé",
    "es": "Datos de salud",
    "it": "Dati sanitari",
}
OCCUPATIONAL_HEALTH = {
    "en": "Occupational health service",
    "de": "Betriebsärztlicher Dienst",
    "fr": "Service de santé au travail",
    "es": "Servicio de salud laboral",
    "it": "Servizio di medicina del lavoro",
}

ROP_HEALTH = FactSet(
    name="record-health-data-with-art-9-condition",
    document_type="RECORD_OF_PROCESSING",
    shared={**_CONTROLLER, "employeeCount": 120, "actsAsProcessor": False},
    worded={
        "processingActivity": OCCUPATIONAL_HEALTH,
        "purposes": _list(
            {
                "en": "Fitness-for-work examinations",
                "de": "Arbeitsmedizinische Eignungsuntersuchungen",
                "fr": "Visites d'aptitude au travail",
                "es": "Reconocimientos de aptitud laboral",
                "it": "Visite di idoneità al lavoro",
            }
        ),
        "dataSubjects": _list(EMPLOYEES),
        "dataCategories": _list(HEALTH_DATA, CONTACT_DATA),
        "legalBasis": _list(citation(6, 1, "c"), citation(9, 2, "h")),
    },
)

DPIA_HEALTH = FactSet(
    name="dpia-health-data-without-art-9-condition",
    document_type="DPIA",
    shared={
        **_CONTROLLER,
        "approximateSubjects": 40_000,
        "largeScale": True,
        "vulnerableSubjects": True,
        "systematicMonitoring": False,
        "publicAreaMonitoring": False,
        "profiling": False,
        "automatedDecisions": False,
        "innovativeTechnology": False,
        "datasetMatching": False,
        "preventsRightOrService": False,
    },
    worded={
        "processingActivity": {
            "en": "Online appointment booking for a medical practice",
            "de": "Online-Terminbuchung für eine Arztpraxis",
            "fr": "Prise de rendez-vous en ligne pour un cabinet médical",
            "es": "Reserva de citas en línea para una consulta médica",
            "it": "Prenotazione online delle visite per uno studio medico",
        },
        "purposes": _list(
            {
                "en": "Appointment scheduling",
                "de": "Terminplanung",
                "fr": "Planification des rendez-vous",
                "es": "Programación de citas",
                "it": "Pianificazione degli appuntamenti",
            }
        ),
        "legalBasis": _list(CONTRACT),
        "dataSubjects": _list(
            {
                "en": "Patients",
                "de": "Patienten",
                "fr": "Patients",
                "es": "Pacientes",
                "it": "Pazienti",
            }
        ),
        "dataCategories": _list(
            {
                "en": "Health data of patients",
                "de": "Gesundheitsdaten der Patienten",
                "fr": "Données de santé des patients",
                "es": "Datos de salud de los pacientes",
                "it": "Dati sanitari dei pazienti",
            },
            CONTACT_DATA,
        ),
    },
)

ROP_CRIMINAL = FactSet(
    name="record-criminal-data-without-art-10-basis",
    document_type="RECORD_OF_PROCESSING",
    shared={**_CONTROLLER, "employeeCount": 420, "actsAsProcessor": False},
    worded={
        "processingActivity": {
            "en": "Background checks of applicants",
            "de": "Zuverlässigkeitsprüfung von Bewerbern",
            "fr": "Vérification des antécédents des candidats",
            "es": "Verificación de antecedentes de los candidatos",
            "it": "Verifica dei precedenti dei candidati",
        },
        "purposes": _list(
            {
                "en": "Recruitment for security-sensitive posts",
                "de": "Besetzung sicherheitsempfindlicher Stellen",
                "fr": "Recrutement à des postes sensibles",
                "es": "Selección para puestos sensibles",
                "it": "Selezione per posizioni sensibili",
            }
        ),
        "dataSubjects": _list(
            {
                "en": "Applicants",
                "de": "Bewerber",
                "fr": "Candidats",
                "es": "Candidatos",
                "it": "Candidati",
            }
        ),
        "dataCategories": _list(
            {
                "en": "Criminal records of applicants",
                "de": "Strafregisterauszüge der Bewerber",
                "fr": "Extraits de casier judiciaire des candidats",
                "es": "Certificados de antecedentes penales de los candidatos",
                "it": "Certificati del casellario giudiziale dei candidati",
            },
            CONTACT_DATA,
        ),
        "legalBasis": _list(LEGAL_OBLIGATION),
    },
)

DPIA_MEASURES = FactSet(
    name="dpia-security-measures",
    document_type="DPIA",
    shared={
        **_CONTROLLER,
        "approximateSubjects": 2_000,
        "largeScale": False,
        "vulnerableSubjects": False,
        "systematicMonitoring": False,
        "publicAreaMonitoring": False,
        "profiling": False,
        "automatedDecisions": False,
        "innovativeTechnology": False,
        "datasetMatching": False,
        "preventsRightOrService": False,
        "highlyPersonalData": False,
    },
    worded={
        "processingActivity": {
            "en": "Payroll",
            "de": "Lohnabrechnung",
            "fr": "Gestion de la paie",
            "es": "Gestión de nóminas",
            "it": "Elaborazione delle buste paga",
        },
        "legalBasis": _list(citation(6, 1, "b")),
        "dataSubjects": _list(EMPLOYEES),
        "dataCategories": _list(
            CONTACT_DATA,
            {
                "en": "Salary and bank details",
                "de": "Gehalts- und Bankdaten",
                "fr": "Salaire et coordonnées bancaires",
                "es": "Salario y datos bancarios",
                "it": "Retribuzione e coordinate bancarie",
            },
        ),
        "securityMeasures": {
            "en": [
                "Full-disk encryption of laptops",
                "Two-factor authentication for all accounts",
                "Daily backups stored off-site",
                "Central logging of access to payroll files",
                "Annual data protection training for staff",
            ],
            "de": [
                "Festplattenverschlüsselung der Laptops",
                "Zwei-Faktor-Authentifizierung für alle Konten",
                "Tägliche Datensicherung an einem externen Standort",
                "Zentrale Protokollierung der Zugriffe auf Lohnakten",
                "Jährliche Datenschutzschulung der Mitarbeitenden",
            ],
            "fr": [
                "Chiffrement intégral des disques des ordinateurs portables",
                "Authentification à deux facteurs pour tous les comptes",
                "Sauvegardes quotidiennes conservées hors site",
                "Journalisation centralisée des accès aux fichiers de paie",
                "Formation annuelle du personnel à la protection des données",
            ],
            "es": [
                "Cifrado completo del disco de los portátiles",
                "Autenticación de dos factores para todas las cuentas",
                "Copias de seguridad diarias almacenadas fuera de las instalaciones",
                "Registro centralizado de los accesos a los ficheros de nóminas",
                "Formación anual del personal en protección de datos",
            ],
            "it": [
                "Cifratura completa del disco dei portatili",
                "Autenticazione a due fattori per tutti gli account",
                "Backup giornalieri conservati fuori sede",
                "Registrazione centralizzata degli accessi ai file delle buste paga",
                "Formazione annuale del personale sulla protezione dei dati",
            ],
        },
        "plannedMeasures": {
            "en": ["Pseudonymisation of payroll extracts"],
            "de": ["Pseudonymisierung von Auszügen aus der Lohnabrechnung"],
            "fr": ["Pseudonymisation des extraits de paie"],
            "es": ["Seudonimización de los extractos de nóminas"],
            "it": ["Pseudonimizzazione degli estratti delle buste paga"],
        },
    },
)

DSR_CITATIONS = FactSet(
    name="request-form-legal-bases-cited",
    document_type="DATA_SUBJECT_REQUEST_FORM",
    shared={
        **_CONTROLLER,
        "requesterName": "John Doe",
        "receivedAt": "2026-01-31",
        "rightsInvoked": ["access", "portability", "objection"],
        "processedByAutomatedMeans": True,
    },
    worded={
        "legalBasis": each(
            lambda language: [
                citation(6, 1, "a")[language],
                f"{citation(6, 1, 'f')[language]} ({LEGITIMATE_INTERESTS[language]})",
            ]
        )
    },
)

ROP_TRANSFERS = FactSet(
    name="record-transfers-ireland-united-states-switzerland",
    document_type="RECORD_OF_PROCESSING",
    shared={**_CONTROLLER, "employeeCount": 420, "actsAsProcessor": False},
    worded={
        "processingActivity": {
            "en": "Human resources administration",
            "de": "Personalverwaltung",
            "fr": "Administration du personnel",
            "es": "Administración de personal",
            "it": "Amministrazione del personale",
        },
        "legalBasis": _list(CONTRACT),
        "dataSubjects": _list(EMPLOYEES),
        "dataCategories": _list(CONTACT_DATA),
        "recipients": each(
            lambda language: [
                {"name": "HostCo Ltd", "role": "processor", "country": IRELAND[language]},
                {
                    "name": "CloudCo Inc.",
                    "role": "processor",
                    "country": UNITED_STATES[language],
                    "safeguard": STANDARD_CLAUSES[language],
                },
                {
                    "name": "SwissCo AG",
                    "role": "controller",
                    "country": SWITZERLAND[language],
                    "safeguard": ADEQUACY[language],
                },
            ]
        ),
        "thirdCountryTransfers": each(
            lambda language: [
                {
                    "country": SWITZERLAND[language],
                    "recipient": "Alpine Payroll AG",
                    "mechanism": ADEQUACY[language],
                    "role": "processor",
                },
            ]
        ),
        "purposes": _list(
            {
                "en": "Salary payment",
                "de": "Gehaltszahlung",
                "fr": "Versement des salaires",
                "es": "Pago de salarios",
                "it": "Pagamento degli stipendi",
            }
        ),
    },
)

BREACH_HEALTH = FactSet(
    name="breach-health-data",
    document_type="BREACH_NOTIFICATION",
    shared={
        **_CONTROLLER,
        "discoveredAt": "2026-03-01T08:30:00Z",
        "breachTypes": ["confidentiality"],
        "approximateSubjects": 300,
        "approximateRecords": 300,
        "encrypted": False,
    },
    worded={
        "breachNature": {
            "en": "Test results were sent to the wrong patients.",
            "de": "Befunde wurden an die falschen Patienten versandt.",
            "fr": "Des résultats d'analyses ont été envoyés aux mauvais patients.",
            "es": "Se enviaron resultados de pruebas a pacientes equivocados.",
            "it": "Referti inviati ai pazienti sbagliati.",
        },
        "dataSubjects": _list(
            {
                "en": "Patients",
                "de": "Patienten",
                "fr": "Patients",
                "es": "Pacientes",
                "it": "Pazienti",
            }
        ),
        "dataCategories": _list(
            {
                "en": "Health data of patients",
                "de": "Gesundheitsdaten der Patienten",
                "fr": "Données de santé des patients",
                "es": "Datos de salud de los pacientes",
                "it": "Dati sanitari dei pazienti",
            },
            {"en": "Names", "de": "Namen", "fr": "Noms", "es": "Nombres", "it": "Nomi"},
        ),
    },
)


def _request_in(country: Mapping[str, str], received: str, name: str) -> FactSet:
    """A request received on `received`, by a controller in `country` (its holidays count)."""
    return FactSet(
        name=name,
        document_type="DATA_SUBJECT_REQUEST_FORM",
        shared={
            "companyName": "Acme Europa S.r.l.",
            "requesterName": "John Doe",
            "receivedAt": received,
            "rightsInvoked": ["access"],
        },
        worded={"country": country},
    )


# One month after 2 May 2026 is 2 June, the Festa della Repubblica; after 12 September, 12
# October, the Fiesta Nacional de España: the due date moves only with the national holidays.
DSR_ITALY = _request_in(ITALY, "2026-05-02", "request-form-controller-in-italy")
DSR_SPAIN = _request_in(SPAIN, "2026-09-12", "request-form-controller-in-spain")

FACT_SETS: tuple[FactSet, ...] = (
    ROP_FULL,
    DPIA_FULL,
    PRIVACY_FULL,
    DPA_FULL,
    BREACH_FULL,
    DSR_FULL,
    ROP_HEALTH,
    DPIA_HEALTH,
    ROP_CRIMINAL,
    DPIA_MEASURES,
    DSR_CITATIONS,
    ROP_TRANSFERS,
    BREACH_HEALTH,
    DSR_ITALY,
    DSR_SPAIN,
)
