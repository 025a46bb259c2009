"""The review's findings in the report language (catalog domain `review`).

A finding says why an item has its status and names the article: the item's requirement
(`LABELS`), the reason of a weak-wording rule (`WEAK`) or why the item does not apply
(`NOT_APPLICABLE`). Articles are written in the English short form and rendered in the
report language's official citation form.
"""

from __future__ import annotations

import re

from gdpr.i18n import N_, _, localize_citations, mid_sentence
from gdpr.i18n.translation import current_language
from gdpr.review.checklist import Item

DPA = "DATA_PROCESSING_AGREEMENT"
PRIVACY = "PRIVACY_POLICY"

LABELS: dict[tuple[str, str], str] = {
    (DPA, "subject-matter"): N_("The contract sets out the subject-matter of the processing."),
    (DPA, "duration"): N_("The contract sets out the duration of the processing."),
    (DPA, "nature-purpose"): N_("The contract sets out the nature and purpose of the processing."),
    (DPA, "data-types"): N_("The contract sets out the type of personal data."),
    (DPA, "data-subjects"): N_("The contract sets out the categories of data subjects."),
    (DPA, "controller-rights"): N_(
        "The contract sets out the obligations and rights of the controller."
    ),
    (DPA, "a-instructions"): N_(
        "The processor processes the personal data only on documented instructions from the"
        " controller, including with regard to transfers to a third country."
    ),
    (DPA, "b-confidentiality"): N_(
        "Persons authorised to process the personal data have committed themselves to"
        " confidentiality or are under a statutory obligation of confidentiality."
    ),
    (DPA, "c-security"): N_("The processor takes all measures required by Art. 32."),
    (DPA, "d-subprocessors"): N_(
        "Another processor is engaged only with the controller's prior authorisation; under a"
        " general authorisation the controller is informed of intended changes and may object;"
        " the same data protection obligations are imposed on the sub-processor."
    ),
    (DPA, "e-dsr-assistance"): N_(
        "The processor assists the controller in responding to requests from data subjects"
        " exercising their rights."
    ),
    (DPA, "f-compliance-assistance"): N_(
        "The processor assists the controller in ensuring compliance with Art. 32 to 36"
        " (security, breach notification, impact assessments, prior consultation)."
    ),
    (DPA, "g-deletion"): N_(
        "At the end of the services the processor deletes or returns all personal data, at"
        " the choice of the controller, and deletes existing copies."
    ),
    (DPA, "h-audits"): N_(
        "The processor makes available all information necessary to demonstrate compliance"
        " and allows for and contributes to audits, including inspections, by the controller"
        " or an auditor it mandates."
    ),
    (DPA, "infringing-instructions"): N_(
        "The processor immediately informs the controller if, in its opinion, an instruction"
        " infringes data protection law."
    ),
    (DPA, "subprocessor-objection"): N_(
        "The contract says what happens when the controller objects to a new sub-processor."
    ),
    (DPA, "breach-notification"): N_(
        "The processor notifies the controller of a personal data breach without undue delay"
        " after becoming aware of it."
    ),
    (DPA, "transfers"): N_(
        "Transfers outside the EEA rest on a valid transfer tool: the standard contractual"
        " clauses of Decision (EU) 2021/914, an adequacy decision (such as the EU-US Data"
        " Privacy Framework, Decision (EU) 2023/1795) or binding corporate rules."
    ),
    (DPA, "transfer-instruments"): N_(
        "Every transfer instrument relied on is a current one; the SCCs of Decisions"
        " 2001/497/EC, 2004/915/EC and 2010/87/EU, the Privacy Shield and Safe Harbour are no"
        " longer valid."
    ),
    (DPA, "governing-law"): N_(
        "The contract is governed by the law of the Union or a Member State."
    ),
    (DPA, "termination"): N_(
        "The controller may suspend the processing and terminate the contract if the"
        " processor does not comply."
    ),
    (PRIVACY, "controller"): N_("The notice names the controller and its contact details."),
    (PRIVACY, "dpo"): N_("The notice gives the contact details of the data protection officer."),
    (PRIVACY, "purposes-legal-basis"): N_(
        "The notice gives the purposes of the processing and the legal basis of each."
    ),
    (PRIVACY, "legitimate-interests"): N_(
        "Where the processing is based on Art. 6(1)(f), the notice says which legitimate"
        " interests are pursued."
    ),
    (PRIVACY, "recipients"): N_(
        "The notice names the recipients or categories of recipients of the personal data."
    ),
    (PRIVACY, "transfers"): N_(
        "The notice names the transfers to third countries and their safeguards (adequacy"
        " decision or appropriate safeguards) and how to obtain a copy of them."
    ),
    (PRIVACY, "transfer-instruments"): N_(
        "Every transfer instrument relied on is a current one; the SCCs of Decisions"
        " 2001/497/EC, 2004/915/EC and 2010/87/EU, the Privacy Shield and Safe Harbour are no"
        " longer valid."
    ),
    (PRIVACY, "retention"): N_(
        "The notice gives the period for which the personal data is stored, or the criteria"
        " used to determine it."
    ),
    (PRIVACY, "rights"): N_(
        "The notice names the rights of access, rectification, erasure and restriction of"
        " processing."
    ),
    (PRIVACY, "objection"): N_(
        "The notice names the right to object (Art. 21), explicitly and apart from other"
        " information."
    ),
    (PRIVACY, "withdraw-consent"): N_(
        "Where consent is the legal basis, the notice names the right to withdraw consent at"
        " any time."
    ),
    (PRIVACY, "complaint"): N_(
        "The notice names the right to lodge a complaint with a supervisory authority."
    ),
    (PRIVACY, "statutory-requirement"): N_(
        "The notice says whether providing the personal data is a statutory or contractual"
        " requirement and the consequences of not providing it."
    ),
    (PRIVACY, "automated-decisions"): N_(
        "The notice says whether automated decision-making, including profiling, takes place."
    ),
    (PRIVACY, "data-categories"): N_(
        "Where the data is not obtained from the data subject, the notice names the categories"
        " of personal data."
    ),
    (PRIVACY, "source"): N_(
        "Where the data is not obtained from the data subject, the notice names its source,"
        " including publicly accessible sources."
    ),
}

