"""DATA_PROCESSING_AGREEMENT: controller-processor contract (Art. 28)."""

from __future__ import annotations

from gdpr.composition.writers import data_processing_agreement as writers
from gdpr.doctypes.base import ChecklistItem, DocumentType, Question, Section
from gdpr.i18n import N_

SUBPROCESSOR_AUTHORISATIONS = ("specific", "general")
# Decision (EU) 2021/914 Annex I.B: "the frequency of the transfer".
TRANSFER_FREQUENCIES = ("continuous", "one-off")


SECTIONS = (
    Section("scope", N_("Parties and scope of the processing"), "Art. 28(3)"),
    Section("obligations", N_("Obligations of the processor"), "Art. 28(3)(a)-(c)"),
    Section("subprocessing", N_("Sub-processors"), "Art. 28(2), 28(4)"),
    Section("assistance", N_("Assistance to the controller"), "Art. 28(3)(e)-(f)"),
    Section("end", N_("End of processing, audits and instructions"), "Art. 28(3)(g)-(h)"),
    Section("transfers", N_("Transfers outside the EEA"), "Art. 44-46"),
    Section("signature", N_("Governing law and signature"), "Art. 28(3), 28(9)"),
    Section(
        "annexes", N_("Annexes (Commission Implementing Decision (EU) 2021/915)"), "Art. 28(7)"
    ),
)

CHECKLIST = (
    ChecklistItem("subject-matter", "Art. 28(3)", N_("Subject-matter of the processing"), "scope",
                  N_("Parties and subject-matter")),
    ChecklistItem("duration", "Art. 28(3)", N_("Duration of the processing"), "scope",
                  N_("Duration")),
    ChecklistItem("nature-purpose", "Art. 28(3)", N_("Nature and purpose of the processing"),
                  "scope", N_("Nature and purpose")),
    ChecklistItem("data-types", "Art. 28(3)", N_("Type of personal data"), "scope",
                  N_("Types of personal data")),
    ChecklistItem("data-subjects", "Art. 28(3)", N_("Categories of data subjects"), "scope",
                  N_("Categories of data subjects")),
    ChecklistItem("controller-rights", "Art. 28(3)", N_("Obligations and rights of the controller"),
                  "scope", N_("Obligations and rights of the controller")),
    ChecklistItem("a-instructions", "Art. 28(3)(a)", N_("Processes only on documented instructions,"
                  " including for transfers"), "obligations", N_("Documented instructions")),
    ChecklistItem("b-confidentiality", "Art. 28(3)(b)", N_("Authorised persons are bound by"
                  " confidentiality"), "obligations", N_("Confidentiality")),
    ChecklistItem("c-security", "Art. 28(3)(c)", N_("Takes all Art. 32 measures"), "obligations",
                  N_("Security of processing")),
    ChecklistItem("d-subprocessors", "Art. 28(3)(d), 28(2), 28(4)", N_("Prior authorisation,"
                  " notice of changes with a right to object, same obligations passed down"),
                  "subprocessing", N_("Engaging sub-processors")),
    ChecklistItem("e-dsr-assistance", "Art. 28(3)(e)", N_("Assists with data subject requests"),
                  "assistance", N_("Data subject requests")),
    ChecklistItem("f-compliance-assistance", "Art. 28(3)(f)", N_("Assists with Art. 32-36"),
                  "assistance", N_("Security, breaches, DPIA and prior consultation")),
    ChecklistItem("g-deletion", "Art. 28(3)(g)", N_("Deletes or returns all data at the end"),
                  "end", N_("Deletion or return of data")),
    ChecklistItem("h-audits", "Art. 28(3)(h)", N_("Makes information available and allows audits"
                  " and inspections"), "end", N_("Information and audits")),
    ChecklistItem("infringing-instructions", N_("Art. 28(3) last subparagraph"), N_("Informs the"
                  " controller if an instruction infringes the GDPR"), "end",
                  N_("Instructions that infringe data protection law")),
    ChecklistItem("subprocessor-objection", "Art. 28(2)", N_("What happens when the controller"
                  " objects to a new sub-processor"), "subprocessing",
                  N_("Objection to a new sub-processor")),
    ChecklistItem("termination", N_("Art. 28(1), 28(3); Decision (EU) 2021/915 Clause 10"),
                  N_("Suspension and termination for non-compliance"), "end",
                  N_("Non-compliance and termination")),
    ChecklistItem("transfers", N_("Art. 44-46; Decision (EU) 2021/914 Clauses 14-15"),
                  N_("A processor"
                  " outside the EEA: the instrument (SCC module 2, or 3 for a sub-processor"
                  " chain, incorporated by reference with Clauses 14-15) and the transfer impact"
                  " assessment"), "transfers", N_("Transfer instrument")),
    ChecklistItem("governing-law", "Art. 28(3)", N_("The contract is governed by the law of a"
                  " Member State"), "signature", N_("Governing law")),
    ChecklistItem("signatures", "Art. 28(9)", N_("Signature block of both parties"), "signature",
                  N_("Signatures")),
    ChecklistItem("annex-i-parties", N_("Art. 28(7); Decision (EU) 2021/915 Annex I"), N_("List of"
                  " parties and signatories"), "annexes", N_("Annex I: List of parties")),
    ChecklistItem("annex-ii-description", N_("Art. 28(3); Decision (EU) 2021/915 Annex II"),
                  N_("Description of the processing"), "annexes",
                  N_("Annex II: Description of the processing")),
    ChecklistItem("annex-iii-measures", N_("Art. 28(3)(c), 32; Decision (EU) 2021/915 Annex III"),
                  N_("Technical and organisational measures described in detail"), "annexes",
                  N_("Annex III: Technical and organisational measures")),
    ChecklistItem("annex-iv-subprocessors",
                  N_("Art. 28(2), 28(4); Decision (EU) 2021/915 Annex IV"),
                  N_("Sub-processors with legal name, address and location"), "annexes",
                  N_("Annex IV: List of sub-processors")),
)  # fmt: skip

