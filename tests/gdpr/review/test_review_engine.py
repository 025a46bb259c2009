"""The offline review engine (issue 28): short clauses in five languages, quotes, locations.

Each clause case is one item's wording in en, de, fr, es and it; the five must give the same
status (a German vendor's "Auftragsverarbeitungsvertrag" is read with the same rules as an
English DPA). The statuses follow docs/LEGAL.md and the issue's "weak, not present" list.
"""

from __future__ import annotations

import time

import pytest

import gdpr
from assets.processing.chunking import chunk_segments
from formats.segments import Segment
from gdpr.review.checklist import checklist
from gdpr.review.engine import REVIEWABLE_TYPES, item_queries, review_document
from gdpr.review.findings import LABELS, NOT_APPLICABLE, WEAK
from gdpr.review.report import ItemStatus, Passage, ReviewReport, is_verbatim
from gdpr.review.segments import heading_of
from tests.legal_documents.samples import FIXED_NOW, FULL_ANSWERS, FULL_INPUTS

DPA = "DATA_PROCESSING_AGREEMENT"
PRIVACY = "PRIVACY_POLICY"
LANGUAGES = ("en", "de", "fr", "es", "it")


def _review(text: str, document_type: str = DPA, report_language: str = "en") -> ReviewReport:
    passages = [Passage(index=0, text=text, location="page 1")]
    return review_document(
        document_type=document_type, passages=passages, report_language=report_language
    )


def _status(report: ReviewReport, item_id: str) -> str:
    return next(item.status.value for item in report.items if item.item_id == item_id)


