"""Which column holds what: header names of common register templates, in three languages.

The names come from the templates DPOs actually start from: the CNIL's "registre des
activités de traitement", the German "Verzeichnis von Verarbeitungstätigkeiten" templates of
the DSK and Bitkom, and the ICO's documentation template. Headers are compared after
normalisation (case, accents, punctuation, "ß"), exactly first, then by a leading match so
that "Zweck der Verarbeitung (Art. 30 Abs. 1 lit. b)" still reads as the purpose.

A sheet is an activities sheet or a vendors sheet by its headers (plus a hint from its
name): each kind has headers that only it uses ("Legal basis" against "DPA status").
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from enum import StrEnum

from register.importing.reading import Cell, Sheet

HEADER_SEARCH_ROWS = 15
# A leading match only counts for names at least this long ("name" must match exactly).
_MIN_PREFIX_CHARS = 5
# What an error or a plan shows of the headers a sheet has: a sheet may hold 100 headers of
# 10,000 characters each, and echoing them made a 1 MB file a 2 GB error body.
HEADERS_SHOWN = 20
HEADER_SHOWN_CHARS = 100


class SheetKind(StrEnum):
    ACTIVITIES = "activities"
    VENDORS = "vendors"


def normalise(text: str) -> str:
    """Lower case, no accents, "ß" as "ss", punctuation as single spaces."""
    text = unicodedata.normalize("NFKD", str(text).replace("ß", "ss").replace("ẞ", "ss"))
    text = "".join(char for char in text if not unicodedata.combining(char)).lower()
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text).split())


_REFERENCE = (
    "id", "ref", "reference", "ref no", "reference number", "no", "nr", "number", "lfd nr",
    "laufende nummer", "nummer", "kennung", "kennziffer", "n", "no de reference", "numero",
    "identifiant", "ref du traitement", "reference du traitement", "n ref", "no ref",
    "activity id", "vendor id",
    "processor id",
)  # fmt: skip

# Activities sheet: field -> header names (English, German, French).
ACTIVITY_HEADERS: dict[str, tuple[str, ...]] = {
    "reference": _REFERENCE,
    "name": (
        "processing activity",
        "processing activities",
        "name of processing activity",
        "activity",
        "name of the processing",
        "processing",
        "business function",
        "name",
        "verarbeitungstatigkeit",
        "verarbeitungstaetigkeit",
        "bezeichnung der verarbeitungstatigkeit",
        "name der verarbeitungstatigkeit",
        "bezeichnung der verarbeitung",
        "verarbeitung",
        "bezeichnung",
        "verfahren",
        "traitement",
        "nom du traitement",
        "activite de traitement",
        "activite",
        "nom",
        "intitule du traitement",
        "intitule",
        "nom sigle",
        "nom sigle du traitement",
    ),
    "description": (
        "description",
        "description of processing",
        "beschreibung",
        "kurzbeschreibung",
        "beschreibung der verarbeitung",
        "description du traitement",
    ),
    "purposes": (
        "purpose",
        "purposes",
        "purpose of processing",
        "purposes of processing",
        "purpose s",
        "zweck",
        "zwecke",
        "zweck der verarbeitung",
        "zwecke der verarbeitung",
        "zweckbestimmung",
        "finalite",
        "finalites",
        "finalite s",
        "finalite du traitement",
        "finalites du traitement",
        "finalite principale",
        "sous finalite",
        "sous finalite 1",
        "sous finalite 2",
        "sous finalite 3",
        "sous finalite 4",
        "sous finalite 5",
        "sous finalites",
        "finalite s du traitement",
    ),
    "legal_bases": (
        "legal basis",
        "legal bases",
        "lawful basis",
        "lawful basis for processing",
        "article 6 lawful basis",
        "art 6 lawful basis",
        "rechtsgrundlage",
        "rechtsgrundlagen",
        "rechtsgrundlage der verarbeitung",
        "base legale",
        "bases legales",
        "base juridique",
        "fondement juridique",
        "base legale du traitement",
        "fondement legal",
    ),
    "art9_conditions": (
        "article 9 condition",
        "article 9 basis",
        "art 9 condition",
        "special category condition",
        "condition for special category data",
        "article 9 basis for processing special category data",
        "ausnahme nach art 9",
        "rechtsgrundlage art 9",
        "bedingung art 9",
        "ausnahmetatbestand art 9",
        "condition art 9",
        "exception art 9",
        "base legale donnees sensibles",
        "condition de traitement des donnees sensibles",
    ),
    "data_subjects": (
        "data subjects",
        "categories of data subjects",
        "data subject categories",
        "categories of individuals",
        "individuals",
        "betroffene",
        "betroffene personen",
        "kategorien betroffener personen",
        "betroffenengruppen",
        "kreis der betroffenen",
        "kategorien von betroffenen",
        "kategorien der betroffenen personen",
        "betroffenenkategorien",
        "personnes concernees",
        "categories de personnes concernees",
        "categories de personnes",
    ),
    "data_categories": (
        "data categories",
        "categories of personal data",
        "personal data",
        "categories of data",
        "data",
        "datenkategorien",
        "kategorien personenbezogener daten",
        "kategorien von daten",
        "personenbezogene daten",
        "datenarten",
        "kategorien von personenbezogenen daten",
        "kategorien der personenbezogenen daten",
        "datenkategorie",
        "daten",
        "categories de donnees",
        "categories de donnees personnelles",
        "categories de donnees a caractere personnel",
        "donnees traitees",
        "donnees personnelles",
        "donnees",
    ),
    "special_categories": (
        "special categories",
        "special category data",
        "special categories of data",
        "special categories of personal data",
        "besondere kategorien",
        "besondere kategorien personenbezogener daten",
        "besondere datenkategorien",
        "donnees sensibles",
        "categories particulieres de donnees",
        "donnees particulieres",
    ),
    "recipients": (
        "recipients",
        "recipient",
        "categories of recipients",
        "recipient categories",
        "empfanger",
        "empfaenger",
        "kategorien von empfangern",
        "empfangerkategorien",
        "empfanger der daten",
        "destinataires",
        "destinataire",
        "categories de destinataires",
        "destinataires des donnees",
    ),
    "processors": (
        "processors",
        "processor",
        "vendors",
        "service providers",
        "auftragsverarbeiter",
        "eingesetzte auftragsverarbeiter",
        "dienstleister",
        "sous traitants",
        "sous traitant",
        "prestataires",
    ),
    "third_countries": (
        "third country",
        "third countries",
        "transfers to third countries",
        "international transfers",
        "transfer to third country",
        "names of third countries or international organisations",
        "drittland",
        "drittlander",
        "drittlaender",
        "ubermittlung in drittlander",
        "ubermittlung an drittlander",
        "drittlandtransfer",
        "drittlandubermittlung",
        "pays tiers",
        "transferts hors ue",
        "transfert hors ue",
        "transferts de donnees hors ue",
        "transferts vers des pays tiers",
    ),
    "safeguards": (
        "safeguards",
        "safeguard",
        "transfer mechanism",
        "transfer safeguards",
        "safeguards for exceptional transfers",
        "garantien",
        "geeignete garantien",
        "garantien fur drittlandubermittlung",
        "garanties",
        "garanties appropriees",
        "encadrement des transferts",
        "mecanisme de transfert",
    ),
    "retention": (
        "retention",
        "retention period",
        "retention periods",
        "retention schedule",
        "storage period",
        "loschfrist",
        "loeschfrist",
        "loschfristen",
        "aufbewahrungsfrist",
        "aufbewahrungsfristen",
        "speicherdauer",
        "regelfristen fur die loschung",
        "fristen fur die loschung",
        "duree de conservation",
        "durees de conservation",
        "delai de conservation",
        "delais de conservation",
    ),
    "security_measures": (
        "toms",
        "tom",
        "security measures",
        "technical and organisational measures",
        "technical and organizational measures",
        "general description of technical and organisational security measures",
        "technische und organisatorische massnahmen",
        "tom nach art 32",
        "mesures de securite",
        "mesures de securite techniques et organisationnelles",
        "mesures techniques et organisationnelles",
    ),
    "systems": (
        "systems",
        "it systems",
        "applications",
        "software",
        "tools",
        "systeme",
        "it systeme",
        "eingesetzte systeme",
        "eingesetzte software",
        "anwendungen",
        "logiciels",
        "outils",
        "applications utilisees",
    ),
    "owner": (
        "owner",
        "business owner",
        "activity owner",
        "responsible",
        "department",
        "responsible department",
        "verantwortliche stelle",
        "verantwortlich",
        "fachbereich",
        "abteilung",
        "fachverantwortlicher",
        "verantwortliche fachabteilung",
        "ansprechpartner",
        "ansprechpartner fachbereich",
        "verantwortliche abteilung",
        "responsable",
        "service",
        "service responsable",
        "pilote",
        "direction",
    ),
    "role": ("role", "rolle", "controller or processor", "rolle des unternehmens"),
    "joint_controllers": (
        "joint controller",
        "joint controllers",
        "name and contact details of joint controller",
        "gemeinsam verantwortliche",
        "gemeinsam verantwortlicher",
        "responsable conjoint",
        "responsables conjoints",
        "co responsables",
        "co responsable",
    ),
    "consent_withdrawal": (
        "consent withdrawal",
        "withdrawal of consent",
        "how consent is withdrawn",
        "widerruf",
        "widerruf der einwilligung",
        "widerrufsmoglichkeit",
        "retrait du consentement",
        "modalites de retrait du consentement",
    ),
    "next_review_date": (
        "next review",
        "next review date",
        "review date",
        "nachste uberprufung",
        "wiedervorlage",
        "uberprufung am",
        "prochaine revue",
        "date de revision",
        "prochaine revision",
        "date de mise a jour prevue",
    ),
}

# Vendors sheet: field -> header names (English, German, French).
VENDOR_HEADERS: dict[str, tuple[str, ...]] = {
    "reference": _REFERENCE,
    "name": (
        "vendor",
        "vendor name",
        "processor",
        "processor name",
        "name",
        "company",
        "service provider",
        "supplier",
        "recipient",
        "dienstleister",
        "auftragsverarbeiter",
        "name des auftragsverarbeiters",
        "name des dienstleisters",
        "firma",
        "unternehmen",
        "bezeichnung",
        "sous traitant",
        "nom du sous traitant",
        "prestataire",
        "fournisseur",
        "nom",
        "raison sociale",
    ),
    "address": (
        "address",
        "registered address",
        "contact details",
        "anschrift",
        "adresse",
        "kontaktdaten",
        "sitz und anschrift",
        "coordonnees",
    ),
    "country": (
        "country",
        "country of processing",
        "location",
        "land",
        "sitzland",
        "staat",
        "ort der verarbeitung",
        "pays",
        "pays d etablissement",
        "localisation",
    ),
    "role": ("role", "rolle", "type of recipient", "empfangertyp"),
    "services": (
        "services",
        "service",
        "services provided",
        "processing services",
        "subject matter",
        "leistung",
        "leistungen",
        "dienstleistung",
        "leistungsbeschreibung",
        "gegenstand der auftragsverarbeitung",
        "gegenstand",
        "prestations",
        "prestation",
        "services fournis",
        "objet de la sous traitance",
        "objet",
    ),
    "dpa_status": (
        "dpa",
        "dpa status",
        "dpa signed",
        "data processing agreement",
        "art 28 contract",
        "av vertrag",
        "avv",
        "avv status",
        "status avv",
        "auftragsverarbeitungsvertrag",
        "vertrag zur auftragsverarbeitung",
        "contrat de sous traitance",
        "statut dpa",
        "accord de traitement des donnees",
        "contrat art 28",
        "statut du contrat",
    ),
    "dpa_signed_on": (
        "dpa date",
        "dpa signed on",
        "date signed",
        "date of dpa",
        "avv datum",
        "datum avv",
        "unterzeichnet am",
        "abgeschlossen am",
        "vertragsdatum",
        "date de signature",
        "date du contrat",
        "signe le",
    ),
    "sub_processors": (
        "sub processors",
        "subprocessors",
        "sub processor",
        "unterauftragsverarbeiter",
        "sub auftragsverarbeiter",
        "subunternehmer",
        "sous traitants ulterieurs",
        "sous traitants de second rang",
        "sous traitant ulterieur",
    ),
    "transfer_mechanism": (
        "transfer mechanism",
        "transfer safeguard",
        "safeguards",
        "safeguard",
        "transfer safeguards",
        "garantien",
        "geeignete garantien",
        "ubermittlungsgrundlage",
        "garantie drittland",
        "garanties",
        "mecanisme de transfert",
        "encadrement des transferts",
        "garanties appropriees",
    ),
}

# Fields whose values may be spread over several columns; their cells are joined.
MULTI_COLUMN_FIELDS = frozenset(
    {
        "purposes", "data_subjects", "data_categories", "special_categories", "recipients",
        "processors", "third_countries", "security_measures", "systems", "sub_processors",
    }
)  # fmt: skip
_HEADERS = {SheetKind.ACTIVITIES: ACTIVITY_HEADERS, SheetKind.VENDORS: VENDOR_HEADERS}
# Fields that tell the two kinds apart (the others, such as "name" or "role", are shared).
_DISTINCTIVE = {
    kind: set(table) - set(_HEADERS[other])
    for kind, table, other in (
        (SheetKind.ACTIVITIES, ACTIVITY_HEADERS, SheetKind.VENDORS),
        (SheetKind.VENDORS, VENDOR_HEADERS, SheetKind.ACTIVITIES),
    )
}
_VENDOR_SHEET_NAMES = (
    "vendor", "processor", "auftragsverarbeiter", "dienstleister", "sous traitant",
    "prestataire", "supplier", "empfanger", "recipients",
)  # fmt: skip
_LOOKUP = {
    kind: {normalise(name): field for field, names in table.items() for name in names}
    for kind, table in _HEADERS.items()
}
# No known name is longer: only this much of a header can name a field, so a 10,000-character
# cell costs no more to look up than a short one.
_LONGEST_NAME = max(len(name) for lookup in _LOOKUP.values() for name in lookup)
_HEADER_READ_CHARS = 4 * _LONGEST_NAME


def header_key(header: str) -> str:
    """The header as it is compared: normalised, and only as long as a name can be."""
    return normalise(str(header)[:_HEADER_READ_CHARS])[: _LONGEST_NAME + 1]


def field_for(header: str, kind: SheetKind) -> str | None:
    """The field a header names in a sheet of `kind`, or None."""
    return _field_for_key(header_key(header), kind)


def _field_for_key(key: str, kind: SheetKind) -> str | None:
    if not key:
        return None
    lookup = _LOOKUP[kind]
    if key in lookup:
        return lookup[key]
    # The longest known name the header starts with, followed by more words: looked up at
    # each word boundary (longest first) rather than by comparing every name.
    for end in reversed([index for index, char in enumerate(key) if char == " "]):
        if end >= _MIN_PREFIX_CHARS and key[:end] in lookup:
            return lookup[key[:end]]
    return None


def shown_header(header: str) -> str:
    """A header as errors and plans show it: at most HEADER_SHOWN_CHARS characters."""
    text = str(header)
    return text if len(text) <= HEADER_SHOWN_CHARS else text[: HEADER_SHOWN_CHARS - 1] + "…"


@dataclass(slots=True)
class SheetLayout:
    """Where a sheet's header row is and which column holds which field."""

    sheet: str
    kind: SheetKind
    header_row: int
    columns: dict[int, str] = field(default_factory=dict)  # 0-based column -> field
    headers: dict[int, str] = field(default_factory=dict)  # 0-based column -> header text
    ignored: list[str] = field(default_factory=list)  # headers that name nothing known

    def as_dict(self) -> dict[str, object]:
        return {
            "sheet": self.sheet,
            "kind": self.kind.value,
            "headerRow": self.header_row,
            "columns": {
                shown_header(self.headers[column]): name for column, name in self.columns.items()
            },
            "ignoredColumns": [shown_header(header) for header in self.ignored[:HEADERS_SHOWN]],
        }


