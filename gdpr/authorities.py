"""The supervisory authorities of the EEA (Art. 51 GDPR): who receives a breach notification.

Data only, plus lookups: one authority per EU Member State and per EEA EFTA State (Iceland,
Liechtenstein, Norway), each with its official name in its own language, its English name,
postal address, website and the page where a breach is notified (Art. 33). Germany has a
federal authority (the BfDI: federal public bodies, telecommunications and postal services)
and one authority per Land for everybody else, so a German controller's authority depends on
its Land (`GERMAN_STATES`); Spain's AEPD has regional counterparts for the regional public
sector (see `note`). The EDPB keeps the authoritative list of members and of breach forms:
`EDPB_BREACH_PAGE`; check it when an authority moves.

Lookups accept a country (or Land) by its English, German, French, Spanish, Italian or own
name, or its ISO 3166-1 code (alpha-2, alpha-3; "EL" for Greece as the EU writes it), also
inside a longer text such as an address ("Ludwig-Erhard-Straße 22, 20459 Hamburg, Germany").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from gdpr.i18n import N_

EDPB_BREACH_PAGE = "https://www.edpb.europa.eu/notify-data-breach_en"


@dataclass(frozen=True, slots=True)
class SupervisoryAuthority:
    """One authority. `name` is official, in `language` (ISO 639-1; several for Belgium)."""

    country: str  # ISO 3166-1 alpha-2
    name: str
    name_en: str
    language: str
    address: str
    website: str
    # Where a breach is notified: the online form, or the authority's page that explains how.
    breach_notification: str
    region: str | None = None  # the German Land it supervises
    note: str | None = None


# --- countries: ISO alpha-2, alpha-3, then names (en, de, fr, es, it, own language(s)) ---------
COUNTRIES: dict[str, tuple[str, ...]] = {
    "AT": ("AUT", "Austria", "Österreich", "Autriche", "Austria", "Austria"),
    "BE": ("BEL", "Belgium", "Belgien", "Belgique", "Bélgica", "Belgio", "België"),
    "BG": ("BGR", "Bulgaria", "Bulgarien", "Bulgarie", "Bulgaria", "Bulgaria", "България"),
    "HR": ("HRV", "Croatia", "Kroatien", "Croatie", "Croacia", "Croazia", "Hrvatska"),
    "CY": ("CYP", "Cyprus", "Zypern", "Chypre", "Chipre", "Cipro", "Κύπρος", "K\u0131br\u0131s"),
    "CZ": (
        "CZE", "Czechia", "Czech Republic", "Tschechien", "Tchéquie", "Chequia", "Cechia",
        "Česko", "Česká republika",
    ),
    "DK": ("DNK", "Denmark", "Dänemark", "Danemark", "Dinamarca", "Danimarca", "Danmark"),
    "EE": ("EST", "Estonia", "Estland", "Estonie", "Estonia", "Estonia", "Eesti"),
    "FI": ("FIN", "Finland", "Finnland", "Finlande", "Finlandia", "Finlandia", "Suomi"),
    "FR": ("FRA", "France", "Frankreich", "France", "Francia", "Francia"),
    "DE": ("DEU", "Germany", "Deutschland", "Allemagne", "Alemania", "Germania"),
    "GR": ("GRC", "EL", "Greece", "Griechenland", "Grèce", "Grecia", "Grecia", "Ελλάδα", "Hellas"),
    "HU": ("HUN", "Hungary", "Ungarn", "Hongrie", "Hungría", "Ungheria", "Magyarország"),
    "IE": ("IRL", "Ireland", "Irland", "Irlande", "Irlanda", "Irlanda", "Éire"),
    "IT": ("ITA", "Italy", "Italien", "Italie", "Italia", "Italia"),
    "LV": ("LVA", "Latvia", "Lettland", "Lettonie", "Letonia", "Lettonia", "Latvija"),
    "LT": ("LTU", "Lithuania", "Litauen", "Lituanie", "Lituania", "Lituania", "Lietuva"),
    "LU": ("LUX", "Luxembourg", "Luxemburg", "Luxembourg", "Luxemburgo", "Lussemburgo"),
    "MT": ("MLT", "Malta", "Malta", "Malte", "Malta", "Malta"),
    "NL": (
        "NLD", "Netherlands", "The Netherlands", "Niederlande", "Pays-Bas", "Países Bajos",
        "Paesi Bassi", "Nederland", "Holland",
    ),
    "PL": ("POL", "Poland", "Polen", "Pologne", "Polonia", "Polonia", "Polska"),
    "PT": ("PRT", "Portugal", "Portugal", "Portugal", "Portugal", "Portogallo"),
    "RO": ("ROU", "Romania", "Rumänien", "Roumanie", "Rumanía", "Romania", "România"),
    "SK": (
        "SVK", "Slovakia", "Slovak Republic", "Slowakei", "Slovaquie", "Eslovaquia",
        "Slovacchia", "Slovensko",
    ),
    "SI": ("SVN", "Slovenia", "Slowenien", "Slovénie", "Eslovenia", "Slovenia", "Slovenija"),
    "ES": ("ESP", "Spain", "Spanien", "Espagne", "España", "Spagna"),
    "SE": ("SWE", "Sweden", "Schweden", "Suède", "Suecia", "Svezia", "Sverige"),
    "IS": ("ISL", "Iceland", "Island", "Islande", "Islandia", "Islanda", "Ísland"),
    "LI": ("LIE", "Liechtenstein", "Liechtenstein", "Liechtenstein", "Liechtenstein"),
    "NO": ("NOR", "Norway", "Norwegen", "Norvège", "Noruega", "Norvegia", "Norge", "Noreg"),
}  # fmt: skip

# The German Länder: key (German name) -> other names (en, fr, es, it).
GERMAN_STATES: dict[str, tuple[str, ...]] = {
    "Baden-Württemberg": ("Bade-Wurtemberg",),
    "Bayern": ("Bavaria", "Bavière", "Baviera", "Freistaat Bayern"),
    "Berlin": ("Berlino", "Berlín"),
    "Brandenburg": ("Brandebourg", "Brandeburgo"),
    "Bremen": ("Brême", "Brema", "Bremerhaven"),
    "Hamburg": ("Hambourg", "Hamburgo", "Amburgo"),
    "Hessen": ("Hesse", "Assia"),
    "Mecklenburg-Vorpommern": (
        "Mecklenburg-Western Pomerania", "Mecklembourg-Poméranie-Occidentale",
        "Mecklemburgo-Pomerania Occidental", "Meclemburgo-Pomerania Anteriore",
    ),
    "Niedersachsen": ("Lower Saxony", "Basse-Saxe", "Baja Sajonia", "Bassa Sassonia"),
    "Nordrhein-Westfalen": (
        "North Rhine-Westphalia", "NRW", "Rhénanie-du-Nord-Westphalie",
        "Renania del Norte-Westfalia", "Renania Settentrionale-Vestfalia",
    ),
    "Rheinland-Pfalz": (
        "Rhineland-Palatinate", "Rhénanie-Palatinat", "Renania-Palatinado", "Renania-Palatinato",
    ),
    "Saarland": ("Sarre", "Saarland", "Sarre", "Saarland"),
    "Sachsen": ("Saxony", "Saxe", "Sajonia", "Sassonia", "Freistaat Sachsen"),
    "Sachsen-Anhalt": ("Saxony-Anhalt", "Saxe-Anhalt", "Sajonia-Anhalt", "Sassonia-Anhalt"),
    "Schleswig-Holstein": ("Schleswig-Holstein",),
    "Thüringen": ("Thuringia", "Thuringe", "Turingia", "Turingia"),
}  # fmt: skip

_DE_NOTE = N_(
    "Germany: the authority of the Land of the controller's (main) establishment supervises"
    " companies and the Land's public bodies; the BfDI supervises federal public bodies and"
    " telecommunications and postal services."
)

# --- the national authorities ------------------------------------------------------------------
NATIONAL_AUTHORITIES: dict[str, SupervisoryAuthority] = {
    authority.country: authority
    for authority in (
        SupervisoryAuthority(
            "AT", "Österreichische Datenschutzbehörde", "Austrian Data Protection Authority",
            "de", "Barichgasse 40-42, 1030 Wien, Österreich", "https://www.dsb.gv.at",
            "https://www.dsb.gv.at",
        ),
        SupervisoryAuthority(
            "BE",
            "Autorité de protection des données / Gegevensbeschermingsautoriteit /"
            " Datenschutzbehörde",
            "Belgian Data Protection Authority", "fr, nl, de",
            "Rue de la Presse 35 / Drukpersstraat 35, 1000 Bruxelles / Brussel, Belgique",
            "https://www.autoriteprotectiondonnees.be",
            "https://www.autoriteprotectiondonnees.be",
        ),
        SupervisoryAuthority(
            "BG", "Комисия за защита на личните данни",
            "Commission for Personal Data Protection", "bg",
            "бул. „Проф. Цветан Лазаров“ № 2, 1592 София, България", "https://www.cpdp.bg",
            "https://www.cpdp.bg",
        ),
        SupervisoryAuthority(
            "HR", "Agencija za zaštitu osobnih podataka",
            "Croatian Personal Data Protection Agency", "hr",
            "Selska cesta 136, 10000 Zagreb, Hrvatska", "https://azop.hr", "https://azop.hr",
        ),
        SupervisoryAuthority(
            "CY", "Γραφείο Επιτρόπου Προστασίας Δεδομένων Προσωπικού Χαρακτήρα",
            "Office of the Commissioner for Personal Data Protection", "el",
            "Ιάσονος 1, 1082 Λευκωσία, Κύπρος", "https://www.dataprotection.gov.cy",
            "https://www.dataprotection.gov.cy",
        ),
        SupervisoryAuthority(
            "CZ", "Úřad pro ochranu osobních údajů", "Office for Personal Data Protection", "cs",
            "Pplk. Sochora 27, 170 00 Praha 7, Česká republika", "https://uoou.gov.cz",
            "https://uoou.gov.cz",
        ),
        SupervisoryAuthority(
            "DK", "Datatilsynet", "Danish Data Protection Agency", "da",
            "Carl Jacobsens Vej 35, 2500 Valby, Danmark", "https://www.datatilsynet.dk",
            "https://www.datatilsynet.dk/english/report-a-breach",
        ),
        SupervisoryAuthority(
            "EE", "Andmekaitse Inspektsioon", "Estonian Data Protection Inspectorate", "et",
            "Tatari 39, 10134 Tallinn, Eesti", "https://www.aki.ee", "https://www.aki.ee",
        ),
        SupervisoryAuthority(
            "FI", "Tietosuojavaltuutetun toimisto", "Office of the Data Protection Ombudsman",
            "fi", "PL 800, 00531 Helsinki, Suomi", "https://tietosuoja.fi",
            "https://tietosuoja.fi",
        ),
        SupervisoryAuthority(
            "FR", "Commission nationale de l'informatique et des libertés (CNIL)",
            "French Data Protection Authority (CNIL)", "fr",
            "3 place de Fontenoy, TSA 80715, 75334 Paris Cedex 07, France",
            "https://www.cnil.fr", "https://notifications.cnil.fr/notifications/index",
        ),
        SupervisoryAuthority(
            "DE", "Die Bundesbeauftragte für den Datenschutz und die Informationsfreiheit (BfDI)",
            "Federal Commissioner for Data Protection and Freedom of Information", "de",
            "Graurheindorfer Straße 153, 53117 Bonn, Deutschland", "https://www.bfdi.bund.de",
            "https://www.bfdi.bund.de", note=_DE_NOTE,
        ),
        SupervisoryAuthority(
            "GR", "Αρχή Προστασίας Δεδομένων Προσωπικού Χαρακτήρα",
            "Hellenic Data Protection Authority", "el",
            "Λεωφόρος Κηφισίας 1-3, 115 23 Αθήνα, Ελλάδα", "https://www.dpa.gr",
            "https://www.dpa.gr",
        ),
        SupervisoryAuthority(
            "HU", "Nemzeti Adatvédelmi és Információszabadság Hatóság (NAIH)",
            "Hungarian National Authority for Data Protection and Freedom of Information", "hu",
            "Falk Miksa utca 9-11, 1055 Budapest, Magyarország", "https://naih.hu",
            "https://naih.hu",
        ),
        SupervisoryAuthority(
            "IE", "An Coimisiún um Chosaint Sonraí / Data Protection Commission",
            "Data Protection Commission", "ga, en",
            "21 Fitzwilliam Square South, Dublin 2, D02 RD28, Ireland",
            "https://www.dataprotection.ie", "https://www.dataprotection.ie",
        ),
        SupervisoryAuthority(
            "IT", "Garante per la protezione dei dati personali",
            "Italian Data Protection Authority", "it",
            "Piazza Venezia 11, 00187 Roma, Italia", "https://www.garanteprivacy.it",
            "https://servizi.gpdp.it/databreach/s/",
        ),
        SupervisoryAuthority(
            "LV", "Datu valsts inspekcija", "Data State Inspectorate", "lv",
            "Elijas iela 17, Rīga, LV-1050, Latvija", "https://www.dvi.gov.lv",
            "https://www.dvi.gov.lv",
        ),
        SupervisoryAuthority(
            "LT", "Valstybinė duomenų apsaugos inspekcija",
            "State Data Protection Inspectorate", "lt",
            "L. Sapiegos g. 17, 10312 Vilnius, Lietuva", "https://vdai.lrv.lt",
            "https://vdai.lrv.lt",
        ),
        SupervisoryAuthority(
            "LU", "Commission nationale pour la protection des données (CNPD)",
            "National Commission for Data Protection", "fr",
            "15, boulevard du Jazz, L-4370 Belvaux, Luxembourg", "https://cnpd.public.lu",
            "https://cnpd.public.lu",
        ),
        SupervisoryAuthority(
            "MT", "Office of the Information and Data Protection Commissioner (IDPC)",
            "Office of the Information and Data Protection Commissioner", "en, mt",
            "Floor 2, Airways House, Triq Il-Kappillan Mifsud, Tas-Sliema SLM 1549, Malta",
            "https://idpc.org.mt", "https://idpc.org.mt/report-a-breach/",
        ),
        SupervisoryAuthority(
            "NL", "Autoriteit Persoonsgegevens", "Dutch Data Protection Authority", "nl",
            "Postbus 93374, 2509 AJ Den Haag, Nederland",
            "https://www.autoriteitpersoonsgegevens.nl",
            "https://datalekken.autoriteitpersoonsgegevens.nl",
        ),
        SupervisoryAuthority(
            "PL", "Prezes Urzędu Ochrony Danych Osobowych (UODO)",
            "President of the Personal Data Protection Office", "pl",
            "ul. Stawki 2, 00-193 Warszawa, Polska", "https://uodo.gov.pl",
            "https://uodo.gov.pl",
        ),
        SupervisoryAuthority(
            "PT", "Comissão Nacional de Proteção de Dados (CNPD)",
            "National Data Protection Commission", "pt",
            "Av. D. Carlos I, 134, 1.º, 1200-651 Lisboa, Portugal", "https://www.cnpd.pt",
            "https://www.cnpd.pt",
        ),
        SupervisoryAuthority(
            "RO",
            "Autoritatea Națională de Supraveghere a Prelucrării Datelor cu Caracter Personal"
            " (ANSPDCP)",
            "National Supervisory Authority for Personal Data Processing", "ro",
            "B-dul G-ral. Gheorghe Magheru 28-30, Sector 1, 010336 București, România",
            "https://www.dataprotection.ro", "https://www.dataprotection.ro",
        ),
        SupervisoryAuthority(
            "SK", "Úrad na ochranu osobných údajov Slovenskej republiky",
            "Office for Personal Data Protection of the Slovak Republic", "sk",
            "Hraničná 12, 820 07 Bratislava 27, Slovensko", "https://dataprotection.gov.sk",
            "https://dataprotection.gov.sk",
        ),
        SupervisoryAuthority(
            "SI", "Informacijski pooblaščenec", "Information Commissioner", "sl",
            "Dunajska cesta 22, 1000 Ljubljana, Slovenija", "https://www.ip-rs.si",
            "https://www.ip-rs.si",
        ),
        SupervisoryAuthority(
            "ES", "Agencia Española de Protección de Datos (AEPD)",
            "Spanish Data Protection Agency", "es",
            "C/ Jorge Juan, 6, 28001 Madrid, España", "https://www.aepd.es",
            "https://sedeagpd.gob.es",
            note=(
                "Spain: the AEPD supervises companies everywhere in Spain. The regional"
                " authorities supervise their region's public sector: Autoritat Catalana de"
                " Protecció de Dades (Catalonia), Agencia Vasca de Protección de Datos /"
                " Datuak Babesteko Euskal Bulegoa (Basque Country), Consejo de Transparencia y"
                " Protección de Datos de Andalucía (Andalusia)."
            ),
        ),
        SupervisoryAuthority(
            "SE", "Integritetsskyddsmyndigheten (IMY)", "Swedish Authority for Privacy Protection",
            "sv", "Box 8114, 104 20 Stockholm, Sverige", "https://www.imy.se",
            "https://www.imy.se",
        ),
        SupervisoryAuthority(
            "IS", "Persónuvernd", "Icelandic Data Protection Authority", "is",
            "Rauðarárstígur 10, 105 Reykjavík, Ísland", "https://www.personuvernd.is",
            "https://www.personuvernd.is",
        ),
        SupervisoryAuthority(
            "LI", "Datenschutzstelle Liechtenstein", "Data Protection Authority Liechtenstein",
            "de", "Städtle 38, Postfach 684, 9490 Vaduz, Liechtenstein",
            "https://www.datenschutzstelle.li", "https://www.datenschutzstelle.li",
        ),
        SupervisoryAuthority(
            "NO", "Datatilsynet", "Norwegian Data Protection Authority", "no",
            "Postboks 458 Sentrum, 0105 Oslo, Norge", "https://www.datatilsynet.no",
            "https://www.datatilsynet.no",
        ),
    )
}  # fmt: skip


def _land(region: str, name: str, name_en: str, address: str, website: str) -> SupervisoryAuthority:
    return SupervisoryAuthority(
        "DE", name, name_en, "de", f"{address}, Deutschland", website, website, region=region
    )


# --- the authorities of the German Länder (for companies established there) --------------------
GERMAN_STATE_AUTHORITIES: dict[str, SupervisoryAuthority] = {
    authority.region or "": authority
    for authority in (
        _land(
            "Baden-Württemberg",
            "Der Landesbeauftragte für den Datenschutz und die Informationsfreiheit"
            " Baden-Württemberg",
            "State Commissioner for Data Protection and Freedom of Information Baden-Württemberg",
            "Lautenschlagerstraße 20, 70173 Stuttgart",
            "https://www.baden-wuerttemberg.datenschutz.de",
        ),
        SupervisoryAuthority(
            "DE", "Bayerisches Landesamt für Datenschutzaufsicht (BayLDA)",
            "Bavarian Data Protection Authority (private sector)", "de",
            "Promenade 18, 91522 Ansbach, Deutschland", "https://www.lda.bayern.de",
            "https://www.lda.bayern.de", region="Bayern",
            note=(
                "Bavaria's public bodies: Der Bayerische Landesbeauftragte für den Datenschutz,"
                " Wagmüllerstraße 18, 80538 München."
            ),
        ),
        _land(
            "Berlin", "Berliner Beauftragte für Datenschutz und Informationsfreiheit",
            "Berlin Commissioner for Data Protection and Freedom of Information",
            "Alt-Moabit 59-61, 10555 Berlin", "https://www.datenschutz-berlin.de",
        ),
        _land(
            "Brandenburg",
            "Die Landesbeauftragte für den Datenschutz und für das Recht auf Akteneinsicht"
            " Brandenburg",
            "State Commissioner for Data Protection and the Right of Access to Files Brandenburg",
            "Stahnsdorfer Damm 77, 14532 Kleinmachnow", "https://www.lda.brandenburg.de",
        ),
        _land(
            "Bremen",
            "Die Landesbeauftragte für Datenschutz und Informationsfreiheit der Freien"
            " Hansestadt Bremen",
            "State Commissioner for Data Protection and Freedom of Information Bremen",
            "Arndtstraße 1, 27570 Bremerhaven", "https://www.datenschutz.bremen.de",
        ),
        _land(
            "Hamburg", "Der Hamburgische Beauftragte für Datenschutz und Informationsfreiheit",
            "Hamburg Commissioner for Data Protection and Freedom of Information",
            "Ludwig-Erhard-Straße 22, 20459 Hamburg", "https://datenschutz-hamburg.de",
        ),
        _land(
            "Hessen", "Der Hessische Beauftragte für Datenschutz und Informationsfreiheit",
            "Hessian Commissioner for Data Protection and Freedom of Information",
            "Gustav-Stresemann-Ring 1, 65189 Wiesbaden", "https://datenschutz.hessen.de",
        ),
        _land(
            "Mecklenburg-Vorpommern",
            "Der Landesbeauftragte für Datenschutz und Informationsfreiheit"
            " Mecklenburg-Vorpommern",
            "State Commissioner for Data Protection and Freedom of Information"
            " Mecklenburg-Western Pomerania",
            "Werderstraße 74a, 19055 Schwerin", "https://www.datenschutz-mv.de",
        ),
        _land(
            "Niedersachsen", "Der Landesbeauftragte für den Datenschutz Niedersachsen",
            "State Commissioner for Data Protection Lower Saxony",
            "Prinzenstraße 5, 30159 Hannover", "https://lfd.niedersachsen.de",
        ),
        _land(
            "Nordrhein-Westfalen",
            "Landesbeauftragte für Datenschutz und Informationsfreiheit Nordrhein-Westfalen",
            "State Commissioner for Data Protection and Freedom of Information"
            " North Rhine-Westphalia",
            "Kavalleriestraße 2-4, 40213 Düsseldorf", "https://www.ldi.nrw.de",
        ),
        _land(
            "Rheinland-Pfalz",
            "Der Landesbeauftragte für den Datenschutz und die Informationsfreiheit"
            " Rheinland-Pfalz",
            "State Commissioner for Data Protection and Freedom of Information"
            " Rhineland-Palatinate",
            "Hintere Bleiche 34, 55116 Mainz", "https://www.datenschutz.rlp.de",
        ),
        _land(
            "Saarland", "Unabhängiges Datenschutzzentrum Saarland",
            "Independent Data Protection Centre Saarland",
            "Fritz-Dobisch-Straße 12, 66111 Saarbrücken", "https://www.datenschutz.saarland.de",
        ),
        _land(
            "Sachsen", "Die Sächsische Datenschutz- und Transparenzbeauftragte",
            "Saxon Commissioner for Data Protection and Transparency",
            "Devrientstraße 5, 01067 Dresden", "https://www.datenschutz.sachsen.de",
        ),
        _land(
            "Sachsen-Anhalt", "Landesbeauftragte für den Datenschutz Sachsen-Anhalt",
            "State Commissioner for Data Protection Saxony-Anhalt",
            "Otto-von-Guericke-Straße 34a, 39104 Magdeburg",
            "https://datenschutz.sachsen-anhalt.de",
        ),
        _land(
            "Schleswig-Holstein", "Unabhängiges Landeszentrum für Datenschutz Schleswig-Holstein",
            "Independent Centre for Privacy Protection Schleswig-Holstein",
            "Holstenstraße 98, 24103 Kiel", "https://www.datenschutzzentrum.de",
        ),
        _land(
            "Thüringen",
            "Thüringer Landesbeauftragter für den Datenschutz und die Informationsfreiheit",
            "Thuringian State Commissioner for Data Protection and Freedom of Information",
            "Häßlerstraße 8, 99096 Erfurt", "https://www.tlfdi.de",
        ),
    )
}  # fmt: skip


# --- lookups -----------------------------------------------------------------------------------
def _folded(text: str) -> str:
    """Lower case, accents removed, spaces collapsed: "Österreich " -> "osterreich"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(bare.replace("ß", "ss").split())