# (item, expected status, {language: clause})
DPA_CLAUSES: list[tuple[str, str, dict[str, str]]] = [
    (
        "breach-notification",
        "present",
        {
            "en": "The Processor shall notify the Controller of any personal data breach without"
            " undue delay and in any event within 48 hours.",
            "de": "Der Auftragnehmer meldet dem Auftraggeber jede Verletzung des Schutzes"
            " personenbezogener Daten unverzüglich, spätestens innerhalb von 48 Stunden.",
            "fr": "Le Sous-traitant notifie au Responsable du traitement toute violation de"
            " données à caractère personnel dans les meilleurs délais.",
            "es": "El Encargado notificará al Responsable las violaciones de la seguridad de los"
            " datos personales sin dilación indebida.",
            "it": "Il Responsabile notifica al Titolare ogni violazione dei dati personali senza"
            " ingiustificato ritardo.",
        },
    ),
    (
        "breach-notification",
        "weak",
        {
            "en": "In the event of a data breach, the Processor will comply with applicable law.",
            "de": "Bei einer Datenpanne hält der Auftragnehmer die gesetzlichen Vorschriften ein.",
            "fr": "En cas de violation de données, le Sous-traitant respecte la législation"
            " applicable.",
            "es": "En caso de violación de datos, el Encargado cumplirá la legislación aplicable.",
            "it": "In caso di violazione dei dati, il Responsabile rispetta la normativa"
            " applicabile.",
        },
    ),
    (
        "h-audits",
        "present",
        {
            "en": "The Processor shall allow for and contribute to audits, including"
            " inspections, conducted by the Controller.",
            "de": "Der Auftragnehmer ermöglicht Überprüfungen, einschließlich Inspektionen, durch"
            " den Auftraggeber und trägt zu ihnen bei.",
            "fr": "Le Sous-traitant permet la réalisation d'audits, y compris des inspections,"
            " par le Responsable du traitement.",
            "es": "El Encargado permite y contribuye a la realización de auditorías, incluidas"
            " inspecciones, por parte del Responsable.",
            "it": "Il Responsabile consente e contribuisce alle attività di revisione, comprese"
            " le ispezioni, del Titolare.",
        },
    ),
    (
        "h-audits",
        "weak",
        {
            "en": "Any audit right of the Customer is satisfied by the Processor providing its"
            " SOC 2 Type II report.",
            "de": "Das Kontrollrecht des Auftraggebers ist durch Vorlage des ISO 27001"
            " Zertifikats des Auftragnehmers erfüllt.",
            "fr": "Le droit d'audit du Client est satisfait par la remise du rapport SOC 2 du"
            " Sous-traitant.",
            "es": "El derecho de auditoría del Cliente se satisface con la entrega del informe"
            " SOC 2 del Encargado.",
            "it": "Il diritto di audit del Cliente è soddisfatto dalla consegna del rapporto"
            " SOC 2 del Responsabile.",
        },
    ),
    (
        "d-subprocessors",
        "weak",
        {
            "en": "The Customer grants the Processor a general authorisation to engage"
            " sub-processors of its choice.",
            "de": "Der Auftraggeber erteilt dem Auftragnehmer eine allgemeine Genehmigung zur"
            " Beauftragung von Unterauftragsverarbeitern seiner Wahl.",
            "fr": "Le Client donne au Sous-traitant une autorisation générale de recourir aux"
            " sous-traitants ultérieurs de son choix.",
            "es": "El Cliente otorga al Encargado una autorización general para recurrir a los"
            " subencargados que elija.",
            "it": "Il Cliente concede al Responsabile un'autorizzazione generale a ricorrere ad"
            " altro responsabile di sua scelta.",
        },
    ),
    (
        "g-deletion",
        "weak",
        {
            "en": "The Processor shall delete the personal data upon written request of the"
            " Customer.",
            "de": "Der Auftragnehmer löscht die Daten auf schriftliches Verlangen des"
            " Auftraggebers.",
            "fr": "Le Sous-traitant supprime les données sur simple demande écrite du Client.",
            "es": "El Encargado suprimirá los datos previa solicitud por escrito del Cliente.",
            "it": "Il Responsabile cancella i dati su richiesta scritta del Cliente.",
        },
    ),
    (
        "g-deletion",
        "present",
        {
            "en": "At the end of the services, the Processor shall delete or return all personal"
            " data at the choice of the Controller.",
            "de": "Nach Beendigung des Vertrags löscht der Auftragnehmer nach Wahl des"
            " Auftraggebers alle Daten oder gibt sie zurück.",
            "fr": "Au terme de la prestation, le Sous-traitant supprime ou renvoie toutes les"
            " données, au choix du Responsable.",
            "es": "A la finalización del contrato, el Encargado suprimirá o devolverá todos los"
            " datos, a elección del Responsable.",
            "it": "Alla cessazione del contratto, il Responsabile cancella o restituisce tutti i"
            " dati, a scelta del Titolare.",
        },
    ),
    (
        "infringing-instructions",
        "present",
        {
            "en": "The Processor shall immediately inform the Controller if, in its opinion, an"
            " instruction infringes the GDPR.",
            "de": "Der Auftragnehmer informiert den Auftraggeber unverzüglich, wenn eine Weisung"
            " gegen die DSGVO verstößt.",
            "fr": "Le Sous-traitant informe immédiatement le Responsable si une instruction"
            " constitue une violation du RGPD.",
            "es": "El Encargado informará inmediatamente al Responsable si una instrucción"
            " infringe el RGPD.",
            "it": "Il Responsabile informa immediatamente il Titolare qualora un'istruzione"
            " violi il GDPR.",
        },
    ),
    (
        "transfers",
        "weak",
        {
            "en": "Transfers to the United States are made under the standard contractual"
            " clauses of Commission Decision 2010/87/EU.",
            "de": "Übermittlungen in die USA erfolgen auf Grundlage der Standardvertragsklauseln"
            " nach Beschluss 2010/87/EU.",
            "fr": "Les transferts vers les États-Unis reposent sur les clauses contractuelles"
            " types de la décision 2010/87/UE.",
            "es": "Las transferencias a Estados Unidos se basan en las cláusulas contractuales"
            " tipo de la Decisión 2010/87/UE.",
            "it": "I trasferimenti verso gli Stati Uniti si basano sulle clausole contrattuali"
            " tipo della decisione 2010/87/UE.",
        },
    ),
    (
        "transfers",
        "weak",
        {
            "en": "The Processor transfers data to the United States under the EU-US Privacy"
            " Shield.",
            "de": "Der Auftragnehmer übermittelt Daten in die USA auf Grundlage des EU-US"
            " Privacy Shield.",
            "fr": "Le Sous-traitant transfère les données vers les États-Unis sur la base du"
            " Privacy Shield.",
            "es": "El Encargado transfiere los datos a Estados Unidos al amparo del Privacy"
            " Shield.",
            "it": "Il Responsabile trasferisce i dati negli Stati Uniti sulla base del Privacy"
            " Shield.",
        },
    ),
    (
        "transfers",
        "present",
        {
            "en": "Transfers to the United States rest on the standard contractual clauses of"
            " Implementing Decision (EU) 2021/914, Module Two.",
            "de": "Übermittlungen in die USA beruhen auf den Standardvertragsklauseln des"
            " Durchführungsbeschlusses (EU) 2021/914, Modul 2.",
            "fr": "Les transferts vers les États-Unis reposent sur les clauses contractuelles"
            " types de la décision d'exécution (UE) 2021/914, module 2.",
            "es": "Las transferencias a Estados Unidos se basan en las cláusulas contractuales"
            " tipo de la Decisión de Ejecución (UE) 2021/914, módulo 2.",
            "it": "I trasferimenti verso gli Stati Uniti si basano sulle clausole contrattuali"
            " tipo della decisione di esecuzione (UE) 2021/914, modulo 2.",
        },
    ),
    (
        "transfers",
        "present",
        {
            "en": "The recipient in the United States is certified under the EU-US Data Privacy"
            " Framework (Decision (EU) 2023/1795).",
            "de": "Der Empfänger in den USA ist nach dem EU-US Data Privacy Framework"
            " (Beschluss (EU) 2023/1795) zertifiziert.",
            "fr": "Le destinataire aux États-Unis est certifié au titre du cadre de protection"
            " des données UE-États-Unis (décision (UE) 2023/1795).",
            "es": "El destinatario en Estados Unidos está certificado en el Marco de Privacidad"
            " de Datos UE-EE. UU. (Decisión (UE) 2023/1795).",
            "it": "Il destinatario negli Stati Uniti è certificato ai sensi del Data Privacy"
            " Framework UE-USA (decisione (UE) 2023/1795).",
        },
    ),
]


