"""DPA clauses beyond Art. 28(3)'s list and the annexes of the Commission's Art. 28(7) clauses.

Commission Implementing Decision (EU) 2021/915 gives the model: Clause 9 (objection to a new
sub-processor), Clause 10 (non-compliance and termination), Annex I (parties and
signatories), II (description of the processing), III (technical and organisational measures,
"in a specific and not generic manner"), IV (sub-processors). A processor outside the EEA is
a transfer: Decision (EU) 2021/914, Module 2 (or 3 for a sub-processor chain).
"""

from __future__ import annotations

from gdpr.composition.assessments.security_measures import (
    FAMILY_BY_KEY,
    classify_measures,
    measure_name,
)
from gdpr.composition.context import CompositionContext, format_value
from gdpr.composition.inputs import CompanyDetails, SubProcessor, Transfer
from gdpr.composition.markdown import bullets, escape_inline, join_blocks, table
from gdpr.composition.markdown import to_be_completed as marker
from gdpr.composition.recognition import is_in_eea, recognise_safeguard
from gdpr.composition.special_categories import agreement_sensitive_data
from gdpr.composition.transfers import (
    SCC_DECISION,
    SCC_MODULES,
    describe_instrument,
)
from gdpr.composition.writers.common import list_or_marker, text_or_marker
from gdpr.i18n import N_, _, current_language

DEFAULT_OBJECTION_DAYS = 30
# Annex III must describe these Art. 32(1) families; "testing" is 32(1)(d).
REQUIRED_FAMILIES = ("encryption", "access-control", "backup", "testing")
BLANK = "________________"


def _processor_country(context: CompositionContext) -> str | None:
    country = context.inline("processorCountry")
    if country:
        return country
    processor = context.value("processor")
    if isinstance(processor, dict) and processor.get("country"):
        return escape_inline(processor["country"])
    return None


def _processor_outside_eea(context: CompositionContext) -> bool | None:
    in_eu = context.flag("processorInEu")
    if in_eu is not None:
        return not in_eu
    country = _processor_country(context)
    return None if country is None else not is_in_eea(country)


def _processor_transfer(context: CompositionContext) -> Transfer | None:
    """The `thirdCountryTransfers` entry of the processor (by name), else the first one."""
    transfers: list[Transfer] = context.items("thirdCountryTransfers")
    name = (context.value("processorName") or "").strip().lower()
    for transfer in transfers:
        if name and (transfer.recipient or "").strip().lower() == name:
            return transfer
    return transfers[0] if transfers else None


def write_transfers(context: CompositionContext) -> str:
    outside = _processor_outside_eea(context)
    if outside is None:
        return marker(
            _("whether the processor processes the data outside the EEA (Art. 44: a transfer)")
        )
    onward = _(
        "The processor transfers no personal data outside the EEA, including to sub-processors"
        " or for remote access, without the controller's documented instruction and a Chapter"
        " V instrument (Art. 28(3)(a), 44-46)."
    )
    if not outside:
        return join_blocks(_("The processor processes the personal data in the EEA."), onward)
    transfer = _processor_transfer(context)
    answer = context.value("transferMechanism")
    code = recognise_safeguard(str(answer)) if answer else None
    if code is None and transfer is not None and transfer.safeguard.code != "none":
        code = transfer.safeguard.code
    country = _processor_country(context) or (transfer.country if transfer else None)
    processor = context.inline("processorName") or _("the processor")
    if code is None:
        return marker(
            _("the transfer mechanism covering the processor outside the EEA (Art. 45-47)")
        )
    details = transfer.details if transfer else None
    chain = bool(context.flag("actsAsProcessor"))
    if code == "standard-contractual-clauses":
        module = 3 if chain else 2
        exporter = (
            _("the controller's processor (acting for its own controller), as data exporter")
            if chain
            else _("the controller, as data exporter")
        )
        instrument = describe_instrument(
            code=code,
            country=country or _("the third country"),
            recipient=processor,
            wording=_(SCC_MODULES[module]),
            details=details or context.value("transferImpactAssessment"),
            exporter_role="processor" if chain else "controller",
            importer_role="processor",
        )
        return join_blocks(
            _(
                "The processor processes the data outside the EEA ({country}). The "
                "standard contractual clauses annexed to {scc_decision}, "
                "**{scc_modules}**, are incorporated by reference into this "
                "agreement, with {exporter} and {processor}, as data importer, "
                "including Clause 14 (local laws and practices affecting compliance "
                "with the Clauses) and Clause 15 (obligations of the data importer in "
                "case of access by public authorities). Annexes I to III of those "
                "Clauses are completed by Annexes I to III of this agreement; in case "
                "of conflict the Clauses prevail.",
                country=country or _("third country"),
                scc_decision=_(SCC_DECISION),
                scc_modules=_(SCC_MODULES[module]),
                exporter=exporter,
                processor=processor,
            ),
            _("Transfer impact assessment (Clause 14): ")
            + (escape_inline(details) if details and not instrument.missing else "")
            + ("" if not instrument.missing else marker(escape_inline(instrument.missing[-1]))),
            onward,
        )
    instrument = describe_instrument(
        code=code,
        country=country or _("the third country"),
        recipient=processor,
        wording=escape_inline(answer) if answer else None,
        details=details,
        exporter_role="controller",
        importer_role="processor",
    )
    return join_blocks(
        _(
            "The processor processes the data outside the EEA: {instrument}.",
            instrument=escape_inline(instrument.text),
        ),
        *(marker(escape_inline(missing)) for missing in instrument.missing),
        onward,
    )