def _is_code(name: str) -> bool:
    return len(name) <= 3 and name.isupper()


def _finder(
    names: dict[str, Iterable[str]], *, keys: bool = True
) -> list[tuple[re.Pattern[str], str]]:
    """(pattern, key) pairs, longest names first ("Sachsen-Anhalt" before "Sachsen")."""
    pairs = [
        (_folded(name), key)
        for key, others in names.items()
        for name in ((key, *others) if keys else others)
    ]
    pairs.sort(key=lambda pair: len(pair[0]), reverse=True)
    return [
        (re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])"), key)
        for name, key in dict(pairs).items()
    ]


# Names that are also words elsewhere ("Rhode Island"): recognised only as the whole text or
# the last part of an address.
_ALONE_ONLY = frozenset({"island"})
_COUNTRY_NAMES = [
    (pattern, code)
    # Codes ("de", "el", "it", "is") are words of sentences: found whole or at an address's
    # end only (_COUNTRY_CODES), never inside a text.
    for pattern, code in _finder(
        {code: [name for name in names if not _is_code(name)] for code, names in COUNTRIES.items()},
        keys=False,
    )
    if pattern.pattern.split(")", 1)[1].split("(?!", 1)[0] not in _ALONE_ONLY
]
_COUNTRY_ALONE = {
    _folded(name): code
    for code, names in COUNTRIES.items()
    for name in names
    if _folded(name) in _ALONE_ONLY
}
_COUNTRY_CODES = {
    _folded(code): key
    for key, names in COUNTRIES.items()
    for code in (key, *names[:2])
    if _is_code(code)
}
_STATE_NAMES = _finder(dict(GERMAN_STATES))


