"""Art. 35(4) lists: processing for which a national supervisory authority requires a DPIA.

A non-exhaustive excerpt (a few entries per list, paraphrased) for the countries most
documents come from; the full list of the authority is named as the source to check.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class NationalList:
    """An authority's Art. 35(4) list: who publishes it, where, and a few of its entries."""

    country: str
    authority: str
    source: str
    entries: tuple[str, ...]


NATIONAL_LISTS: dict[str, NationalList] = {
    "DE": NationalList(
        "Germany",
        "Datenschutzkonferenz (DSK)",
        "DSK, Liste der Verarbeitungstätigkeiten, für die eine DSFA durchzuführen ist (Art. 35"
        " Abs. 4 DS-GVO), version 1.1, 17 October 2018",
        (
            "Extensive processing of biometric data to identify natural persons",
            "Large-scale tracking of the location or behaviour of persons",
            "Monitoring of employees' conduct or performance",
            "Use of artificial intelligence to interact with data subjects or assess them",
        ),
    ),
    "FR": NationalList(
        "France",
        "CNIL",
        "CNIL, deliberation no. 2018-327 of 11 October 2018 adopting the list of processing"
        " operations requiring a DPIA",
        (
            "Biometric processing to recognise persons, including vulnerable persons",
            "Constant monitoring of employees' activity",
            "Large-scale profiling of persons",
            "Processing of location data on a large scale",
        ),
    ),
    "ES": NationalList(
        "Spain",
        "Agencia Española de Protección de Datos (AEPD)",
        "AEPD, Lista de tipos de tratamientos de datos que requieren EIPD (Art. 35.4), 2019",
        (
            "Processing of biometric data to identify a person uniquely",
            "Systematic and exhaustive observation, monitoring or control of data subjects",
            "Processing involving the use of new technologies",
            "Processing of data of vulnerable subjects",
        ),
    ),
    "IT": NationalList(
        "Italy",
        "Garante per la protezione dei dati personali",
        "Garante, provvedimento n. 467 of 11 October 2018, Annex 1",
        (
            "Large-scale evaluation or scoring, including profiling",
            "Systematic monitoring of employees, including by video surveillance",
            "Processing of biometric data",
            "Non-occasional processing of data of vulnerable persons",
        ),
    ),
    "NL": NationalList(
        "Netherlands",
        "Autoriteit Persoonsgegevens (AP)",
        "AP, Besluit inzake lijst van verwerkingen waarvoor een DPIA verplicht is, Staatscourant"
        " 2019, 64418",
        (
            "Large-scale or systematic camera surveillance",
            "Biometric data for identification",
            "Employee monitoring",
            "Location data",
        ),
    ),
    "IE": NationalList(
        "Ireland",
        "Data Protection Commission (DPC)",
        "DPC, List of types of data processing operations which require a DPIA, November 2018",
        (
            "Systematic monitoring of publicly accessible areas on a large scale",
            "Large-scale processing of biometric data",
            "Profiling vulnerable persons, including children",
            "Large-scale processing of location data",
        ),
    ),
    "AT": NationalList(
        "Austria",
        "Datenschutzbehörde (DSB)",
        "DSB, DSFA-V, Federal Law Gazette BGBl. II Nr. 278/2018",
        (
            "Evaluation or scoring, including profiling and prediction",
            "Systematic monitoring, including video surveillance of publicly accessible areas",
            "Processing of biometric data of vulnerable data subjects",
            "Merging of data sets from different processing operations",
        ),
    ),
    "BE": NationalList(
        "Belgium",
        "Autorité de protection des données / Gegevensbeschermingsautoriteit (APD/GBA)",
        "APD/GBA, décision 01/2019 of 16 January 2019, list of processing requiring a DPIA",
        (
            "Biometric data to identify persons uniquely in a publicly accessible area",
            "Large-scale systematic monitoring of persons through cameras",
            "Large-scale processing of data of vulnerable persons, including children",
            "Large-scale processing of location data",
        ),
    ),
}
_NAMES = {entry.country.lower(): code for code, entry in NATIONAL_LISTS.items()}
_ALIASES = {
    "deutschland": "DE",
    "españa": "ES",
    "italia": "IT",
    "nederland": "NL",
    "the netherlands": "NL",
    "österreich": "AT",
    "belgique": "BE",
    "belgië": "BE",
}


def country_code(value: object) -> str | None:
    """'DE', 'Germany', 'deutschland' -> 'DE'; None when not one of the listed countries."""
    text = str(value or "").strip()
    if not text:
        return None
    if text.upper() in NATIONAL_LISTS:
        return text.upper()
    lowered = text.lower()
    return _NAMES.get(lowered) or _ALIASES.get(lowered)
