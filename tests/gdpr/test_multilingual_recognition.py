"""Legal bases, Art. 9(2) conditions, transfer mechanisms and recipient roles in every language.

A legal conclusion must not depend on the language the DPO writes in: the citation forms of
each language ("Art. 6 Abs. 1 lit. f DSGVO", "article 6, paragraphe 1, point f), du RGPD")
and the words of each language ("berechtigtes Interesse", "intérêt légitime") name the same
codes as the English forms.
"""

from __future__ import annotations

import pytest

from gdpr.composition.recognition import (
    ART_9_CONDITIONS,
    LEGAL_BASES,
    TRANSFER_SAFEGUARDS,
    RecognisedBasis,
    recognise_legal_basis,
    recognise_role,
    recognise_safeguard,
)
from gdpr.concepts import codes

# How each language cites Art. 6(1)(<letter>) and Art. 9(2)(<letter>): our own documents'
# forms (gdpr.i18n.citations) and the short forms DPOs type.
CITATIONS = [
    "Art. {n}({p})({x})",
    "Art. {n} Abs. {p} lit. {x} DSGVO",
    "Art. {n} Abs. {p} S. 1 lit. {x}",
    "Artikel {n} Absatz {p} Buchstabe {x}",
    "article {n}, paragraphe {p}, point {x}), du RGPD",
    "art. {n}.{p}.{x} RGPD",
    "artículo {n}, apartado {p}, letra {x}), del RGPD",
    "art. {n}.{p} {x}) RGPD",
    "articolo {n}, paragrafo {p}, lettera {x}), del GDPR",
    "art. {n}, par. {p}, lett. {x}) GDPR",
    "art. {n} ust. {p} lit. {x} RODO",
    "artikel {n}, lid {p}, onder {x}, AVG",
]


@pytest.mark.parametrize("form", CITATIONS)
@pytest.mark.parametrize(("letter", "code"), list(zip("abcdef", LEGAL_BASES, strict=True)))
def test_an_art_6_citation_in_every_language_names_its_basis(form, letter, code):
    text = form.format(n=6, p=1, x=letter)
    assert recognise_legal_basis(text) == RecognisedBasis(codes=(code,), conditions=())


@pytest.mark.parametrize("form", CITATIONS)
@pytest.mark.parametrize("letter", list(ART_9_CONDITIONS))
def test_an_art_9_citation_in_every_language_names_its_condition(form, letter):
    text = form.format(n=9, p=2, x=letter)
    assert recognise_legal_basis(text) == RecognisedBasis(codes=(), conditions=(letter,))


BASIS_WORDS = {
    "consent": [
        "Einwilligung der betroffenen Person",
        "consentement de la personne concernée",
        "consentimiento del interesado",
        "consenso dell'interessato",
        "toestemming",
        "zgoda osoby",
    ],
    "contract": [
        "Vertragserfüllung",
        "Erfüllung des Arbeitsvertrags",
        "exécution d'un contrat",
        "mesures précontractuelles",
        "ejecución de un contrato",
        "esecuzione di un contratto",
        "uitvoering van een overeenkomst",
        "wykonanie umowy",
    ],
    "legal-obligation": [
        "rechtliche Verpflichtung (§ 147 AO)",
        "gesetzliche Pflicht zur Aufbewahrung",
        "obligation légale",
        "obligación legal",
        "obbligo legale",
        "obbligo di legge",
        "wettelijke verplichting",
        "obowiązek prawny",
    ],
    "vital-interests": [
        "lebenswichtige Interessen",
        "intérêts vitaux de la personne",
        "intérêt vital",
        "interés vital",
        "interessi vitali",
        "vitale belangen",
        "żywotne interesy",
    ],
    "public-task": [
        "Aufgabe im öffentlichen Interesse",
        "öffentliches Interesse",
        "mission d'intérêt public",
        "misión realizada en interés público",
        "interesse pubblico",
        "taak van algemeen belang",
        "interes publiczny",
    ],
    "legitimate-interests": [
        "berechtigtes Interesse",
        "berechtigtes Interesse am Schutz des Eigentums",
        "berechtigte Interessen",
        "intérêt légitime",
        "intérêts légitimes",
        "interés legítimo",
        "intereses legítimos",
        "legittimo interesse",
        "interesse legittimo",
        "gerechtvaardigd belang",
        "prawnie uzasadniony interes",
    ],
}


