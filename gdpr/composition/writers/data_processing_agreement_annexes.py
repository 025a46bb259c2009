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
from gdpr.composition.authority import located_authority
from gdpr.composition.context import CompositionContext, format_value
from gdpr.composition.inputs import CompanyDetails, SubProcessor, Transfer
from gdpr.composition.markdown import bullets, escape_inline, join_blocks, table
from gdpr.composition.markdown import to_be_completed as marker
from gdpr.composition.member_state_law import (
    PHRASES,
    courts_of,
    law_of,
    member_state_of,
    names_member_state_law,
)
from gdpr.composition.recognition import is_in_eea, recognise_safeguard
from gdpr.composition.special_categories import agreement_sensitive_data
from gdpr.composition.transfers import (
    SCC_DECISION,
    SCC_MODULES,
    describe_instrument,
)
from gdpr.composition.writers.common import list_or_marker, text_or_marker
from gdpr.i18n import N_, _, current_language, ngettext, punct

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


def _safeguard_code(context: CompositionContext) -> str | None:
    """The Chapter V safeguard covering the processor: the answer, else its transfer entry."""
    answer = context.value("transferMechanism")
    code = recognise_safeguard(str(answer)) if answer else None
    transfer = _processor_transfer(context)
    if code is None and transfer is not None and transfer.safeguard.code != "none":
        code = transfer.safeguard.code
    return code


def scc_module(context: CompositionContext) -> int | None:
    """The module of Decision (EU) 2021/914 this agreement incorporates, None without SCCs."""
    if not _processor_outside_eea(context):
        return None
    if _safeguard_code(context) != "standard-contractual-clauses":
        return None
    return 3 if context.flag("actsAsProcessor") else 2


def _notice_days(context: CompositionContext) -> int | None:
    days = context.value("objectionPeriodDays")
    return None if days is None else int(days)


def _clause_9(context: CompositionContext) -> str:
    """Clause 9(a): the option the DPA's own authorisation chose, with its time period."""
    days = _notice_days(context)
    if context.value("subprocessorAuthorisation") == "general":
        if days is None:
            return _(
                "Clause 9(a), Option 2 (general written authorisation): the data importer"
                " informs the data exporter in writing of any intended addition or replacement"
                " of sub-processors in advance: "
            ) + marker(_("the notice period in days (Clause 9(a))"))
        return ngettext(
            "Clause 9(a), Option 2 (general written authorisation): the data importer informs"
            " the data exporter in writing of any intended addition or replacement of"
            " sub-processors at least {days} day in advance, giving it time to object before"
            " the sub-processor is engaged.",
            "Clause 9(a), Option 2 (general written authorisation): the data importer informs"
            " the data exporter in writing of any intended addition or replacement of"
            " sub-processors at least {days} days in advance, giving it time to object before"
            " the sub-processor is engaged.",
            days,
            days=days,
        )
    if days is None:
        return _(
            "Clause 9(a), Option 1 (specific prior authorisation): the data importer submits"
            " the request for specific authorisation, with the information the data exporter"
            " needs to decide, before engaging a sub-processor: "
        ) + marker(_("the time period before the engagement, in days (Clause 9(a))"))
    return ngettext(
        "Clause 9(a), Option 1 (specific prior authorisation): the data importer submits the"
        " request for specific authorisation, with the information the data exporter needs to"
        " decide, at least {days} day before engaging a sub-processor.",
        "Clause 9(a), Option 1 (specific prior authorisation): the data importer submits the"
        " request for specific authorisation, with the information the data exporter needs to"
        " decide, at least {days} days before engaging a sub-processor.",
        days,
        days=days,
    )


def competent_authority_text(context: CompositionContext) -> str:
    """Clause 13 and Annex I.C: the authority of the controller's Member State, or a gap."""
    found = located_authority(context)
    if found is None:
        return marker(
            _(
                "the competent supervisory authority (Clause 13, Annex I.C): the country of the"
                " controller's establishment (country)"
            )
        )
    if found.authority is None:
        return marker(
            _(
                "the competent supervisory authority (Clause 13, Annex I.C): the Land of the"
                " controller's establishment (region)"
            )
        )
    authority = found.authority
    return f"{escape_inline(authority.name)}, {escape_inline(authority.address)}"


def _member_state(context: CompositionContext) -> str | None:
    """The Member State of Clauses 17 and 18: the agreement's law, else the controller's."""
    law = context.value("governingLaw")
    code = member_state_of(str(law)) if law else None
    if code is None:
        found = located_authority(context)
        code = found.country if found is not None and found.country in PHRASES else None
    return code


def _clauses_17_18(context: CompositionContext) -> list[str]:
    code = _member_state(context)
    if code is None:
        needed = marker(_("the EU Member State whose law governs the Clauses and whose courts"
                          " decide disputes (Clauses 17 and 18)"))  # fmt: skip
        return [_("Clause 17 (Option 1): ") + needed, _("Clause 18(b): ") + needed]
    return [
        _("Clause 17 (Option 1): the Clauses are governed by {law}.", law=law_of(code)),
        _(
            "Clause 18(b): disputes arising from the Clauses are resolved by {courts}.",
            courts=courts_of(code),
        ),
    ]