@pytest.mark.parametrize(
    ("item_id", "expected", "clauses"),
    DPA_CLAUSES,
    ids=[f"{item}-{status}-{n}" for n, (item, status, _) in enumerate(DPA_CLAUSES)],
)
def test_it_gives_a_clause_the_same_status_in_every_language(
    item_id: str, expected: str, clauses: dict[str, str]
) -> None:
    statuses = {language: _status(_review(clauses[language]), item_id) for language in LANGUAGES}
    assert statuses == dict.fromkeys(LANGUAGES, expected)


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_quotes_the_weak_wording_verbatim_with_a_finding_naming_the_article(
    language: str,
) -> None:
    clause = DPA_CLAUSES[1][2][language]
    text = f"1. Scope\n\nThis agreement governs the processing.\n\n8. Data breaches\n\n{clause}\n"
    report = _review(text)
    item = next(item for item in report.items if item.item_id == "breach-notification")
    assert item.status is ItemStatus.WEAK
    assert [citation.quote for citation in item.citations] == [clause]
    assert item.citations[0].location == "page 1 · 8. Data breaches"
    assert "Art. 33(2)" in item.finding


def test_it_recognises_the_outdated_instrument_beside_a_current_one() -> None:
    text = (
        "Transfers rest on the standard contractual clauses of Decision (EU) 2021/914.\n"
        "Transfers of HR data rely on the EU-US Privacy Shield.\n"
    )
    report = _review(text)
    assert _status(report, "transfers") == "present"
    assert _status(report, "transfer-instruments") == "weak"
    item = next(item for item in report.items if item.item_id == "transfer-instruments")
    assert [c.quote for c in item.citations] == [
        "Transfers of HR data rely on the EU-US Privacy Shield."
    ]