def _layout(
    sheet: Sheet, row_number: int, cells: tuple[Cell, ...], keys: list[str], kind: SheetKind
) -> SheetLayout:
    layout = SheetLayout(sheet=sheet.name, kind=kind, header_row=row_number)
    taken: set[str] = set()
    for column, cell in enumerate(cells):
        header = str(cell).strip()
        if not header:
            continue
        name = _field_for_key(keys[column], kind)
        layout.headers[column] = header
        # The first column naming a field wins: "Name" after "Verarbeitungstätigkeit" is
        # then just an unknown column, not a second name. List fields take every column
        # naming them ("Finalité principale", "Sous-finalité 1", "Sous-finalité 2").
        if name is None or (name in taken and name not in MULTI_COLUMN_FIELDS):
            layout.ignored.append(header)
            continue
        taken.add(name)
        layout.columns[column] = name
    return layout


def _score(layout: SheetLayout, sheet_name: str) -> int:
    fields = set(layout.columns.values())
    if "name" not in fields:
        return 0
    score = len(fields & _DISTINCTIVE[layout.kind])
    named_like_vendors = any(word in normalise(sheet_name) for word in _VENDOR_SHEET_NAMES)
    if layout.kind is SheetKind.VENDORS and named_like_vendors:
        score += 1
    return score


