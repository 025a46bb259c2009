"""The review reads text as extraction stores it: a PDF's lines wrapped at the page's margin,
a DOCX's headings without their heading style (gdpr.review.segments), and quotes each item
from its own clause rather than from an annex repeating its words (gdpr.review.engine)."""

from __future__ import annotations

import pytest

from gdpr.review.engine import review_document
from gdpr.review.report import ItemStatus, Passage, is_verbatim
from gdpr.review.segments import heading_of, units_of

DPA = "DATA_PROCESSING_AGREEMENT"

# A PDF page as pypdfium2 gives it: one line per printed line, headings wrapped too.
WRAPPED_PAGE = """DPA · v1 · Draft \u2013 Page 4 of 8
Confidentiality (Art. 28(3)(b))
The processor ensures that persons authorised to process the personal data have committed
themselves to confidentiality or are under an appropriate statutory obligation of confidentiality,
and have access only as needed.
5. End of processing, audits and instructions (Art.
28(3)(g)-(h))
Instructions that infringe data protection law (Art. 28(3) last
subparagraph)
The processor immediately informs the controller if, in its opinion, an instruction infringes the
GDPR or other Union or Member State data protection provisions.
"""
GERMAN_PAGE = """Sicherheit, Verletzungen, Datenschutz-Folgenabschätzung und
vorherige Konsultation (Art. 28 Abs. 3 lit. f DSGVO)
Der Auftragsverarbeiter unterstützt den Verantwortlichen bei der Einhaltung der Pflichten aus
Art. 32 bis 36 DSGVO: Sicherheit der Verarbeitung; Meldung von Verletzungen des Schutzes
personenbezogener Daten an den Verantwortlichen unverzüglich und binnen 24 Stunden nach
Bekanntwerden, mit den Informationen nach Art. 33 Abs. 3 DSGVO; Benachrichtigung der
betroffenen Personen; Datenschutz-Folgenabschätzungen und vorherige Konsultation.
Zuständige Aufsichtsbehörde (Klausel 13 und Anhang I.C der Klauseln): Berliner Beauftragte für
Datenschutz und Informationsfreiheit, Alt-Moabit 59-61, 10555 Berlin, Deutschland
Anhang II: Beschreibung der Verarbeitung (Art. 28 Abs. 3 DSGVO;
Beschluss (EU) 2021/915 Anhang II)
"""


def _units(text: str, location: str = "page 4") -> list[tuple[str, str, bool]]:
    passages = [Passage(index=0, text=text, location=location)]
    return [(unit.text, unit.heading, unit.is_heading) for unit in units_of(passages)]


def test_it_reads_a_sentence_wrapped_over_a_pdfs_lines_as_one_verbatim_unit() -> None:
    units = _units(WRAPPED_PAGE)

    sentence = (
        "The processor ensures that persons authorised to process the personal data have"
        " committed\nthemselves to confidentiality or are under an appropriate statutory"
        " obligation of confidentiality,\nand have access only as needed."
    )
    assert (sentence, "Confidentiality (Art. 28(3)(b))", False) in units
    assert all(text in WRAPPED_PAGE for text, _heading, _is in units)


def test_it_recognises_headings_wrapped_before_or_inside_their_references() -> None:
    headings = [heading for text, heading, is_heading in _units(WRAPPED_PAGE) if is_heading]

    assert headings == [
        "Confidentiality (Art. 28(3)(b))",
        "5. End of processing, audits and instructions (Art. 28(3)(g)-(h))",
        "Instructions that infringe data protection law (Art. 28(3) last subparagraph)",
    ]


def test_a_line_opening_with_an_article_goes_on_with_the_sentence_wrapped_before_it() -> None:
    units = _units(GERMAN_PAGE)
    texts = [text for text, _heading, is_heading in units if not is_heading]

    assert texts[0].startswith(
        "Der Auftragsverarbeiter unterstützt den Verantwortlichen bei der Einhaltung der"
        " Pflichten aus\nArt. 32 bis 36 DSGVO: Sicherheit der Verarbeitung;"
    )
    assert units[-1] == (
        "Anhang II: Beschreibung der Verarbeitung (Art. 28 Abs. 3 DSGVO;\n"
        "Beschluss (EU) 2021/915 Anhang II)",
        "Anhang II: Beschreibung der Verarbeitung (Art. 28 Abs. 3 DSGVO; Beschluss (EU)"
        " 2021/915 Anhang II)",
        True,
    )
    assert texts[-1].endswith("10555 Berlin, Deutschland")


