"""Which data subject rights apply, given the legal bases of the processing.

The rights of access, rectification, erasure and restriction (Art. 15-18) exist whatever the
basis (each with its own conditions). The others follow the basis:
- portability (Art. 20(1)) only where the basis is consent (6(1)(a), 9(2)(a)) or a contract
  (6(1)(b)) and the processing is carried out by automated means;
- objection on grounds relating to one's particular situation (Art. 21(1)) only where the
  basis is a public task (6(1)(e)) or legitimate interests (6(1)(f)); objection to direct
  marketing (Art. 21(2)-(3)) always, whatever the basis, without giving grounds;
- withdrawal of consent (Art. 7(3)) wherever consent is a basis.
Art. 21(4) requires the objection right to be brought to the data subject's attention
explicitly and separately from any other information: writers give it its own heading.

Unknown bases (none recognised) give `None` for the basis-dependent rights: a writer then
states each right with its condition instead of promising or denying it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from gdpr.concepts import recognise
from gdpr.i18n import _

PORTABILITY_BASES = frozenset({"consent", "contract"})
OBJECTION_BASES = frozenset({"public-task", "legitimate-interests"})


@dataclass(frozen=True, slots=True)
class ApplicableRights:
    """The rights a data subject has for one processing (None = depends on unknown bases)."""

    portability: bool | None
    objection: bool | None
    direct_marketing_objection: bool
    withdraw_consent: bool | None
    bases_known: bool

    @property
    def always(self) -> tuple[str, ...]:
        """Rights that do not depend on the legal basis."""
        return ("access", "rectification", "erasure", "restriction")


def applicable_rights(
    *,
    bases: Collection[str],
    direct_marketing: bool = False,
    automated_processing: bool | None = True,
) -> ApplicableRights:
    """The basis-dependent rights for the Art. 6(1) codes `bases` (see the module docstring).

    `automated_processing` False (paper-only files) rules portability out; None keeps it
    conditional.
    """
    codes = set(bases)
    if not codes:
        return ApplicableRights(
            portability=None,
            objection=None,
            direct_marketing_objection=direct_marketing,
            withdraw_consent=None,
            bases_known=False,
        )
    portability: bool | None = bool(codes & PORTABILITY_BASES)
    if portability and automated_processing is not True:
        portability = None if automated_processing is None else False
    return ApplicableRights(
        portability=portability,
        objection=bool(codes & OBJECTION_BASES),
        direct_marketing_objection=direct_marketing,
        withdraw_consent="consent" in codes,
        bases_known=True,
    )


# Purposes that are direct marketing, in any language (gdpr/concepts purpose.json).
_DIRECT_MARKETING = frozenset({"advertising", "newsletter", "prospects"})


def is_direct_marketing(purposes: Iterable[object]) -> bool:
    """True when a purpose names direct marketing (newsletter, prospection)."""
    return any(_DIRECT_MARKETING & set(recognise("purpose", str(p))) for p in purposes)


def rights_with_articles(
    *,
    codes: set[str],
    explicit_consent: bool,
    automated_means: bool,
    direct_marketing: bool,
) -> list[str]:
    """The rights data subjects can exercise, each with its article (for a DPIA's list).

    Explicit consent under Art. 9(2)(a) counts as consent for portability and withdrawal.
    """
    bases = codes | ({"consent"} if explicit_consent else set())
    applicable = applicable_rights(
        bases=bases, direct_marketing=direct_marketing, automated_processing=automated_means
    )
    rights = [
        _("access (Art. 15)"),
        _("rectification (Art. 16)"),
        _("erasure (Art. 17)"),
        _("restriction of processing (Art. 18)"),
    ]
    if applicable.portability:
        rights.append(_("data portability (Art. 20)"))
    if applicable.objection:
        rights.append(_("object (Art. 21(1)) on grounds relating to their particular situation"))
    if direct_marketing:
        rights.append(
            _("object at any time to direct marketing, without giving reasons (Art. 21(2))")
        )
    if applicable.withdraw_consent:
        rights.append(
            _("withdraw consent at any time (Art. 7(3)), without affecting past processing")
        )
    return rights


def complaint_text(authority: str | None) -> str:
    """Art. 77(1): a complaint may go to any supervisory authority, in particular in the Member
    State of habitual residence, place of work or place of the alleged infringement; the
    competent (or lead) authority given is an example, never the only door.

    `authority` is already escaped Markdown.
    """
    text = _(
        "You have the right to lodge a complaint with a supervisory authority, in particular"
        " in the EU Member State of your habitual residence, your place of work or the place"
        " of the alleged infringement (Art. 77(1))."
    )
    if authority:
        text += _(
            " You may for example contact {authority}, the authority competent for "
            "us; you are free to choose another one of those authorities.",
            authority=authority,
        )
    return text