@pytest.mark.parametrize(
    ("text", "code"), [(text, code) for code, texts in BASIS_WORDS.items() for text in texts]
)
def test_a_basis_named_in_words_of_any_language_is_recognised(text, code):
    assert recognise_legal_basis(text) == RecognisedBasis(codes=(code,), conditions=())


@pytest.mark.parametrize(
    ("text", "letter"),
    [
        ("ausdrückliche Einwilligung", "a"),
        ("consentement explicite", "a"),
        ("consentimiento explícito", "a"),
        ("consenso esplicito", "a"),
        ("Pflichten aus dem Arbeitsrecht und dem Recht der sozialen Sicherheit", "b"),
        ("droit du travail et de la sécurité sociale", "b"),
        ("Derecho laboral y de la seguridad social", "b"),
        ("diritto del lavoro e della sicurezza sociale", "b"),
        ("social security law obligations", "b"),
        ("Arbeitsmedizin", "h"),
        ("Gesundheitsvorsorge", "h"),
        ("médecine du travail", "h"),
        ("medicina del trabajo", "h"),
        ("medicina del lavoro", "h"),
        ("occupational medicine", "h"),
        ("offensichtlich öffentlich gemacht", "e"),
        ("manifestement rendues publiques", "e"),
        ("Geltendmachung von Rechtsansprüchen", "f"),
        ("défense de droits en justice", "f"),
        ("öffentliche Gesundheit", "i"),
        ("santé publique", "i"),
        ("salud pública", "i"),
        ("sanità pubblica", "i"),
        ("wissenschaftliche Forschung", "j"),
        ("fins de recherche scientifique", "j"),
        ("investigación científica", "j"),
        ("ricerca scientifica", "j"),
    ],
)
def test_an_art_9_condition_named_in_words_of_any_language_is_recognised(text, letter):
    found = recognise_legal_basis(text)
    assert found is not None and found.conditions == (letter,)


def test_explicit_consent_names_the_condition_and_consent_itself():
    # Explicit consent is the Art. 6(1)(a) consent as well as the Art. 9(2)(a) condition.
    for text in ("explicit consent", "ausdrückliche Einwilligung", "consenso esplicito"):
        assert recognise_legal_basis(text) == RecognisedBasis(codes=("consent",), conditions=("a",))


def test_words_inside_a_condition_name_no_basis_of_their_own():
    # "... incapable of giving consent" names the Art. 9(2)(c) condition, not consent; the
    # vital interests it also names are the Art. 6(1)(d) basis.
    text = "vital interests of a person physically incapable of giving consent"
    assert recognise_legal_basis(text) == RecognisedBasis(
        codes=("vital-interests",), conditions=("c",)
    )
    assert recognise_legal_basis("personne hors d'état de donner son consentement") == (
        RecognisedBasis(codes=(), conditions=("c",))
    )


def test_a_cited_article_wins_over_words_in_every_language():
    assert recognise_legal_basis(
        "Art. 9 Abs. 2 lit. b DSGVO (Pflichten aus dem Arbeitsrecht, gesetzliche Pflicht)"
    ) == RecognisedBasis(codes=(), conditions=("b",))
    assert recognise_legal_basis("Art. 6 Abs. 1 lit. b DSGVO i.V.m. § 26 BDSG") == RecognisedBasis(
        codes=("contract",), conditions=()
    )


@pytest.mark.parametrize(
    "text",
    [
        "Art. 32 DSGVO",
        "§ 26 BDSG",
        "Art. 16 Abs. 1 lit. a",
        "Art. 9 Abs. 2 i.V.m. § 22 BDSG",  # "i.V.m." is no point (i)
        "articolo 9, paragrafo 2, e articolo 10",  # "e" is "and", not point (e)
        "Auftragsverarbeiter",
        "contractor",
    ],
)
def test_texts_citing_or_naming_no_basis_are_not_recognised(text):
    assert recognise_legal_basis(text) is None


