"""Register headers as DPOs write them, in the five document languages, however they spell
the umlauts ("Löschfristen", "Loeschfristen", "LOESCHFRISTEN" are one header)."""

from __future__ import annotations

import pytest

from register.importing.headers import SheetKind, detect_layout, field_for
from register.importing.reading import read_register_file

A, V = SheetKind.ACTIVITIES, SheetKind.VENDORS


@pytest.mark.parametrize(
    ("header", "kind", "field"),
    [
        # German headers typed without umlauts (ae, oe, ue) or with them, in any case.
        ("Loeschfristen", A, "retention"),
        ("Löschfristen", A, "retention"),
        ("LOESCHFRIST", A, "retention"),
        ("Empfaengerkategorien", A, "recipients"),
        ("Empfängerkategorien", A, "recipients"),
        ("Kategorien von Empfaengern", A, "recipients"),
        ("Uebermittlung in Drittlaender", A, "third_countries"),
        ("Verarbeitungstaetigkeit", A, "name"),
        ("Technische und organisatorische Massnahmen", A, "security_measures"),
        ("Naechste Ueberpruefung", A, "next_review_date"),
        ("Empfaengertyp", V, "role"),
        # Spanish (the AEPD's registro de actividades de tratamiento).
        ("Actividad de tratamiento", A, "name"),
        ("Finalidades del tratamiento", A, "purposes"),
        ("Base jurídica", A, "legal_bases"),
        ("Categorías de interesados", A, "data_subjects"),
        ("Categorías de datos personales", A, "data_categories"),
        ("Categorías de destinatarios", A, "recipients"),
        ("Transferencias internacionales", A, "third_countries"),
        ("Plazos de conservación", A, "retention"),
        ("Medidas técnicas y organizativas", A, "security_measures"),
        ("Encargado del tratamiento", V, "name"),
        ("País", V, "country"),
        ("Subencargados", V, "sub_processors"),
        # Italian (the Garante's registro delle attività di trattamento).
        ("Attività di trattamento", A, "name"),
        ("Finalità del trattamento", A, "purposes"),
        ("Base giuridica", A, "legal_bases"),
        ("Categorie di interessati", A, "data_subjects"),
        ("Categorie di dati personali", A, "data_categories"),
        ("Categorie di destinatari", A, "recipients"),
        ("Trasferimenti verso paesi terzi", A, "third_countries"),
        ("Termini di conservazione", A, "retention"),
        ("Misure di sicurezza tecniche e organizzative", A, "security_measures"),
        ("Responsabile del trattamento", V, "name"),
        ("Paese", V, "country"),
        ("Sub-responsabili", V, "sub_processors"),
        # Art. 30(1)'s own lettering, as the record's XLSX export heads its columns.
        ("(b) Purposes", A, "purposes"),
        ("(f) Time limits for erasure", A, "retention"),
        ("(g) Technical and organisational measures", A, "security_measures"),
    ],
)  # fmt: skip
def test_it_names_the_field_of_a_header_in_any_document_language_and_umlaut_spelling(
    header, kind, field
):
    assert field_for(header, kind) == field


def test_it_reads_a_german_sheet_typed_without_umlauts_as_activities():
    (sheet,) = read_register_file(
        content=(
            b"Verarbeitungstaetigkeit;Zweck;Rechtsgrundlage;Empfaengerkategorien;Loeschfristen\n"
            b"Lohnabrechnung;Gehalt;Art. 6 Abs. 1 lit. b DSGVO;Finanzamt;10 Jahre\n"
        ),
        file_name="verzeichnis.csv",
    )
    layout = detect_layout(sheet)

    assert layout is not None and layout.kind is SheetKind.ACTIVITIES
    assert sorted(layout.columns.values()) == [
        "legal_bases", "name", "purposes", "recipients", "retention",
    ]  # fmt: skip
    assert layout.ignored == []


def test_it_reads_a_vendor_sheet_named_without_umlauts_as_vendors():
    (sheet,) = read_register_file(
        content=b"Name;Land;Leistungen\nAcme GmbH;Deutschland;Hosting\n",
        file_name="Empfaenger.csv",
    )
    layout = detect_layout(sheet)
    assert layout is not None and layout.kind is SheetKind.VENDORS
