"""Reading register files and their headers: encodings, delimiters, template header names."""

from __future__ import annotations

import codecs
import io

import pytest
from django.conf import settings
from openpyxl import Workbook

from gdpr.composition.recognition import recognise_safeguard as safeguard
from register.importing.errors import (
    RegisterFileTooLarge,
    RegisterFileType,
    RegisterFileUnreadable,
)
from register.importing.headers import SheetKind, detect_layout, field_for
from register.importing.reading import MAX_ROWS, read_register_file
from register.importing.wording import legal_basis


def csv_sheet(content: bytes):
    (sheet,) = read_register_file(content=content, file_name="register.csv")
    return sheet


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("Traitement,Finalité\nPaie,Salaires\n".encode(), ("Traitement", "Finalité")),
        (
            codecs.BOM_UTF8 + "Traitement;Finalité\nPaie;Salaires\n".encode(),
            ("Traitement", "Finalité"),
        ),
        ("Traitement;Finalité\r\nPaie;Salaires\r\n".encode("cp1252"), ("Traitement", "Finalité")),
        ("Traitement\tFinalité\nPaie\tSalaires\n".encode("utf-16"), ("Traitement", "Finalité")),
    ],
    ids=["utf8-comma", "utf8-bom-semicolon", "cp1252-semicolon", "utf16-tab"],
)
def test_csv_files_are_read_whatever_their_encoding_and_delimiter(content, expected):
    sheet = csv_sheet(content)
    assert sheet.rows[0] == (1, expected)
    assert sheet.rows[1] == (2, ("Paie", "Salaires"))


A, V = SheetKind.ACTIVITIES, SheetKind.VENDORS


@pytest.mark.parametrize(
    ("header", "kind", "field"),
    [
        # The ICO's documentation template.
        ("Business function", A, "name"),
        ("Purpose of processing", A, "purposes"),
        ("Article 6 lawful basis for processing personal data", A, "legal_bases"),
        ("Categories of individuals", A, "data_subjects"),
        ("Retention schedule (if possible)", A, "retention"),
        # The DSK / Bitkom templates.
        ("Zwecke der Verarbeitung", A, "purposes"),
        ("Kategorien von Empfängern", A, "recipients"),
        ("Übermittlung in Drittländer", A, "third_countries"),
        ("LÖSCHFRISTEN", A, "retention"),
        ("Technische und organisatorische Maßnahmen (Art. 32 DSGVO)", A, "security_measures"),
        # The CNIL's register.
        ("Finalité(s) du traitement", A, "purposes"),
        ("Catégories de personnes concernées", A, "data_subjects"),
        ("Durée de conservation", A, "retention"),
        ("N°", A, "reference"),
        # Vendors.
        ("AV-Vertrag", V, "dpa_status"),
        ("Sous-traitants ultérieurs", V, "sub_processors"),
        ("Name", V, "name"),
        ("Name and contact details of joint controller", A, "joint_controllers"),
        ("Umsatz", A, None),
    ],
)  # fmt: skip
def test_headers_of_common_templates_name_their_fields(header, kind, field):
    assert field_for(header, kind) == field


def test_a_sheet_is_read_as_vendors_or_activities_by_its_headers():
    vendors = csv_sheet(b"Name;Country;DPA status;Sub-processors\nAcme;US;signed;\n")
    activities = csv_sheet(b"Name;Purpose;Legal basis\nPayroll;Pay;contract\n")
    title_first = csv_sheet(b"Register 2026\n\nName;Purpose;Legal basis\nPayroll;Pay;contract\n")

    assert detect_layout(vendors).kind is SheetKind.VENDORS
    assert detect_layout(activities).kind is SheetKind.ACTIVITIES
    assert detect_layout(title_first).header_row == 3
    assert detect_layout(csv_sheet(b"Name;Amount\nAcme;3\n")) is None
    german_vendors = csv_sheet(
        b"Auftragsverarbeiter;Anschrift;Land;Leistungen;AVV;Unterauftragsverarbeiter\n"
        b"Acme GmbH;Berlin;Deutschland;Hosting;ja;\n"
    )
    assert detect_layout(german_vendors).kind is SheetKind.VENDORS