def write_subprocessor_objection(context: CompositionContext) -> str:
    days = int(context.value("objectionPeriodDays") or DEFAULT_OBJECTION_DAYS)
    general = context.value("subprocessorAuthorisation") == "general"
    when = (
        _("within the {days}-day notice period", days=days)
        if general
        else _("by refusing its authorisation")
    )
    return _(
        "If the controller objects to an intended sub-processor {when} on "
        "reasonable grounds relating to data protection, the processor does "
        "not engage that sub-processor for the controller's data. The parties "
        "seek in good faith a reasonable alternative (a different "
        "sub-processor or a change of the services); if none is found within "
        "30 days, the controller may terminate the affected services without "
        "penalty, and fees paid in advance for them are refunded. Silence is "
        "not consent to processing by a sub-processor the controller objected "
        "to.",
        when=when,
    )


def write_termination(context: CompositionContext) -> str:
    return join_blocks(
        _(
            "If the processor breaches this agreement, the controller may instruct it to suspend"
            " the processing until it complies again or the agreement ends; the processor informs"
            " the controller promptly if it cannot comply, for whatever reason."
        ),
        _(
            "The controller may terminate this agreement, as far as it concerns processing of"
            " personal data, where:\n\n"
        )
        + bullets(
            [
                _(
                    "the processing was suspended and compliance is not restored within a"
                    " reasonable time, at most one month after the suspension;"
                ),
                _(
                    "the processor is in substantial or persistent breach of this agreement or of"
                    " its obligations under the GDPR;"
                ),
                _(
                    "the processor fails to comply with a binding decision of a competent court or"
                    " supervisory authority on its obligations."
                ),
            ]
        ),
        _(
            "The processor may terminate this agreement, as far as it concerns processing of"
            " personal data, where the controller insists on an instruction the processor has"
            " told it infringes data protection law. On termination the data is deleted or"
            " returned as set out above."
        ),
    )


def write_governing_law(context: CompositionContext) -> str:
    law = context.inline("governingLaw")
    needed = _(
        "the governing law: the law of an EU or EEA Member State (Art. 28(3): the contract is"
        " binding under Union or Member State law)"
    )
    if not law:
        return marker(needed)
    if not is_in_eea(law):
        return join_blocks(_("Governing law as stated: {law}.", law=law), marker(needed))
    courts = context.inline("jurisdiction")
    return join_blocks(
        _("This agreement is governed by {law} (a Member State's law, Art. 28(3)).", law=law),
        _("Disputes are submitted to {courts}.", courts=courts) if courts else None,
    )


def _party_rows(context: CompositionContext) -> list[tuple[str, str, str, str]]:
    details = context.value("companyDetails")
    controller_address = None
    if isinstance(details, CompanyDetails) and details.text is None:
        # Labelled facts carry their own labels ("Address: ..."): the row shows the
        # address alone after its own "address:" label.
        address = details.get("address")
        controller_address = escape_inline(format_value(address)) if address else None
    elif details is not None:
        controller_address = context.inline("companyDetails")
    return [
        (
            _("Controller"),
            escape_inline(context.company_name) if context.company_name else "",
            controller_address or "",
            context.inline("controllerSignatory") or "",
        ),
        (
            _("Processor"),
            context.inline("processorName") or "",
            ", ".join(
                part
                for part in (context.inline("processorDetails"), _processor_country(context))
                if part
            ),
            context.inline("processorSignatory") or "",
        ),
    ]


