"""Template clauses of a data processing agreement (Art. 28(3))."""

from __future__ import annotations

from gdpr.composition.context import CompositionContext
from gdpr.composition.markdown import bullets, escape_inline, join_blocks
from gdpr.composition.markdown import to_be_completed as marker
from gdpr.composition.writers.common import (
    list_or_marker,
    text_or_marker,
    transfers_text,
)
from gdpr.composition.writers.data_processing_agreement_annexes import (
    write_annex_i,
    write_annex_ii,
    write_annex_iii,
    write_annex_iv,
    write_governing_law,
    write_signatures,
    write_subprocessor_objection,
    write_termination,
    write_transfers,
)
from gdpr.i18n import _, ngettext

DEFAULT_BREACH_HOURS = 24
DEFAULT_DELETION_DAYS = 30


def write_subject_matter(context: CompositionContext) -> str:
    # A name is bold; a marker keeps its own bold prefix and is never nested in another.
    controller = (
        f"**{escape_inline(context.company_name)}**"
        if context.company_name
        else marker(_("the controller's name"))
    )
    name = context.inline("processorName")
    processor = f"**{name}**" if name else marker(_("the processor's name"))
    details = context.inline("processorDetails")
    return join_blocks(
        _(
            "This agreement is made between {controller} (the controller) and {processor}",
            controller=controller,
            processor=processor,
        )
        + (f", {details}" if details else "")
        + _(" (the processor)."),
        _("Subject-matter: ")
        + text_or_marker(
            context, "subjectMatter", _("the services during which data is processed")
        ),
    )


def write_duration(context: CompositionContext) -> str:
    start = context.inline("effectiveDate")
    return join_blocks(
        _("Duration: ") + text_or_marker(context, "duration", _("the duration of the processing")),
        _("Effective from {start}.", start=start) if start else None,
    )


def write_nature_purpose(context: CompositionContext) -> str:
    return join_blocks(
        _("Nature of the processing: ")
        + text_or_marker(
            context, "processingNature", _("the operations performed (e.g. hosting, analysis)")
        ),
        list_or_marker(context, "purposes", _("Purposes"), _("the purposes of the processing")),
    )


def write_data_types(context: CompositionContext) -> str:
    return list_or_marker(
        context, "dataCategories", _("Types of personal data"), _("the types of personal data")
    )


def write_data_subjects(context: CompositionContext) -> str:
    return list_or_marker(
        context,
        "dataSubjects",
        _("Categories of data subjects"),
        _("the categories of data subjects"),
    )


def write_controller_rights(context: CompositionContext) -> str:
    return _(
        "The controller determines the purposes and means, is responsible for the lawfulness"
        " of the processing and of its instructions, may issue, amend and withdraw documented"
        " instructions, and may verify compliance with this agreement."
    )


def write_instructions(context: CompositionContext) -> str:
    in_eu = context.flag("processorInEu")
    # The instrument itself is named in the transfers item (Decision (EU) 2021/914 module).
    transfer = (
        _(" The processor processes the data in the EEA.")
        if in_eu
        else _(
            " Processing outside the EEA rests on the instrument set out under Transfer"
            " instrument below."
        )
        if in_eu is False
        else ""
    )
    return join_blocks(
        _(
            "The processor processes personal data only on documented instructions from the"
            " controller, including with regard to transfers to a third country or international"
            " organisation, unless required to do so by Union or Member State law; in that case it"
            " informs the controller of that legal requirement before processing, unless the law"
            " prohibits it on important grounds of public interest."
        )
        + transfer,
        _("Transfers instructed by the controller:\n\n")
        + transfers_text(context, none_text="", importer_role="processor")
        if context.items("thirdCountryTransfers")
        else None,
    )


def write_confidentiality(context: CompositionContext) -> str:
    return _(
        "The processor ensures that persons authorised to process the personal data have"
        " committed themselves to confidentiality or are under an appropriate statutory"
        " obligation of confidentiality, and have access only as needed."
    )


def write_security(context: CompositionContext) -> str:
    measures = context.items("securityMeasures")
    if not measures:
        return marker(_("the technical and organisational measures (Art. 32) the processor takes"))
    return join_blocks(
        _("The processor takes all measures required by Art. 32, at least:"), bullets(measures)
    )


def write_subprocessors(context: CompositionContext) -> str:
    days = context.value("objectionPeriodDays")
    general = context.value("subprocessorAuthorisation") == "general"
    authorised = context.items("subprocessors")
    rule = (
        _(
            "The controller gives general written authorisation to engage sub-processors. The"
            " processor informs the controller of any intended addition or replacement in"
            " advance, giving the controller the opportunity to object: "
        )
        + marker(_("the notice period in days (Art. 28(2))"))
        if general and days is None
        else ngettext(
            "The controller gives general written authorisation to engage "
            "sub-processors. The processor informs the controller of any intended "
            "addition or replacement at least {days} day in advance, giving the "
            "controller the opportunity to object.",
            "The controller gives general written authorisation to engage "
            "sub-processors. The processor informs the controller of any intended "
            "addition or replacement at least {days} days in advance, giving the "
            "controller the opportunity to object.",
            int(days),
            days=int(days),
        )
        if general
        else _(
            "The processor engages another processor only with the controller's prior"
            " specific written authorisation."
        )
    )
    return join_blocks(
        rule,
        _("Authorised sub-processors:\n\n") + bullets(authorised)
        if authorised
        else _("No sub-processor is authorised at signature."),
        _(
            "The processor imposes the same data protection obligations on each sub-processor by"
            " contract and remains fully liable to the controller for its performance (Art. 28(4))."
        ),
    )


