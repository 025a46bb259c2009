"""Template text of a privacy notice (Art. 13, 14), addressed to the data subject."""

from __future__ import annotations

from gdpr.composition.context import CompositionContext
from gdpr.composition.markdown import escape_inline, join_blocks
from gdpr.composition.markdown import to_be_completed as marker
from gdpr.composition.purposes import (
    basis_codes,
    purpose_rows,
    purpose_table,
    purposes_with,
)
from gdpr.composition.rights import (
    OBJECTION_BASES,
    ApplicableRights,
    applicable_rights,
    complaint_text,
)
from gdpr.composition.writers.common import (
    controller_identity,
    dpo_line,
    legal_basis_text,
    legitimate_interests_text,
    list_or_marker,
    special_category_conditions_text,
    text_or_marker,
    transfers_text,
)
from gdpr.i18n import N_, _

# Art. 14(5) exemptions an organisation may claim, by the code given in `art14Exemption`.
ART_14_EXEMPTIONS = {
    "already-informed": N_("you already have this information (Art. 14(5)(a))"),
    "impossible-or-disproportionate": (
        N_(
            "providing the information to you individually is impossible or would involve a"
            " disproportionate effort; we protect your rights by other means, including making"
            " this information publicly available (Art. 14(5)(b))"
        )
    ),
    "required-by-law": (
        N_(
            "obtaining or disclosing the data is expressly laid down by EU or Member State law"
            " which provides measures to protect your legitimate interests (Art. 14(5)(c))"
        )
    ),
    "professional-secrecy": (
        N_(
            "the data must remain confidential under an obligation of professional secrecy"
            " regulated by EU or Member State law (Art. 14(5)(d))"
        )
    ),
}


def _indirect(context: CompositionContext) -> bool | None:
    collected = context.flag("dataCollectedFromSubject")
    return None if collected is None else not collected


def write_controller(context: CompositionContext) -> str:
    representative = context.inline("representative")
    email = context.inline("contactEmail")
    return join_blocks(
        _("The controller responsible for your personal data is:"),
        controller_identity(context),
        _("Our representative in the EU (Art. 27): {representative}", representative=representative)
        if representative
        else None,
        _("Privacy questions: {email}", email=email) if email else None,
    )


def write_dpo(context: CompositionContext) -> str:
    return dpo_line(context).removeprefix("- ")


def rights_of(context: CompositionContext) -> ApplicableRights:
    """The rights this notice describes, from the bases of every purpose (`rights.py`)."""
    return applicable_rights(
        bases=basis_codes(context),
        direct_marketing=bool(context.flag("directMarketing")),
        automated_processing=context.flag("processedByAutomatedMeans"),
    )


def _children(context: CompositionContext) -> str | None:
    if not context.flag("childrenData"):
        return None
    return _(
        "Where we offer online services to a child under 16 on the basis of consent, we ask"
    ) + (
        _(" for the consent of the holder of parental responsibility and verify it (Art. 8): ")
        + text_or_marker(context, "parentalConsentMethod", _("how it is verified"))
    )


def write_purposes(context: CompositionContext) -> str:
    activity = context.inline("processingActivity")
    rows = purpose_rows(context)
    tables = (
        "\n\n".join(purpose_table(row) for row in rows)
        if rows
        else join_blocks(
            _("We process your data for these purposes: ")
            + marker(_("the purposes of the processing, each with its legal basis")),
            legal_basis_text(context),
        )
    )
    return join_blocks(
        _("Processing activity: {activity}", activity=activity) if activity else None,
        _(
            "For each purpose: the data we use, the legal basis, how long we keep it, who receives"
            " it and where it comes from."
        ),
        tables,
        special_category_conditions_text(context),
        _children(context),
    )


def write_legitimate_interests(context: CompositionContext) -> str:
    return legitimate_interests_text(context)


def write_data_categories(context: CompositionContext) -> str:
    return list_or_marker(
        context,
        "dataCategories",
        _("Categories of personal data we process"),
        _("the categories of personal data"),
    )


def write_recipients(context: CompositionContext) -> str:
    return list_or_marker(
        context,
        "recipients",
        _("Your data is disclosed to"),
        _("the recipients or categories of recipients, or 'no one'"),
    )


def write_transfers(context: CompositionContext) -> str:
    if not context.items("thirdCountryTransfers"):
        return _("Your data is not transferred outside the European Economic Area.")
    return join_blocks(
        _("Your data is transferred outside the European Economic Area as follows:"),
        transfers_text(context, none_text=""),
        _("You can obtain a copy of the safeguards by contacting us at the address above."),
    )


def write_retention(context: CompositionContext) -> str:
    return list_or_marker(
        context,
        "retentionPeriods",
        _("We keep your data"),
        _("the retention period or the criteria used to determine it"),
    )