WEAK: dict[str, str] = {
    "subprocessors-no-notice": N_(
        "Sub-processors may be engaged under a general authorisation, but the controller is"
        " not informed of intended changes with the opportunity to object (Art. 28(2))."
    ),
    "subprocessors-no-flow-down": N_(
        "The contract does not impose the same data protection obligations on sub-processors"
        " (Art. 28(4))."
    ),
    "breach-law-only": N_(
        "The breach clause only promises to comply with applicable law; the processor must"
        " notify the controller without undue delay (Art. 33(2))."
    ),
    "breach-no-deadline": N_(
        "The controller is notified of breaches, but not without undue delay (Art. 33(2))."
    ),
    "audits-reports-only": N_(
        "Audits are satisfied by the processor's own certifications or reports; the processor"
        " must allow for and contribute to audits, including inspections, by the controller"
        " (Art. 28(3)(h))."
    ),
    "audits-information-only": N_(
        "The processor makes information available, but the controller's right to audit and"
        " inspect is not granted (Art. 28(3)(h))."
    ),
    "deletion-on-request-only": N_(
        "Data is deleted only upon request; the contract has no rule for deletion or return"
        " at the end of the services (Art. 28(3)(g))."
    ),
    "transfer-outdated-only": N_(
        "Transfers rest on an instrument that is no longer valid (SCCs of 2001/497/EC,"
        " 2004/915/EC or 2010/87/EU, repealed by Decision (EU) 2021/914; Privacy Shield,"
        " invalid since Case C-311/18 of 16 July 2020; Safe Harbour) and on no current one."
    ),
    "transfer-generic-scc": N_(
        "Standard contractual clauses are named without the decision and module (Decision"
        " (EU) 2021/914)."
    ),
    "instruments-outdated": N_(
        "The document still relies on an instrument that is no longer valid (SCCs of"
        " 2001/497/EC, 2004/915/EC or 2010/87/EU; Privacy Shield, invalid since Case C-311/18;"
        " Safe Harbour)."
    ),
    "transfer-no-copy": N_(
        "The safeguards are named, but not how to obtain a copy of them (Art. 13(1)(f))."
    ),
    "li-not-described": N_(
        "Legitimate interests are relied on, but the interests pursued are not described"
        " (Art. 13(1)(d))."
    ),
    "rights-incomplete": N_(
        "Not every right is named: access, rectification, erasure and restriction are"
        " required (Art. 13(2)(b))."
    ),
    "retention-no-period": N_(
        "Storage is mentioned, but neither a period nor the criteria to determine it"
        " (Art. 13(2)(a))."
    ),
}

NOT_APPLICABLE: dict[str, str] = {
    "transfers": N_("The document names no transfer outside the EEA."),
    "transfer-instruments": N_("The document names no transfer instrument."),
    "legitimate-interests": N_("The document names no processing based on legitimate interests."),
    "withdraw-consent": N_("The document names no processing based on consent."),
    "objection": N_(
        "The document names no processing based on Art. 6(1)(e) or (f) and no direct marketing."
    ),
    "data-categories": N_(
        "The document names no personal data obtained other than from the data subject."
    ),
    "source": N_("The document names no personal data obtained other than from the data subject."),
}

_PAGE = re.compile(r"^\s*(page|slide|sheet)\s+(\S+)\s*$", re.IGNORECASE)
SEPARATOR = " · "


def _article(item: Item) -> str:
    return mid_sentence(localize_citations(item.article, current_language()))


def _label(document_type: str, item: Item) -> str:
    return _(LABELS[(document_type, item.id)])


def present(document_type: str, item: Item) -> str:
    return _(
        "Found ({article}): {label}", article=_article(item), label=_label(document_type, item)
    )


def missing(document_type: str, item: Item) -> str:
    return _(
        "Not found in the document ({article}): {label}",
        article=_article(item),
        label=_label(document_type, item),
    )


def partial(document_type: str, item: Item) -> str:
    return _(
        "To be checked ({article}): the quoted passages touch on this, but the rules could not"
        " confirm it. Required: {label}",
        article=_article(item),
        label=_label(document_type, item),
    )


def weak(document_type: str, item: Item, rule: str) -> str:
    del document_type
    return _("Weak ({article}): {reason}", article=_article(item), reason=_(WEAK[rule]))


def not_applicable(document_type: str, item: Item) -> str:
    del document_type
    return _(
        "Not applicable ({article}): {reason}",
        article=_article(item),
        reason=_(NOT_APPLICABLE[item.id]),
    )


def no_text() -> str:
    return _("The document has no text to review (a scan without text?).")


def location(where: str, heading: str) -> str:
    """Where a DPO finds a quote: "page 3 · 7. Sub-processors", in the report language."""
    page = _PAGE.match(where or "")
    if page:
        kind, number = page[1].lower(), page[2]
        if kind == "page":
            where = _("page {number}", number=number)
        elif kind == "slide":
            where = _("slide {number}", number=number)
        else:
            where = _("sheet {number}", number=number)
    return SEPARATOR.join(part for part in (where.strip(), heading.strip()) if part)
