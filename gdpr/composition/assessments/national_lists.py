"""Art. 35(4) lists: processing for which a national supervisory authority requires a DPIA.

A non-exhaustive excerpt (a few entries per list, paraphrased) for the countries most
documents come from; the full list of the authority is named as the source to check.
"""

from __future__ import annotations

from dataclasses import dataclass

from gdpr.countries import find_country
from gdpr.i18n import N_


@dataclass(frozen=True, slots=True)
class NationalList:
    """An authority's Art. 35(4) list: who publishes it, where, and a few of its entries."""

    country: str
    authority: str
    source: str
    entries: tuple[str, ...]


NATIONAL_LISTS: dict[str, NationalList] = {
    "DE": NationalList(
        N_("Germany"),
        N_("Datenschutzkonferenz (DSK)"),
        N_(
            "DSK, Liste der Verarbeitungstätigkeiten, für die eine DSFA durchzuführen ist (Art. 35"
            " Abs. 4 DS-GVO), version 1.1, 17 October 2018"
        ),
        (
            N_("Extensive processing of biometric data to identify natural persons"),
            N_("Large-scale tracking of the location or behaviour of persons"),
            N_("Monitoring of employees' conduct or performance"),
            N_("Use of artificial intelligence to interact with data subjects or assess them"),
        ),
    ),
    "FR": NationalList(
        N_("France"),
        "CNIL",
        N_(
            "CNIL, deliberation no. 2018-327 of 11 October 2018 adopting the list of processing"
            " operations requiring a DPIA"
        ),
        (
            N_("Biometric processing to recognise persons, including vulnerable persons"),
            N_("Constant monitoring of employees' activity"),
            N_("Large-scale profiling of persons"),
            N_("Processing of location data on a large scale"),
        ),
    ),
    "ES": NationalList(
        N_("Spain"),
        N_("Agencia Española de Protección de Datos (AEPD)"),
        N_("AEPD, Lista de tipos de tratamientos de datos que requieren EIPD (Art. 35.4), 2019"),
        (
            N_("Processing of biometric data to identify a person uniquely"),
            N_("Systematic and exhaustive observation, monitoring or control of data subjects"),
            N_("Processing involving the use of new technologies"),
            N_("Processing of data of vulnerable subjects"),
        ),
    ),
    "IT": NationalList(
        N_("Italy"),
        N_("Garante per la protezione dei dati personali"),
        N_("Garante, provvedimento n. 467 of 11 October 2018, Annex 1"),
        (
            N_("Large-scale evaluation or scoring, including profiling"),
            N_("Systematic monitoring of employees, including by video surveillance"),
            N_("Processing of biometric data"),
            N_("Non-occasional processing of data of vulnerable persons"),
        ),
    ),
    "NL": NationalList(
        N_("Netherlands"),
        N_("Autoriteit Persoonsgegevens (AP)"),
        N_(
            "AP, Besluit inzake lijst van verwerkingen waarvoor een DPIA verplicht is, "
            "Staatscourant"
            " 2019, 64418"
        ),
        (
            N_("Large-scale or systematic camera surveillance"),
            N_("Biometric data for identification"),
            N_("Employee monitoring"),
            N_("Location data"),
        ),
    ),
    "IE": NationalList(
        N_("Ireland"),
        N_("Data Protection Commission (DPC)"),
        N_("DPC, List of types of data processing operations which require a DPIA, November 2018"),
        (
            N_("Systematic monitoring of publicly accessible areas on a large scale"),
            N_("Large-scale processing of biometric data"),
            N_("Profiling vulnerable persons, including children"),
            N_("Large-scale processing of location data"),
        ),
    ),
    "AT": NationalList(
        N_("Austria"),
        N_("Datenschutzbehörde (DSB)"),
        N_("DSB, DSFA-V, Federal Law Gazette BGBl. II Nr. 278/2018"),
        (
            N_("Evaluation or scoring, including profiling and prediction"),
            N_("Systematic monitoring, including video surveillance of publicly accessible areas"),
            N_("Processing of biometric data of vulnerable data subjects"),
            N_("Merging of data sets from different processing operations"),
        ),
    ),
    "BE": NationalList(
        N_("Belgium"),
        N_("Autorité de protection des données / Gegevensbeschermingsautoriteit (APD/GBA)"),
        N_("APD/GBA, décision 01/2019 of 16 January 2019, list of processing requiring a DPIA"),
        (
            N_("Biometric data to identify persons uniquely in a publicly accessible area"),
            N_("Large-scale systematic monitoring of persons through cameras"),
            N_("Large-scale processing of data of vulnerable persons, including children"),
            N_("Large-scale processing of location data"),
        ),
    ),
}


def country_code(value: object) -> str | None:
    """'DE', 'Germany', 'Deutschland', 'Allemagne', '..., Berlin, Germany' -> 'DE' (any name
    gdpr.countries knows); None when not one of the listed countries."""
    code = find_country(str(value or ""))
    return code if code in NATIONAL_LISTS else None
