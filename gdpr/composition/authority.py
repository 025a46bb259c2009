"""The competent supervisory authority of a breach notification, named from the table.

The writer names the authority the user gave (`supervisoryAuthority`); without one, the
controller's country names it (`gdpr.authorities`): the `country` input, else
`companyDetails.country`, else a country named in `companyDetails.address` (or a plain-text
`companyDetails`). Germany needs the Land: `region`, `companyDetails.region`/`state`/`land`,
or a Land named in the address (Hamburg, Berlin, Bremen are cities and Länder).
"""

from __future__ import annotations

from gdpr.authorities import CompetentAuthority, competent_authority
from gdpr.composition.context import CompositionContext
from gdpr.composition.inputs import CompanyDetails
from gdpr.composition.markdown import escape_inline, to_be_completed
from gdpr.i18n import N_, _, current_language

GENERIC_NAME = N_("the competent supervisory authority")
_REGION_KEYS = ("region", "state", "land", "bundesland")


def _details_text(details: CompanyDetails, *keys: str) -> str:
    found = (details.get(key) for key in keys)
    return " ".join(str(value) for value in found if isinstance(value, str) and value)


def located_authority(context: CompositionContext) -> CompetentAuthority | None:
    """The authority of the controller's country (and Land), or None when not known."""
    if context.value("supervisoryAuthority"):
        return None  # the user named it
    details = context.value("companyDetails")
    details = details if isinstance(details, CompanyDetails) else None
    region = str(context.value("region") or "")
    candidates = [str(context.value("country") or "")]
    if details is not None:
        region = region or _details_text(details, *_REGION_KEYS)
        candidates += [_details_text(details, "country"), details.text or ""]
        candidates.append(_details_text(details, "address"))
    for country in filter(None, candidates):
        found = competent_authority(country, region or None)
        if found is not None:
            # The Land may be in the address even when the country came from elsewhere.
            if found.authority is None and details is not None:
                address = f"{details.text or ''} {_details_text(details, 'address')}"
                found = competent_authority(country, address) or found
            return found
    return None


def authority_name(context: CompositionContext) -> str:
    """The authority as the deadline sentence names it."""
    found = located_authority(context)
    if found is None or found.authority is None:
        return _(GENERIC_NAME)
    return escape_inline(found.authority.name)


def authority_block(context: CompositionContext) -> str:
    """Name, address and notification page of the authority found; "" when none is."""
    found = located_authority(context)
    if found is None:
        return ""
    authority = found.authority
    if authority is None:
        return _(
            "**Competent supervisory authority (Art. 55):** {rule} ",
            rule=escape_inline(_(found.rule) if found.rule else ""),
        ) + to_be_completed(_("the Land of the controller's establishment (region)"))
    # The authority's own name, and the English one only in an English document.
    own_name = escape_inline(authority.name)
    if current_language() == "en" and authority.name_en != authority.name:
        own_name += f" ({escape_inline(authority.name_en)})"
    lines = [
        _("**Competent supervisory authority (Art. 55):** {name}", name=own_name),
        _("- Address: {address}", address=escape_inline(authority.address)),
        _("- Breach notification: <{url}>", url=authority.breach_notification),
    ]
    # The table's notes are English only: an English document shows them.
    if authority.note and current_language() == "en":
        lines.append(_("- Note: {note}", note=escape_inline(authority.note)))
    return "\n".join(lines)