def _portability_line(rights: ApplicableRights) -> str | None:
    text = _(
        "**Right to data portability** (Art. 20): you may receive the personal data you"
        " provided to us in a structured, commonly used and machine-readable format and have"
        " it transmitted to another controller"
    )
    if rights.portability is True:
        return text + _(" - for the processing based on your consent or on a contract")
    if rights.portability is None:
        return text + _(
            " - only where the processing is based on your consent or on a contract"
            " and carried out by automated means"
        )
    return None


def write_rights(context: CompositionContext) -> str:
    channel = context.choice("rightsRequestChannel")
    rights = rights_of(context)
    # Each right by its title in the GDPR (Art. 15-21 headings), then what it lets you do.
    entries = [
        _(
            "**Right of access by the data subject** (Art. 15): you may access your data and"
            " receive a copy"
        ),
        _("**Right to rectification** (Art. 16): you may have inaccurate data rectified"),
        _(
            "**Right to erasure ('right to be forgotten')** (Art. 17): you may have your data"
            " erased"
        ),
        _(
            "**Right to restriction of processing** (Art. 18): you may have the processing of"
            " your data restricted"
        ),
    ]
    portability = _portability_line(rights)
    if portability:
        entries.append(portability)
    if rights.objection is not False or rights.direct_marketing_objection:
        entries.append(_('**Right to object** (Art. 21): see "Your right to object" below'))
    if rights.withdraw_consent is not False:
        entries.append(_('**Withdrawal of consent** (Art. 7(3)): see "Withdrawing consent" below'))
    not_applicable = []
    if rights.portability is False:
        not_applicable.append(
            _(
                "The right to data portability (Art. 20) does not apply: none of the processing"
                " described here is based on consent or a contract carried out by automated means."
            )
        )
    return join_blocks(
        _("You have the following rights:"),
        "\n".join(f"- {entry}" for entry in entries),
        *not_applicable,
        _("We answer within one month, free of charge (Art. 12(3), 12(5)).")
        + (_(" Send your request by: {channel}.", channel=channel) if channel else ""),
    )


def write_objection(context: CompositionContext) -> str:
    """Art. 21(4): the right to object, explicitly and apart from the other information."""
    rights = rights_of(context)
    blocks: list[str | None] = []
    if rights.objection is True:
        purposes = purposes_with(context, OBJECTION_BASES)
        scope = _(" (purposes: {purposes})", purposes=", ".join(purposes)) if purposes else ""
        blocks.append(
            _(
                "**You may object at any time**, on grounds relating to your "
                "particular situation, to the processing of your data based on our "
                "legitimate interests or on a task in the public interest{scope}. We "
                "then stop, unless we demonstrate compelling legitimate grounds which "
                "override your interests, rights and freedoms, or the processing is "
                "needed for legal claims (Art. 21(1)).",
                scope=scope,
            )
        )
    elif rights.objection is None:
        blocks.append(
            _(
                "**You may object at any time**, on grounds relating to your particular situation,"
                " to processing based on legitimate interests or on a task in the public interest;"
                " we then stop unless we demonstrate compelling legitimate grounds or need the data"
                " for legal claims (Art. 21(1))."
            )
        )
    if rights.direct_marketing_objection:
        blocks.append(
            _(
                "**Direct marketing:** you may object at any time, without giving reasons, to the"
                " use of your data for direct marketing, including profiling related to it. We then"
                " no longer use your data for that purpose (Art. 21(2)-(3))."
            )
        )
    elif context.flag("directMarketing") is None:
        blocks.append(
            _(
                "**Direct marketing:** if we use your data for direct marketing, you may object at"
                " any time, without giving reasons, and we then stop (Art. 21(2)-(3))."
            )
        )
    if not blocks:
        return _(
            "None of the processing described here is based on legitimate interests or a task in"
            " the public interest, and we do not use your data for direct marketing: the right"
            " to object of Art. 21(1)-(2) therefore does not apply."
        )
    channel = context.choice("rightsRequestChannel")
    blocks.append(
        _("To object, contact us at the address above")
        + (_(" (by: {channel})", channel=channel) if channel else "")
        + "."
    )
    return join_blocks(*blocks)