def _scc_completion(context: CompositionContext) -> str:
    lines = [
        _clause_9(context),
        _("Clause 13 and Annex I.C (competent supervisory authority): ")
        + competent_authority_text(context),
        *_clauses_17_18(context),
        _(
            "Annexes: Annex I of the Clauses (parties, description of the transfer, competent"
            " supervisory authority) is completed by Annexes I and II of this agreement, Annex"
            " II of the Clauses (technical and organisational measures) by Annex III of this"
            " agreement, and Annex III of the Clauses (sub-processors) by Annex IV of this"
            " agreement. In case of conflict the Clauses prevail."
        ),
    ]
    return join_blocks(
        _("The parties complete the Clauses as follows:"),
        "\n".join(f"- {line}" for line in lines),
    )


def write_transfers(context: CompositionContext) -> str:
    outside = _processor_outside_eea(context)
    if outside is None:
        return marker(
            _("whether the processor processes the data outside the EEA (Art. 44: a transfer)")
        )
    onward = _(
        "The processor transfers no personal data outside the EEA, including to sub-processors"
        " or for remote access, without the controller's documented instruction (Art. 28(3)(a))"
        " and a transfer tool under Chapter V (Art. 44-49)."
    )
    if not outside:
        return join_blocks(_("The processor processes the personal data in the EEA."), onward)
    transfer = _processor_transfer(context)
    code = _safeguard_code(context)
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
        # Whole sentences per module: the parties' roles take a different case in German.
        parties = (
            _(
                "The data exporter is the controller named in this agreement, itself acting as"
                " processor for its own controller; the data importer is {processor}.",
                processor=processor,
            )
            if chain
            else _(
                "The data exporter is the controller; the data importer is {processor}.",
                processor=processor,
            )
        )
        if parties.endswith("..") and not parties.endswith("..."):
            parties = parties[:-1]  # "CloudCo Inc." closes the sentence with its own period
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
                "agreement, including Clause 14 (local laws and practices affecting compliance "
                "with the Clauses) and Clause 15 (obligations of the data importer in "
                "case of access by public authorities). {parties}",
                country=country or _("third country"),
                scc_decision=_(SCC_DECISION),
                scc_modules=_(SCC_MODULES[module]),
                parties=parties,
            ),
            _scc_completion(context),
            _("Transfer impact assessment (Clause 14): ")
            + (escape_inline(details) if details and not instrument.missing else "")
            + ("" if not instrument.missing else marker(escape_inline(instrument.missing[-1]))),
            onward,
        )
    answer = context.value("transferMechanism")
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
    days = _notice_days(context)
    general = context.value("subprocessorAuthorisation") == "general"
    when = (
        _("by refusing its authorisation")
        if not general
        else _("within the notice period")
        if days is None
        # One English form ("a 1-day period"), two in the other languages ("1 Tag").
        else ngettext(
            "within the {days}-day notice period",
            "within the {days}-day notice period",
            days,
            days=days,
        )
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
    courts = context.inline("jurisdiction")
    forum = (
        _("Disputes are submitted to {courts}.", courts=courts)
        if courts
        else marker(_("the courts competent for disputes under this agreement"))
    )
    if not law:
        return join_blocks(marker(needed), forum)
    # "German law", "deutsches Recht": a Member State's law whatever the language it is typed in.
    if not (is_in_eea(law) or names_member_state_law(str(context.value("governingLaw")))):
        return join_blocks(_("Governing law as stated: {law}.", law=law), marker(needed), forum)
    # A law that only names a State is written in the document's language; a longer text
    # may carry conditions and is quoted as given.
    code = member_state_of(str(context.value("governingLaw")))
    return join_blocks(
        _(
            "This agreement is governed by {law} (the law of a Member State, Art. 28(3)).",
            law=law_of(code),
        )
        if code
        else _("Governing law: {law} (the law of a Member State, Art. 28(3)).", law=law),
        forum,
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
        _("Competent supervisory authority (Clause 13 and Annex I.C of the Clauses): ")
        + competent_authority_text(context)
        if scc_module(context)
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
        *(_transfer_description(context) if scc_module(context) else ()),
    )


# The codes of gdpr.doctypes.data_processing_agreement.TRANSFER_FREQUENCIES, named.
TRANSFER_FREQUENCIES = {"continuous": N_("continuous"), "one-off": N_("one-off")}


def _transfer_description(context: CompositionContext) -> tuple[str, str]:
    """What Annex I.B of the standard contractual clauses asks beyond Annex II's description."""
    frequency = context.value("transferFrequency")
    return (
        _("Frequency of the transfer (Annex I.B of the Clauses): ")
        + (
            _(TRANSFER_FREQUENCIES[frequency]) + "."
            if frequency in TRANSFER_FREQUENCIES
            else marker(_("whether the data is transferred on a continuous basis or one-off"))
        ),
        _("Period for which the personal data will be retained (Annex I.B of the Clauses): ")
        + text_or_marker(
            context,
            "retentionPeriod",
            _(
                "the period for which the data will be retained, or the criteria used to"
                " determine it"
            ),
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
        _("The processor takes the following technical and organisational measures:"),
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
    # One block per party, each with its own place and date (the parties may sign apart).
    blank = escape_inline(BLANK)
    blocks = [
        join_blocks(
            f"**{role}{punct(':')}** {name or blank}",
            _("Place, date: ") + blank,
            _("Signature: ") + blank,
            _("Name and position: ") + (signatory or blank),
        )
        for role, name, _address, signatory in _party_rows(context)
    ]
    return join_blocks(*blocks)