def find_country(text: str) -> str | None:
    """The ISO alpha-2 code of the EEA country `text` is or names, or None."""
    folded = _folded(text).strip(" .")
    if not folded:
        return None
    if folded in _COUNTRY_CODES:
        return _COUNTRY_CODES[folded]
    for pattern, code in _COUNTRY_NAMES:
        if pattern.search(folded):
            return code
    # A code (or an ambiguous name) at the end of an address: "..., 20459 Hamburg, DE".
    last = re.split(r"[,\n;]", folded)[-1].strip(" .")
    return _COUNTRY_CODES.get(last) or _COUNTRY_ALONE.get(last)


def find_german_state(text: str) -> str | None:
    """The German Land `text` is or names (any of the names in GERMAN_STATES), or None."""
    folded = _folded(text)
    for pattern, state in _STATE_NAMES:
        if pattern.search(folded):
            return state
    return None


def national_authority(country: str) -> SupervisoryAuthority | None:
    """The country's national authority (Germany: the BfDI); None outside the EEA."""
    code = find_country(country)
    return NATIONAL_AUTHORITIES.get(code) if code else None


@dataclass(frozen=True, slots=True)
class CompetentAuthority:
    """The authority for a controller in `country`; `authority` is None when it depends on a
    fact not given (a German controller's Land), and `rule` says how to choose then."""

    country: str
    authority: SupervisoryAuthority | None
    rule: str | None = None


def competent_authority(country: str, region: str | None = None) -> CompetentAuthority | None:
    """The supervisory authority of a company established in `country` (and `region`).

    Germany: the Land's authority when `region` (or `country`, e.g. an address) names a Land;
    otherwise no single authority, and `rule` explains the split. None outside the EEA.
    """
    code = find_country(country)
    if code is None:
        return None
    if code != "DE":
        return CompetentAuthority(country=code, authority=NATIONAL_AUTHORITIES[code])
    state = find_german_state(region or "") or find_german_state(country)
    if state is not None:
        return CompetentAuthority(country=code, authority=GERMAN_STATE_AUTHORITIES[state])
    return CompetentAuthority(country=code, authority=None, rule=_DE_NOTE)


def all_authorities() -> list[SupervisoryAuthority]:
    """Every authority of the table: the national ones, then the German Länder."""
    return [*NATIONAL_AUTHORITIES.values(), *GERMAN_STATE_AUTHORITIES.values()]