MECHANISMS = {
    "adequacy-decision": [
        "Angemessenheitsbeschluss",
        "décision d'adéquation",
        "decisión de adecuación",
        "decisione di adeguatezza",
        "adequaatheidsbesluit",
        "Art. 45 DSGVO",
        "article 45 du RGPD",
    ],
    "standard-contractual-clauses": [
        "EU-Standardvertragsklauseln",
        "clauses contractuelles types",
        "cláusulas contractuales tipo",
        "clausole contrattuali tipo",
        "SCC",
        "Art. 46 Abs. 2 lit. c DSGVO",
        "article 46, paragraphe 2, point c), du RGPD",
        "artículo 46, apartado 2, letra c), del RGPD",
        "articolo 46, paragrafo 2, lettera c), del GDPR",
    ],
    "binding-corporate-rules": [
        "verbindliche interne Datenschutzvorschriften",
        "règles d'entreprise contraignantes",
        "normas corporativas vinculantes",
        "norme vincolanti d'impresa",
        "BCR",
        "Art. 47 DSGVO",
        "articolo 47 del GDPR",
    ],
    "code-or-certification": [
        "genehmigte Verhaltensregeln",
        "Zertifizierung",
        "code de conduite",
        "código de conducta",
        "certificazione",
        "Art. 46 Abs. 2 lit. f DSGVO",
    ],
    "art-49-derogation": [
        "Ausnahme für bestimmte Fälle",
        "dérogation",
        "excepción para situaciones específicas",
        "deroga",
        "Art. 49 Abs. 1 lit. a DSGVO",
        "artículo 49, apartado 1, letra b), del RGPD",
    ],
    "art-49-compelling-legitimate-interests": [
        "zwingende berechtigte Interessen",
        "intérêts légitimes impérieux",
        "intereses legítimos imperiosos",
        "interessi legittimi cogenti",
        "Art. 49 Abs. 1 UAbs. 2 DSGVO",
        "articolo 49, paragrafo 1, secondo comma, del GDPR",
    ],
    "none": ["keine", "aucune", "ninguna", "nessuna", "Keine."],
}


@pytest.mark.parametrize(
    ("text", "code"), [(text, code) for code, texts in MECHANISMS.items() for text in texts]
)
def test_a_transfer_mechanism_in_any_language_is_recognised(text, code):
    assert recognise_safeguard(text) == code


@pytest.mark.parametrize("text", ["keine Ahnung", "irgendwas", "geeignete Garantien"])
def test_none_is_only_the_whole_text_and_vague_words_name_no_mechanism(text):
    assert recognise_safeguard(text) is None


@pytest.mark.parametrize(
    ("text", "role"),
    [
        ("Auftragsverarbeiter", "processor"),
        ("Unterauftragsverarbeiter", "processor"),
        ("sous-traitant", "processor"),
        ("encargado del tratamiento", "processor"),
        # Italian: the "responsabile del trattamento" is the processor, the "titolare" the
        # controller.
        ("responsabile del trattamento", "processor"),
        ("titolare del trattamento", "controller"),
        ("Verantwortlicher", "controller"),
        ("responsable du traitement", "controller"),
        ("responsable del tratamiento", "controller"),
        ("gemeinsam Verantwortliche", "joint-controller"),
        ("responsables conjoints", "joint-controller"),
        ("corresponsables del tratamiento", "joint-controller"),
        ("contitolari del trattamento", "joint-controller"),
        ("joint controller", "joint-controller"),
        ("interne Abteilung", "internal"),
        ("Behörde", "public-authority"),
        ("Finanzbehörde", "public-authority"),
        ("autorité publique", "public-authority"),
        ("autoridad pública", "public-authority"),
        ("autorità pubblica", "public-authority"),
        ("processor", "processor"),
        ("public-authority", "public-authority"),
        ("international organisation", None),
        ("a friend", None),
    ],
)
def test_a_recipient_role_in_any_language_is_recognised(text, role):
    assert recognise_role(text) == role


def test_the_schemes_hold_exactly_the_codes_the_engine_reasons_with():
    assert set(codes("legal-basis")) == set(LEGAL_BASES)
    assert set(codes("transfer-mechanism")) == set(TRANSFER_SAFEGUARDS)
    assert set(codes("recipient-role")) == {
        "processor", "controller", "joint-controller", "internal", "public-authority"
    }  # fmt: skip
    assert [c.removeprefix("art-9-2-") for c in codes("art9-condition")] == list(ART_9_CONDITIONS)