QUESTIONS = (
    Question("effectiveDate", N_("From which date does the agreement apply?"),
             N_("Usually signature."),
             "Art. 28(9)", False, "date", "duration"),
    Question("processorInEu", N_("Is the processor established in the EEA?"),
             N_("Processing outside the EEA is a transfer under Chapter V."), "Art. 44", True,
             "boolean", "a-instructions"),
    Question("transferMechanism", N_("Which transfer mechanism covers the processor?"),
             N_("Chapter V safeguard."), "Art. 46", True, "choice", "a-instructions",
             options=(N_("Adequacy decision"), N_("Standard contractual clauses"),
                      N_("Binding corporate rules")), condition=("processorInEu", False)),
    Question("deletionOrReturn", N_("What happens to the data at the end of the services?"),
             N_("The controller chooses."), "Art. 28(3)(g)", True, "choice", "g-deletion",
             options=(N_("Delete"), N_("Return, then delete"),
                      N_("Controller's choice at the end"))),
    Question("auditFrequency", N_("How often may the controller audit?"),
             N_("Audits include inspections by a mandated auditor."), "Art. 28(3)(h)", False,
             "choice", "h-audits", options=(N_("Once a year"), N_("On request"),
                                            N_("Every two years"))),
    Question("certifications", N_("Which certifications can the processor show?"),
             N_("Art. 28(5): codes and certifications as evidence."), "Art. 28(5)", False,
             "multiChoice", "h-audits", options=(N_("ISO/IEC 27001"), N_("ISO/IEC 27701"),
                                                 N_("SOC 2 Type II"),
                                                 N_("EU Cloud Code of Conduct"))),
    Question("assistanceCosts", N_("Who bears the cost of assistance and audits?"),
             N_("State it to avoid disputes."), "Art. 28(3)(e)-(h)", False, "text",
             "f-compliance-assistance"),
)  # fmt: skip

DOCUMENT_TYPE = DocumentType(
    name="DATA_PROCESSING_AGREEMENT",
    title=N_("Data Processing Agreement"),
    ruleset_version="dpa-2026.2",
    description=(
        N_(
            "Agreement between the controller and the processor under Art. 28(3) GDPR. The"
            " processor processes personal data on behalf of the controller only as set out here."
        )
    ),
    questions=QUESTIONS,
    sections=SECTIONS,
    checklist=CHECKLIST,
    writers=writers.WRITERS,
    # Signed by the processor / sent to the supervisory authority.
    external=True,
)