_PARTY_FACTS = {"name": N_("name"), "address": N_("address"), "signatory": N_("signatory")}


def write_annex_i(context: CompositionContext) -> str:
    rows = _party_rows(context)
    missing = [
        # German capitalises nouns mid-sentence; the other languages write the role in lower case.
        _(
            "the {what} of the {role}",
            what=_(_PARTY_FACTS[what]),
            role=role if current_language() == "de" else role.lower(),
        )
        for role, name, address, signatory in rows
        for what, value in (("name", name), ("address", address), ("signatory", signatory))
        if not value
    ]
    lines = [
        _(
            "- **{role}:** {name}; address: {address}; signatory (name, position): {signatory}",
            role=role,
            name=name or "-",
            address=address or "-",
            signatory=signatory or "-",
        )
        for role, name, address, signatory in rows
    ]
    contact = context.inline("dpoContact")
    return join_blocks(
        "\n".join(lines),
        _("Controller's contact person for data protection: {contact}.", contact=contact)
        if contact
        else None,
        marker("; ".join(missing)) if missing else None,
    )


def write_annex_ii(context: CompositionContext) -> str:
    return join_blocks(
        list_or_marker(
            context, "dataSubjects", _("Categories of data subjects"), _("the data subjects")
        ),
        list_or_marker(context, "dataCategories", _("Categories of personal data"), _("the data")),
        _("Sensitive data (Art. 9, 10) and the restrictions or safeguards applied: ")
        + agreement_sensitive_data(context),
        _("Nature of the processing: ")
        + text_or_marker(context, "processingNature", _("the processing operations")),
        list_or_marker(context, "purposes", _("Purposes"), _("the purposes")),
        _("Duration: ") + text_or_marker(context, "duration", _("the duration")),
        _(
            "Processing by sub-processors: the subject-matter, nature and duration set out in"
            " Annex IV, within the limits of this Annex."
        ),
    )


def write_annex_iii(context: CompositionContext) -> str:
    measures = context.items("securityMeasures")
    if not measures:
        return marker(
            _(
                "the technical and organisational measures in detail (encryption, access control,"
                " availability and backups, regular testing; Art. 32)"
            )
        )
    rows = []
    for measure in measures:
        # Alphabetical by key: testing (32(1)(d)) comes last, after what it tests.
        labels = [_(FAMILY_BY_KEY[key].label) for key in sorted(classify_measures([measure]))]
        rows.append((", ".join(labels) or _("Other measure"), measure_name(measure)))
    covered = classify_measures(measures)
    gaps = [_(FAMILY_BY_KEY[key].recommendation) for key in REQUIRED_FAMILIES if key not in covered]
    return join_blocks(
        _(
            "The processor takes the following measures, described specifically and not "
            "generically:"
        ),
        table((_("Area (Art. 32)"), _("Measure")), rows),
        marker(_("the measures for: ") + " ".join(gaps)) if gaps else None,
    )


def write_annex_iv(context: CompositionContext) -> str:
    authorised: list[SubProcessor] = context.items("subprocessors")
    if not authorised:
        return _("No sub-processor is authorised at signature.")
    rows = [
        (sub.name, sub.address or "-", sub.country or "-", sub.service or "-") for sub in authorised
    ]
    incomplete = [sub.name for sub in authorised if not (sub.address and sub.country)]
    outside = [sub for sub in authorised if sub.country and not is_in_eea(sub.country)]
    return join_blocks(
        table((_("Legal name"), _("Address"), _("Location of processing"), _("Processing")), rows),
        _(
            "Sub-processors outside the EEA receive the data under the standard "
            "contractual clauses of {scc_decision}, "
            "{scc_modules}, concluded by the processor: ",
            scc_decision=_(SCC_DECISION),
            scc_modules=_(SCC_MODULES[3]),
        )
        + ", ".join(escape_inline(sub.name) for sub in outside)
        + "."
        if outside
        else None,
        marker(
            _("the legal name, address and location of processing of: ")
            + ", ".join(escape_inline(name) for name in incomplete)
        )
        if incomplete
        else None,
    )


def write_signatures(context: CompositionContext) -> str:
    rows = [
        (role, signatory or BLANK, _("Date: ") + BLANK, BLANK)
        for role, _skip, _skip, signatory in _party_rows(context)
    ]
    return table((_("Party"), _("Name and position"), _("Place and date"), _("Signature")), rows)