def write_withdraw_consent(context: CompositionContext) -> str:
    rights = rights_of(context)
    if rights.withdraw_consent is False:
        return _("Not applicable: none of the processing described here is based on consent.")
    purposes = purposes_with(context, frozenset({"consent"}))
    scope = _(" (purposes: {purposes})", purposes=", ".join(purposes)) if purposes else ""
    return join_blocks(
        _(
            "Where processing is based on your consent{scope} you may withdraw it "
            "at any time, as easily as you gave it. Withdrawal does not affect the "
            "lawfulness of the processing carried out before it (Art. 7(3)).",
            scope=scope,
        ),
        _("How to withdraw: ")
        + text_or_marker(
            context,
            "consentWithdrawalMethod",
            _("how consent can be withdrawn, as easily as it was given (Art. 7(3))"),
        ),
        _("What we keep after you withdraw: ")
        + text_or_marker(
            context,
            "afterWithdrawal",
            _(
                "what is kept after withdrawal and why (e.g. the e-mail address on a suppression"
                " list so that you are not contacted again, the record of consent, Art. 7(1))"
            ),
        ),
    )


def write_complaint(context: CompositionContext) -> str:
    return complaint_text(context.inline("supervisoryAuthority"))


def write_statutory(context: CompositionContext) -> str:
    return text_or_marker(
        context,
        "statutoryRequirement",
        _(
            "whether providing the data is a statutory or contractual requirement or needed to"
            " enter a contract, whether it is mandatory, and what happens if it is not provided"
        ),
    )


def write_automated(context: CompositionContext) -> str:
    automated = context.flag("automatedDecisions")
    if automated is None:
        return marker(_("whether decisions are made solely by automated means, incl. profiling"))
    if not automated:
        return _(
            "We do not take decisions based solely on automated processing, including"
            " profiling, that produce legal or similarly significant effects (Art. 22)."
        )
    safeguards = [_(str(option)) for option in context.items("automatedDecisionSafeguards")]
    return join_blocks(
        _("We take decisions based solely on automated processing, including profiling."),
        _("Logic involved, significance and envisaged consequences: ")
        + text_or_marker(
            context,
            "automatedDecisionLogic",
            _("the logic involved, its significance and consequences for you"),
        ),
        _(
            "You may obtain human intervention, express your point of view and contest the"
            " decision (Art. 22(3))."
        ),
        _("Safeguards: {safeguards}.", safeguards=", ".join(escape_inline(s) for s in safeguards))
        if safeguards
        else None,
    )


def write_source(context: CompositionContext) -> str:
    indirect = _indirect(context)
    if indirect is None:
        return marker(_("whether the data is obtained from the data subject; if not, its sources"))
    if not indirect:
        return _("Not applicable: we obtain your data directly from you (Art. 13).")
    public = context.flag("publicSources")
    return join_blocks(
        list_or_marker(
            context,
            "dataSources",
            _("We obtain your data from"),
            _("the source of the data (Art. 14(2)(f))"),
        ),
        _("Some of it comes from publicly accessible sources.") if public else None,
    )


def write_timing(context: CompositionContext) -> str:
    if _indirect(context) is False:
        return _(
            "Not applicable: you receive this notice when your data is collected (Art. 13(1))."
        )
    return _(
        "Where we obtain your data from others, we inform you within a reasonable period and"
        " in every case within one month of obtaining it. If we use the data to communicate"
        " with you, we inform you at the latest at our first communication, and if we"
        " disclose it to another recipient, at the latest when we first disclose it: these"
        " can only make the information come earlier, never later than one month"
        " (Art. 14(3); WP29 Guidelines on transparency, WP260 rev.01)."
    )


def write_exemptions(context: CompositionContext) -> str:
    if _indirect(context) is False:
        return _("Not applicable: Art. 14(5) concerns data not obtained from you.")
    claimed = [code for code in context.items("art14Exemptions") if code in ART_14_EXEMPTIONS]
    if not claimed:
        return _(
            "We rely on no exemption from informing you: you receive this information as"
            " described above (Art. 14(5))."
        )
    details = context.text("art14ExemptionDetails")
    return join_blocks(
        _("We do not inform you individually because ")
        + _("; and ").join(_(ART_14_EXEMPTIONS[code]) for code in claimed)
        + ".",
        details,
    )


def write_further_processing(context: CompositionContext) -> str:
    date = context.inline("effectiveDate")
    return join_blocks(
        _(
            "Before we process your data for a purpose other than those above, we inform you of"
            " that purpose and give you any further relevant information (Art. 13(3), 14(4))."
        ),
        _("This notice applies from {date}.", date=date) if date else None,
    )


WRITERS = {
    "controller": write_controller,
    "dpo": write_dpo,
    "purposes-legal-basis": write_purposes,
    "legitimate-interests": write_legitimate_interests,
    "data-categories": write_data_categories,
    "recipients": write_recipients,
    "transfers": write_transfers,
    "retention": write_retention,
    "rights": write_rights,
    "withdraw-consent": write_withdraw_consent,
    "objection": write_objection,
    "complaint": write_complaint,
    "statutory-requirement": write_statutory,
    "automated-decisions": write_automated,
    "source": write_source,
    "information-timing": write_timing,
    "exemptions": write_exemptions,
    "further-processing": write_further_processing,
}