def test_it_does_not_hold_a_mention_of_a_replaced_instrument_against_the_document() -> None:
    text = (
        "The standard contractual clauses of Decision 2010/87/EU have been replaced by those of"
        " Implementing Decision (EU) 2021/914, Module Two, which apply to every transfer to"
        " the United States.\n"
    )
    assert _status(_review(text), "transfer-instruments") == "present"


def test_it_finds_transfer_items_not_applicable_without_any_transfer() -> None:
    report = _review("The processor processes the data only on documented instructions.")
    assert _status(report, "transfers") == "not-applicable"
    assert _status(report, "transfer-instruments") == "not-applicable"


def test_it_never_guesses_present_from_a_partial_match() -> None:
    # Sub-processors are named, but nothing says how they are authorised.
    report = _review("Sub-processors are listed on our website.")
    assert _status(report, "d-subprocessors") == "needs-human-check"
    assert _status(report, "b-confidentiality") == "missing"


@pytest.mark.parametrize(
    ("item_id", "text", "expected"),
    [
        (
            "withdraw-consent",
            "We process your data to perform our contract with you.",
            "not-applicable",
        ),
        ("withdraw-consent", "We send the newsletter with your consent.", "missing"),
        (
            "withdraw-consent",
            "We send the newsletter with your consent. You may withdraw your consent at any time.",
            "present",
        ),
        ("legitimate-interests", "We process your data to perform our contract.", "not-applicable"),
        (
            "legitimate-interests",
            "The legal basis is our legitimate interest.",
            "weak",
        ),
        (
            "legitimate-interests",
            "The legal basis is our legitimate interest in preventing fraud.",
            "present",
        ),
        ("source", "You give us your data when you register.", "not-applicable"),
        ("source", "We obtain your data from publicly available sources.", "present"),
    ],
)
def test_it_decides_the_conditional_items_of_a_privacy_notice(
    item_id: str, text: str, expected: str
) -> None:
    assert _status(_review(text, PRIVACY), item_id) == expected


def test_it_quotes_a_sentence_shared_by_two_overlapping_passages_once() -> None:
    sentence = (
        "The Processor shall notify the Controller of any personal data breach without undue delay."
    )
    first = f"7. Security\n\nThe Processor encrypts data at rest. {sentence}"
    second = f"{sentence} It provides the information of Article 33(3)."
    passages = [
        Passage(index=0, text=first, location="page 2"),
        Passage(index=1, text=second, location="page 3"),
    ]
    report = review_document(document_type=DPA, passages=passages, report_language="en")
    item = next(item for item in report.items if item.item_id == "breach-notification")
    assert [citation.quote for citation in item.citations] == [sentence]
    assert item.citations[0].location == "page 2 · 7. Security"


def test_it_carries_the_heading_of_an_earlier_passage_and_translates_the_page() -> None:
    passages = [
        Passage(
            index=0,
            text="§ 5 Unterauftragsverhältnisse\n\nDie Liste steht im Anhang.",
            location="page 3",
        ),
        Passage(
            index=1,
            text="Der Auftraggeber erteilt eine allgemeine Genehmigung zur Beauftragung"
            " weiterer Auftragsverarbeiter.",
            location="page 4",
        ),
    ]
    report = review_document(document_type=DPA, passages=passages, report_language="de")
    item = next(item for item in report.items if item.item_id == "d-subprocessors")
    assert item.citations[0].location == "Seite 4 · § 5 Unterauftragsverhältnisse"