@pytest.mark.parametrize(
    ("text", "codes", "conditions"),
    [
        ("Art. 6 Abs. 1 lit. b DSGVO", ("contract",), ()),
        ("Art. 6 Abs. 1 S. 1 lit. f DSGVO", ("legitimate-interests",), ()),
        ("Article 6, paragraphe 1, point a) du RGPD", ("consent",), ()),
        ("Einwilligung", ("consent",), ()),
        ("Intérêt légitime", ("legitimate-interests",), ()),
        ("Art. 9 Abs. 2 lit. h DSGVO i.V.m. § 22 BDSG", (), ("h",)),
        ("Art. 6(1)(c) GDPR", ("legal-obligation",), ()),
        ("§ 26 BDSG", (), ()),
        ("artículo 6, apartado 1, letra f), del RGPD", ("legitimate-interests",), ()),
        ("Interés legítimo", ("legitimate-interests",), ()),
        ("art. 6, par. 1, lett. b) GDPR", ("contract",), ()),
        ("Obbligo di legge", ("legal-obligation",), ()),
        ("articolo 9, paragrafo 2, lettera h), del GDPR", (), ("h",)),
    ],
)
def test_legal_bases_are_recognised_in_german_french_and_english(text, codes, conditions):
    assert legal_basis(text) == (codes, conditions)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Standardvertragsklauseln", "standard-contractual-clauses"),
        ("Clauses contractuelles types (CCT)", "standard-contractual-clauses"),
        ("EU-US Data Privacy Framework", "adequacy-decision"),
        ("Angemessenheitsbeschluss", "adequacy-decision"),
        ("BCR", "binding-corporate-rules"),
        ("cláusulas contractuales tipo", "standard-contractual-clauses"),
        ("decisione di adeguatezza", "adequacy-decision"),
        ("irgendwas", None),
    ],
)
def test_transfer_mechanisms_are_recognised(text, code):
    assert safeguard(text) == code


def test_a_workbook_declaring_a_huge_sheet_is_read_by_its_cells_only():
    workbook = Workbook()
    sheet = workbook.active
    sheet.append(["Verarbeitungstätigkeit", "Zweck", "Rechtsgrundlage"])
    sheet.append(["Lohnabrechnung", "Gehalt", "Art. 6 Abs. 1 lit. b DSGVO"])
    sheet["XFD1048576"] = "far away"
    buffer = io.BytesIO()
    workbook.save(buffer)

    (read,) = read_register_file(content=buffer.getvalue(), file_name="r.xlsx")

    assert [number for number, _ in read.rows] == [1, 2]


def test_files_that_are_not_registers_are_refused_by_content():
    with pytest.raises(RegisterFileType):
        read_register_file(content=b"%PDF-1.7 ...", file_name="register.pdf")
    with pytest.raises(RegisterFileType):
        read_register_file(content=b"\x00\x01\x02binary" * 10, file_name="register.csv")
    with pytest.raises(RegisterFileTooLarge):
        read_register_file(
            content=b"a" * (settings.REGISTER_IMPORT_MAX_BYTES + 1), file_name="register.csv"
        )


def test_a_sheet_longer_than_the_limit_is_refused_rather_than_cut_short():
    rows = "".join(f"Activity {n};Purpose {n}\n" for n in range(MAX_ROWS))
    content = ("Name;Purpose\n" + rows).encode()

    with pytest.raises(RegisterFileUnreadable, match="rows past row"):
        read_register_file(content=content, file_name="register.csv")


def test_the_cnil_template_spreads_purposes_over_several_columns_and_they_are_joined():
    from register.importing.parsing import parse_row

    sheet = csv_sheet(
        "N° / REF;Nom / sigle du traitement;Finalité principale;Sous-finalité 1;"
        "Sous-finalité 2;Catégories de personnes concernées\n"
        "T-07;Recrutement;Gestion des candidatures;Entretiens;;Candidats\n".encode()
    )
    layout = detect_layout(sheet)
    number, cells = sheet.rows[1]

    row = parse_row(layout=layout, row=number, cells=cells, match_vendor=lambda text: None)

    assert (row.reference, row.name) == ("T-07", "Recrutement")
    assert row.values["purposes"] == ["Gestion des candidatures", "Entretiens"]
    assert row.values["data_subjects"] == ["Candidats"]


@pytest.mark.parametrize(
    ("role", "code"),
    [
        ("Auftragsverarbeiter", "processor"),
        ("encargado del tratamiento", "processor"),
        ("responsabile del trattamento", "processor"),  # Italian: the processor
        ("titolare autonomo del trattamento", "controller"),
        ("contitolare", "joint-controller"),
        ("Behörde", "public-authority"),
    ],
)
def test_a_vendor_role_in_any_language_is_read(role, code):
    from register.importing.parsing import parse_row

    sheet = csv_sheet(f"Vendor;Country;Role;DPA status\nAcme;Germany;{role};signed\n".encode())
    layout = detect_layout(sheet)
    number, cells = sheet.rows[1]

    row = parse_row(layout=layout, row=number, cells=cells, match_vendor=lambda text: None)

    assert row.problems == []
    assert row.values["role"] == code
