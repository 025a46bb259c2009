"""Template text of a privacy notice (Art. 13, 14), addressed to the data subject."""

from __future__ import annotations

from gdpr.composition.context import CompositionContext
from gdpr.composition.markdown import bullets, join_blocks
from gdpr.composition.markdown import to_be_completed as marker
from gdpr.composition.writers.common import (
    controller_identity,
    dpo_line,
    legal_basis_codes,
    legal_basis_text,
    legitimate_interests_text,
    list_or_marker,
    text_or_marker,
    transfers_text,
)


def _indirect(context: CompositionContext) -> bool | None:
    collected = context.flag("dataCollectedFromSubject")
    return None if collected is None else not collected


def write_controller(context: CompositionContext) -> str:
    representative = context.inline("representative")
    email = context.inline("contactEmail")
    return join_blocks(
        "The controller responsible for your personal data is:",
        controller_identity(context),
        f"Our representative in the EU (Art. 27): {representative}" if representative else None,
        f"Privacy questions: {email}" if email else None,
    )


def write_dpo(context: CompositionContext) -> str:
    return dpo_line(context).removeprefix("- ")


def write_purposes(context: CompositionContext) -> str:
    activity = context.inline("processingActivity")
    return join_blocks(
        f"Processing activity: {activity}" if activity else None,
        list_or_marker(
            context,
            "purposes",
            "We process your data for these purposes",
            "the purposes of the processing",
        ),
        legal_basis_text(context),
    )


def write_legitimate_interests(context: CompositionContext) -> str:
    return legitimate_interests_text(context)


def write_data_categories(context: CompositionContext) -> str:
    return list_or_marker(
        context,
        "dataCategories",
        "Categories of personal data we process",
        "the categories of personal data",
    )


def write_recipients(context: CompositionContext) -> str:
    return list_or_marker(
        context,
        "recipients",
        "Your data is disclosed to",
        "the recipients or categories of recipients, or 'no one'",
    )


def write_transfers(context: CompositionContext) -> str:
    if not context.items("thirdCountryTransfers"):
        return "Your data is not transferred outside the European Economic Area."
    return join_blocks(
        "Your data is transferred outside the European Economic Area as follows:",
        transfers_text(context, none_text=""),
        "You can obtain a copy of the safeguards by contacting us at the address above.",
    )


def write_retention(context: CompositionContext) -> str:
    return list_or_marker(
        context,
        "retentionPeriods",
        "We keep your data",
        "the retention period or the criteria used to determine it",
    )


def write_rights(context: CompositionContext) -> str:
    channel = context.inline("rightsRequestChannel")
    return join_blocks(
        "You have the right to:",
        bullets(
            [
                "access your data and receive a copy (Art. 15)",
                "have inaccurate data rectified (Art. 16)",
                "have your data erased (Art. 17)",
                "restrict processing (Art. 18)",
                "object to processing based on legitimate interests or a public task, and to"
                " direct marketing at any time (Art. 21)",
                "receive your data in a portable format where processing is based on consent or"
                " contract and automated (Art. 20)",
            ]
        ),
        "We answer within one month, free of charge (Art. 12(3), 12(5))."
        + (f" Send your request by: {channel}." if channel else ""),
    )


def write_withdraw_consent(context: CompositionContext) -> str:
    if "consent" not in legal_basis_codes(context):
        return "Not applicable: none of the processing described here is based on consent."
    how = context.text("consentWithdrawalMethod")
    return join_blocks(
        "Where processing is based on your consent you may withdraw it at any time, without"
        " affecting the lawfulness of processing before the withdrawal (Art. 7(3)).",
        f"How to withdraw: {how}" if how else None,
    )


def write_complaint(context: CompositionContext) -> str:
    authority = context.inline("supervisoryAuthority")
    target = authority or (
        "a supervisory authority, in particular in the EU Member State of your habitual"
        " residence, place of work or of the alleged infringement"
    )
    return f"You have the right to lodge a complaint with {target} (Art. 77)."


def write_statutory(context: CompositionContext) -> str:
    return text_or_marker(
        context,
        "statutoryRequirement",
        "whether providing the data is a statutory or contractual requirement or needed to"
        " enter a contract, whether it is mandatory, and what happens if it is not provided",
    )


def write_automated(context: CompositionContext) -> str:
    automated = context.flag("automatedDecisions")
    if automated is None:
        return marker("whether decisions are made solely by automated means, incl. profiling")
    if not automated:
        return (
            "We do not take decisions based solely on automated processing, including"
            " profiling, that produce legal or similarly significant effects (Art. 22)."
        )
    return join_blocks(
        "We take decisions based solely on automated processing, including profiling.",
        "Logic involved, significance and envisaged consequences: "
        + text_or_marker(
            context,
            "automatedDecisionLogic",
            "the logic involved, its significance and consequences for you",
        ),
        "You may obtain human intervention, express your point of view and contest the"
        " decision (Art. 22(3)).",
    )


def write_source(context: CompositionContext) -> str:
    indirect = _indirect(context)
    if indirect is None:
        return marker("whether the data is obtained from the data subject; if not, its sources")
    if not indirect:
        return "Not applicable: we obtain your data directly from you (Art. 13)."
    public = context.flag("publicSources")
    return join_blocks(
        list_or_marker(
            context,
            "dataSources",
            "We obtain your data from",
            "the source of the data (Art. 14(2)(f))",
        ),
        "Some of it comes from publicly accessible sources." if public else None,
    )


def write_timing(context: CompositionContext) -> str:
    if _indirect(context) is False:
        return "Not applicable: you receive this notice when your data is collected (Art. 13(1))."
    return (
        "Where we obtain your data from others, we inform you within a reasonable period and at"
        " the latest within one month, at our first communication with you, or before we"
        " disclose it to another recipient (Art. 14(3))."
    )


def write_exemptions(context: CompositionContext) -> str:
    if _indirect(context) is False:
        return "Not applicable: Art. 14(5) concerns data not obtained from you."
    return (
        "We do not inform you separately only where you already have the information, where"
        " informing you is impossible or would involve disproportionate effort (the"
        " information is then made public), where EU or Member State law expressly provides"
        " for obtaining or disclosing the data, or where the data must remain confidential"
        " under professional secrecy (Art. 14(5))."
    )


def write_further_processing(context: CompositionContext) -> str:
    date = context.inline("effectiveDate")
    return join_blocks(
        "Before we process your data for a purpose other than those above, we inform you of"
        " that purpose and give you any further relevant information (Art. 13(3), 14(4)).",
        f"This notice applies from {date}." if date else None,
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
    "complaint": write_complaint,
    "statutory-requirement": write_statutory,
    "automated-decisions": write_automated,
    "source": write_source,
    "information-timing": write_timing,
    "exemptions": write_exemptions,
    "further-processing": write_further_processing,
}