@pytest.mark.parametrize(
    ("line", "heading"),
    [
        ("7. Sub-processors", "7. Sub-processors"),
        ("Clause 7", "Clause 7"),
        ("§ 5 Unterauftragsverhältnisse", "§ 5 Unterauftragsverhältnisse"),
        (
            "Article 5 \u2013 Sous-traitance ultérieure",
            "Article 5 \u2013 Sous-traitance ultérieure",
        ),
        ("Art. 5 Subencargados", "Art. 5 Subencargados"),
        ("## Audits {#h-audits}", "Audits"),
        ("ARTICLE 12 - TERMINATION", "ARTICLE 12 - TERMINATION"),
        ("7.1 The Processor shall inform the Controller of any change.", None),
        ("1 Market St, San Francisco", None),
    ],
)
def test_it_recognises_section_headings(line: str, heading: str | None) -> None:
    assert heading_of(line) == heading


def _own_dpa_passages(language: str) -> tuple[str, list[Passage]]:
    spec = gdpr.get_document_type(DPA)
    markdown = gdpr.compose(
        document_type=spec,
        inputs=FULL_INPUTS[DPA],
        answers=FULL_ANSWERS[DPA],
        organization_name="Round Trip DPO",
        now=FIXED_NOW,
        language=language,
    )
    chunks = chunk_segments([Segment(markdown, None)], size=1000, overlap=150)
    return markdown, [Passage(index=c.index, text=c.text, location="") for c in chunks]


ART_28_3 = (
    "subject-matter",
    "duration",
    "nature-purpose",
    "data-types",
    "data-subjects",
    "controller-rights",
    "a-instructions",
    "b-confidentiality",
    "c-security",
    "d-subprocessors",
    "e-dsr-assistance",
    "f-compliance-assistance",
    "g-deletion",
    "h-audits",
    "infringing-instructions",
)


@pytest.mark.parametrize("language", ["en", "de"])
def test_it_finds_every_art_28_3_item_of_our_own_dpa_in_its_own_clause(language: str) -> None:
    markdown, passages = _own_dpa_passages(language)
    report = review_document(document_type=DPA, passages=passages, report_language=language)
    items = {item.item_id: item for item in report.items}
    headings = {
        line.split("{#")[1].rstrip("}"): heading_of(line)
        for line in markdown.splitlines()
        if line.startswith("### ") and "{#" in line
    }
    assert report.document_language == language
    for item_id in ART_28_3:
        item = items[item_id]
        assert item.status is ItemStatus.PRESENT, (item_id, item.finding)
        assert item.citations[0].location == headings[item_id], item_id
        assert all(is_verbatim(c.quote, passages) for c in item.citations)
    assert report.verdict.value == "no-gaps"


def test_it_reviews_a_long_dpa_well_within_the_time_budget() -> None:
    spec = gdpr.get_document_type(DPA)
    copies = [
        gdpr.compose(
            document_type=spec,
            inputs=FULL_INPUTS[DPA],
            answers=FULL_ANSWERS[DPA],
            organization_name=f"Copy {number}",
            now=FIXED_NOW,
            language=LANGUAGES[number % len(LANGUAGES)],
        )
        for number in range(12)
    ]
    text = "\n\n".join(copies)
    assert len(text.encode()) > 150_000
    passages = [
        Passage(index=c.index, text=c.text, location="")
        for c in chunk_segments([Segment(text, None)])
    ]
    started = time.perf_counter()
    review_document(document_type=DPA, passages=passages, report_language="en")
    assert time.perf_counter() - started < 15


@pytest.mark.parametrize("document_type", REVIEWABLE_TYPES)
def test_every_item_has_its_texts_and_its_questions_in_every_language(document_type: str) -> None:
    rules = checklist(document_type)
    for item in rules.items:
        assert (document_type, item.id) in LABELS
        assert all(rule.id in WEAK for rule in item.weak)
        if item.applies_when:
            assert item.id in NOT_APPLICABLE
    for language in LANGUAGES:
        queries = item_queries(document_type=document_type, language=language)
        assert set(queries) == {item.id for item in rules.items}
        assert all(queries.values())