def detect_layout(sheet: Sheet) -> SheetLayout | None:
    """The header row and kind of the sheet that fit best, or None for no register sheet.

    The header row is searched among the first HEADER_SEARCH_ROWS non-empty rows, since
    templates put a title, the controller's name and a date above the table.
    """
    best: tuple[int, SheetLayout] | None = None
    for row_number, cells in sheet.rows[:HEADER_SEARCH_ROWS]:
        keys = [header_key(str(cell).strip()) for cell in cells]  # once for both kinds
        for kind in SheetKind:
            layout = _layout(sheet, row_number, cells, keys, kind)
            score = _score(layout, sheet.name)
            # At least two distinctive columns, so that a title row is never a header.
            if score >= 2 and (best is None or score > best[0]):
                best = (score, layout)
    return best[1] if best else None


def headers_found(sheet: Sheet) -> list[str]:
    """The texts of the sheet's first non-empty row (shown when no header row is found): the
    first HEADERS_SHOWN of them, each cut to HEADER_SHOWN_CHARS."""
    for _, cells in sheet.rows[:1]:
        found = [str(cell) for cell in cells if str(cell).strip()]
        return [shown_header(header) for header in found[:HEADERS_SHOWN]]
    return []


# What the error that finds no header row suggests, per kind (the names users recognise).
EXPECTED_HEADERS: dict[str, list[str]] = {
    SheetKind.ACTIVITIES.value: [
        "Processing activity / Verarbeitungstätigkeit / Traitement",
        "Purpose / Zweck / Finalité",
        "Legal basis / Rechtsgrundlage / Base légale",
        "Data subjects / Betroffene Personen / Personnes concernées",
        "Data categories / Datenkategorien / Catégories de données",
        "Recipients / Empfänger / Destinataires",
        "Third country / Drittland / Pays tiers",
        "Retention / Löschfrist / Durée de conservation",
        "TOMs / Technische und organisatorische Maßnahmen / Mesures de sécurité",
        "Owner / Verantwortliche Stelle / Responsable",
        "ID / Nr. / Référence",
    ],
    SheetKind.VENDORS.value: [
        "Vendor / Auftragsverarbeiter / Sous-traitant",
        "Address / Anschrift / Adresse",
        "Country / Land / Pays",
        "Services / Leistungen / Prestations",
        "DPA status / AV-Vertrag / Contrat de sous-traitance",
        "DPA date / AVV-Datum / Date de signature",
        "Sub-processors / Unterauftragsverarbeiter / Sous-traitants ultérieurs",
        "Transfer mechanism / Garantien / Garanties",
    ],
}