@pytest.mark.parametrize(
    ("line", "heading"),
    [
        ("Confidentiality (Art. 28(3)(b))", "Confidentiality (Art. 28(3)(b))"),
        (
            "Vertraulichkeit (Art. 28 Abs. 3 lit. b DSGVO)",
            "Vertraulichkeit (Art. 28 Abs. 3 lit. b DSGVO)",
        ),
        (
            "Durée (article 28, paragraphe 3, du RGPD)",
            "Durée (article 28, paragraphe 3, du RGPD)",
        ),
        (
            "Annex III: Technical and organisational measures (Art. 28(3)(c), 32; Decision (EU)"
            " 2021/915 Annex III)",
            "Annex III: Technical and organisational measures (Art. 28(3)(c), 32; Decision (EU)"
            " 2021/915 Annex III)",
        ),
        ("The processor assists the controller (Art. 28(3)(e)).", None),
        ("Customers (all of them)", None),
        ("the processing was suspended (Art. 28)", None),
    ],
)  # fmt: skip
def test_a_title_naming_its_provisions_is_a_heading_without_its_heading_style(
    line: str, heading: str | None
) -> None:
    assert heading_of(line) == heading


def test_it_keeps_every_paragraph_of_an_unwrapped_document_on_its_own() -> None:
    # A DOCX paragraph is one line of any length: none goes on in the next one.
    text = (
        "Subject-matter: Hosting of the CRM\n"
        "the controller's customers and prospects whose data the controller uploads to the"
        " service, and the controller's own staff and users of the service of the processor\n"
        + "The processor keeps records. " * 8
        + "\n"
    )
    texts = [unit.text for unit in units_of([Passage(index=0, text=text)])]

    assert texts[0] == "Subject-matter: Hosting of the CRM"
    assert texts[1].startswith("the controller's customers") and "\n" not in texts[1]


def test_an_item_is_quoted_from_its_own_clause_before_an_annex_repeating_its_words() -> None:
    clause = (
        "## 1. Subject-matter and duration\n\n"
        "### Duration\n\nDuration: For the term of the main services agreement\n\n"
    )
    annex = (
        "## Annex II: Description of the processing\n\n"
        "Duration: For the term of the main services agreement\n"
    )
    passages = [Passage(index=0, text=clause), Passage(index=1, text=annex)]

    report = review_document(
        document_type=DPA,
        passages=passages,
        report_language="en",
        retrieved={"duration": [1, 0]},  # retrieval ranks the annex first
    )

    duration = next(item for item in report.items if item.item_id == "duration")
    assert duration.status is ItemStatus.PRESENT
    assert duration.citations[0].location == "Duration"
    assert is_verbatim(duration.citations[0].quote, passages)


def test_a_numbered_clause_whose_first_line_reads_like_a_heading_goes_on_when_wrapped() -> None:
    page = (
        "ARTICLE 7 - SECURITY\n"
        "7.1 The Processor takes the appropriate technical and organisational measures"
        " required by\n"
        "Article 32 GDPR to ensure a level of security appropriate to the risk, as listed in"
        " Sched 2.\n"
        "7.2 The Processor evaluates these measures at least once a year and adapts them to"
        " the\n"
        "technical developments of the state of the art and the risks to the data subjects"
        " rights.\n"
    )
    units = _units(page)

    assert [heading for _text, heading, is_heading in units if is_heading] == [
        "ARTICLE 7 - SECURITY"
    ]
    assert units[1][0].startswith("7.1 The Processor takes") and "Article 32 GDPR" in units[1][0]


@pytest.mark.parametrize(
    "line", ["Séptima. Derechos de los interesados", "Cláusula Undécima - Fin del contrato"]
)
def test_a_clause_numbered_in_words_is_a_heading(line: str) -> None:
    assert heading_of(line) == line