def write_dsr_assistance(context: CompositionContext) -> str:
    return _(
        "Taking into account the nature of the processing, the processor assists the"
        " controller by appropriate technical and organisational measures in answering"
        " requests to exercise data subject rights (Chapter III), forwards any request it"
        " receives without delay and does not answer it without instructions."
    )


def write_compliance_assistance(context: CompositionContext) -> str:
    hours = context.value("breachNotificationHours") or DEFAULT_BREACH_HOURS
    return ngettext(
        "The processor assists the controller in ensuring compliance with Art. "
        "32 to 36: security of processing; notifying personal data breaches to "
        "the controller without undue delay and within {hours} hour of "
        "becoming aware of them, with the information of Art. 33(3); "
        "communication to data subjects; data protection impact assessments "
        "and prior consultation.",
        "The processor assists the controller in ensuring compliance with Art. "
        "32 to 36: security of processing; notifying personal data breaches to "
        "the controller without undue delay and within {hours} hours of "
        "becoming aware of them, with the information of Art. 33(3); "
        "communication to data subjects; data protection impact assessments "
        "and prior consultation.",
        int(hours),
        hours=int(hours),
    )


def write_assistance_and_costs(context: CompositionContext) -> str:
    """Art. 28(3)(e)-(f) assistance, with who bears its cost when the questionnaire says so
    (the agreement leaves the organization without questionnaire notes)."""
    costs = context.inline("assistanceCosts")
    return write_compliance_assistance(context) + (
        _(" Costs of assistance and audits: {costs}.", costs=costs) if costs else ""
    )


def write_deletion(context: CompositionContext) -> str:
    days = context.value("deletionPeriodDays")
    days = DEFAULT_DELETION_DAYS if days is None else int(days)
    # Art. 28(3)(g) as one obligation: what happens to the data, and to the copies.
    choice = context.value("deletionOrReturn")
    obligation = (
        _(
            "At the end of the provision of services relating to processing, the processor"
            " deletes all personal data processed on behalf of the controller and deletes"
            " existing copies, unless Union or Member State law requires storage of the"
            " personal data."
        )
        if choice == "Delete"
        else _(
            "At the end of the provision of services relating to processing, the processor"
            " returns all personal data processed on behalf of the controller to the controller"
            " and then deletes existing copies, unless Union or Member State law requires"
            " storage of the personal data."
        )
        if choice == "Return, then delete"
        else _(
            "At the end of the provision of services relating to processing, the processor, at"
            " the choice of the controller, deletes or returns all personal data processed on"
            " its behalf to the controller and deletes existing copies, unless Union or Member"
            " State law requires storage of the personal data."
        )
    )
    return join_blocks(
        obligation,
        ngettext(
            "The processor does so within {days} day and confirms the deletion to the"
            " controller in writing.",
            "The processor does so within {days} days and confirms the deletion to the"
            " controller in writing.",
            days,
            days=days,
        ),
    )


def write_audits(context: CompositionContext) -> str:
    frequency = context.choice("auditFrequency")
    certifications = context.choice("certifications")
    return join_blocks(
        _(
            "The processor makes available to the controller all information necessary to"
            " demonstrate compliance with Art. 28 and allows for and contributes to audits,"
            " including inspections, by the controller or an auditor it mandates."
        ),
        _("Audit frequency: {frequency}.", frequency=frequency) if frequency else None,
        _(
            "Certifications provided as evidence (Art. 28(5)): {certifications}.",
            certifications=certifications,
        )
        if certifications
        else None,
    )


def write_infringing(context: CompositionContext) -> str:
    return _(
        "The processor immediately informs the controller if, in its opinion, an instruction"
        " infringes the GDPR or other Union or Member State data protection provisions."
    )


WRITERS = {
    "subject-matter": write_subject_matter,
    "duration": write_duration,
    "nature-purpose": write_nature_purpose,
    "data-types": write_data_types,
    "data-subjects": write_data_subjects,
    "controller-rights": write_controller_rights,
    "a-instructions": write_instructions,
    "b-confidentiality": write_confidentiality,
    "c-security": write_security,
    "d-subprocessors": write_subprocessors,
    "e-dsr-assistance": write_dsr_assistance,
    "f-compliance-assistance": write_assistance_and_costs,
    "g-deletion": write_deletion,
    "h-audits": write_audits,
    "infringing-instructions": write_infringing,
    "subprocessor-objection": write_subprocessor_objection,
    "termination": write_termination,
    "transfers": write_transfers,
    "governing-law": write_governing_law,
    "signatures": write_signatures,
    "annex-i-parties": write_annex_i,
    "annex-ii-description": write_annex_ii,
    "annex-iii-measures": write_annex_iii,
    "annex-iv-subprocessors": write_annex_iv,
}
