"""Third-country transfers as codes: country, recipient, mechanism, adequacy.

The transfers are those every writer lists (`normalize_inputs`: `thirdCountryTransfers` and
the recipients outside the EEA); the adequacy is `transfers.adequacy_decision`'s.
"""

from __future__ import annotations

from typing import TypedDict

from gdpr.composition.context import CompositionContext
from gdpr.composition.inputs import Transfer
from gdpr.composition.transfers import adequacy_decision

# The one country finder of the assessment (concepts too): any country, in any language.
from gdpr.countries import find_country as find_country


class TransferEntry(TypedDict):
    """One transfer: `country` an ISO alpha-2 code (None when not recognised)."""

    country: str | None
    recipient: str | None
    mechanism: str
    adequacy: bool
    # The decision covers only part of the country's recipients (US: certified under the Data
    # Privacy Framework; Canada: PIPEDA organisations): adequacy alone does not show it applies.
    adequacyLimited: bool
    needsSafeguard: bool


def transfer_entries(context: CompositionContext) -> list[TransferEntry]:
    """Every transfer of the inputs, sorted, each once."""
    transfers: list[Transfer] = context.items("thirdCountryTransfers")
    entries = set()
    for transfer in transfers:
        adequacy = adequacy_decision(transfer.country)
        entries.add(
            (
                find_country(transfer.country) or "",
                transfer.recipient or "",
                transfer.safeguard.code,
                adequacy is not None,
                adequacy is not None and adequacy.scope is not None,
                transfer.needs_safeguard,
            )
        )
    return [
        TransferEntry(
            country=country or None,
            recipient=recipient or None,
            mechanism=mechanism,
            adequacy=adequacy,
            adequacyLimited=limited,
            needsSafeguard=needs,
        )
        for country, recipient, mechanism, adequacy, limited, needs in sorted(entries)
    ]
