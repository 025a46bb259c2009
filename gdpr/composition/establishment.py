"""The controller's Member State (and region), whose public holidays end periods later.

Regulation 1182/71 Art. 2(1) and 3(4): a period ending on a public holiday of the Member State
where the action is to be taken ends on the next working day; the controller answers, so its
establishment counts. Read as `gdpr.composition.authority` reads it: the `country` input,
else `companyDetails.country`, else a country named in `companyDetails` (its text or address).
The region: the `region` input, else `companyDetails.region`/`state`/`land`; in Germany also
a Land named in the address.
"""

from __future__ import annotations

from datetime import date

from babel import Locale, UnknownLocaleError

from gdpr.authorities import find_country
from gdpr.composition.context import CompositionContext
from gdpr.composition.inputs import CompanyDetails
from gdpr.composition.periods import HolidayCalendar, holiday_calendar, holiday_region_name
from gdpr.i18n import current_language

_REGION_KEYS = ("region", "state", "land", "bundesland")


def _details_text(details: CompanyDetails, *keys: str) -> str:
    found = (details.get(key) for key in keys)
    return " ".join(str(value) for value in found if isinstance(value, str) and value)


def _dates(values: list[object]) -> set[date]:
    return {
        value if isinstance(value, date) else date.fromisoformat(str(value)) for value in values
    }


def controller_holidays(context: CompositionContext) -> HolidayCalendar:
    """The calendar of the controller's Member State and region when the inputs name them,
    else the common list; with `publicHolidays` added and `workingDays` removed."""
    details = context.value("companyDetails")
    details = details if isinstance(details, CompanyDetails) else None
    region = str(context.value("region") or "")
    candidates = [str(context.value("country") or "")]
    address = ""
    if details is not None:
        region = region or _details_text(details, *_REGION_KEYS)
        address = f"{details.text or ''} {_details_text(details, 'address')}".strip()
        candidates += [_details_text(details, "country"), address]
    country = next((text for text in candidates if text and find_country(text)), None)
    added = _dates(context.items("publicHolidays"))
    working_days = _dates(context.items("workingDays"))
    found = holiday_calendar(
        country=country, region=region or None, added=added, working_days=working_days
    )
    if found.country == "DE" and found.subdivision is None and address:
        # The Land may be named in the address only ("20457 Hamburg, Germany").
        in_address = holiday_calendar(
            country="DE", region=address, added=added, working_days=working_days
        )
        found = in_address if in_address.subdivision else found
    return found


def place_name(calendar: HolidayCalendar) -> str:
    """The Member State in the document's language, with its region: "Deutschland (Bayern)"."""
    if calendar.country is None:
        return ""
    try:
        country = Locale.parse(current_language()).territories.get(calendar.country)
    except (UnknownLocaleError, ValueError):
        country = None
    country = country or calendar.country
    if calendar.subdivision is None:
        return country
    return f"{country} ({holiday_region_name(calendar.country, calendar.subdivision)})"
