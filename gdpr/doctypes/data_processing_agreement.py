"""DATA_PROCESSING_AGREEMENT: controller-processor contract (Art. 28)."""

from __future__ import annotations

from gdpr.composition.writers import data_processing_agreement as writers
from gdpr.doctypes.base import ChecklistItem, DocumentType, Question, Section

SUBPROCESSOR_AUTHORISATIONS = ("specific", "general")


SECTIONS = (
    Section("scope", "Parties and scope of the processing", "Art. 28(3)"),
    Section("obligations", "Obligations of the processor", "Art. 28(3)(a)-(c)"),
    Section("subprocessing", "Sub-processors", "Art. 28(2), 28(4)"),
    Section("assistance", "Assistance to the controller", "Art. 28(3)(e)-(f)"),
    Section("end", "End of processing, audits and instructions", "Art. 28(3)(g)-(h)"),
    Section("transfers", "Transfers outside the EEA", "Art. 44-46"),
    Section("signature", "Governing law and signature", "Art. 28(3), 28(9)"),
    Section("annexes", "Annexes (Commission Implementing Decision (EU) 2021/915)", "Art. 28(7)"),
)

CHECKLIST = (
    ChecklistItem("subject-matter", "Art. 28(3)", "Subject-matter of the processing", "scope",
                  "Parties and subject-matter"),
    ChecklistItem("duration", "Art. 28(3)", "Duration of the processing", "scope", "Duration"),
    ChecklistItem("nature-purpose", "Art. 28(3)", "Nature and purpose of the processing",
                  "scope", "Nature and purpose"),
    ChecklistItem("data-types", "Art. 28(3)", "Type of personal data", "scope",
                  "Types of personal data"),
    ChecklistItem("data-subjects", "Art. 28(3)", "Categories of data subjects", "scope",
                  "Categories of data subjects"),
    ChecklistItem("controller-rights", "Art. 28(3)", "Obligations and rights of the controller",
                  "scope", "Obligations and rights of the controller"),
    ChecklistItem("a-instructions", "Art. 28(3)(a)", "Processes only on documented instructions,"
                  " including for transfers", "obligations", "Documented instructions"),
    ChecklistItem("b-confidentiality", "Art. 28(3)(b)", "Authorised persons are bound by"
                  " confidentiality", "obligations", "Confidentiality"),
    ChecklistItem("c-security", "Art. 28(3)(c)", "Takes all Art. 32 measures", "obligations",
                  "Security of processing"),
    ChecklistItem("d-subprocessors", "Art. 28(3)(d), 28(2), 28(4)", "Prior authorisation,"
                  " notice of changes with a right to object, same obligations passed down",
                  "subprocessing", "Engaging sub-processors"),
    ChecklistItem("e-dsr-assistance", "Art. 28(3)(e)", "Assists with data subject requests",
                  "assistance", "Data subject requests"),
    ChecklistItem("f-compliance-assistance", "Art. 28(3)(f)", "Assists with Art. 32-36",
                  "assistance", "Security, breaches, DPIA and prior consultation"),
    ChecklistItem("g-deletion", "Art. 28(3)(g)", "Deletes or returns all data at the end",
                  "end", "Deletion or return of data"),
    ChecklistItem("h-audits", "Art. 28(3)(h)", "Makes information available and allows audits"
                  " and inspections", "end", "Information and audits"),
    ChecklistItem("infringing-instructions", "Art. 28(3) last subparagraph", "Informs the"
                  " controller if an instruction infringes the GDPR", "end",
                  "Instructions that infringe data protection law"),
    ChecklistItem("subprocessor-objection", "Art. 28(2)", "What happens when the controller"
                  " objects to a new sub-processor", "subprocessing",
                  "Objection to a new sub-processor"),
    ChecklistItem("termination", "Art. 28(1), 28(3); Decision (EU) 2021/915 Clause 10",
                  "Suspension and termination for non-compliance", "end",
                  "Non-compliance and termination"),
    ChecklistItem("transfers", "Art. 44-46; Decision (EU) 2021/914 Clauses 14-15", "A processor"
                  " outside the EEA: the instrument (SCC module 2, or 3 for a sub-processor"
                  " chain, incorporated by reference with Clauses 14-15) and the transfer impact"
                  " assessment", "transfers", "Transfer instrument"),
    ChecklistItem("governing-law", "Art. 28(3)", "The contract is governed by the law of a"
                  " Member State", "signature", "Governing law"),
    ChecklistItem("signatures", "Art. 28(9)", "Signature block of both parties", "signature",
                  "Signatures"),
    ChecklistItem("annex-i-parties", "Art. 28(7); Decision (EU) 2021/915 Annex I", "List of"
                  " parties and signatories", "annexes", "Annex I: List of parties"),
    ChecklistItem("annex-ii-description", "Art. 28(3); Decision (EU) 2021/915 Annex II",
                  "Description of the processing", "annexes",
                  "Annex II: Description of the processing"),
    ChecklistItem("annex-iii-measures", "Art. 28(3)(c), 32; Decision (EU) 2021/915 Annex III",
                  "Technical and organisational measures described in detail", "annexes",
                  "Annex III: Technical and organisational measures"),
    ChecklistItem("annex-iv-subprocessors", "Art. 28(2), 28(4); Decision (EU) 2021/915 Annex IV",
                  "Sub-processors with legal name, address and location", "annexes",
                  "Annex IV: List of sub-processors"),
)  # fmt: skip

QUESTIONS = (
    Question("effectiveDate", "From which date does the agreement apply?", "Usually signature.",
             "Art. 28(9)", False, "date", "duration"),
    Question("processorInEu", "Is the processor established in the EEA?",
             "Processing outside the EEA is a transfer under Chapter V.", "Art. 44", True,
             "boolean", "a-instructions"),
    Question("transferMechanism", "Which transfer mechanism covers the processor?",
             "Chapter V safeguard.", "Art. 46", True, "choice", "a-instructions",
             options=("Adequacy decision", "Standard contractual clauses",
                      "Binding corporate rules"), condition=("processorInEu", False)),
    Question("deletionOrReturn", "What happens to the data at the end of the services?",
             "The controller chooses.", "Art. 28(3)(g)", True, "choice", "g-deletion",
             options=("Delete", "Return, then delete", "Controller's choice at the end")),
    Question("auditFrequency", "How often may the controller audit?",
             "Audits include inspections by a mandated auditor.", "Art. 28(3)(h)", False,
             "choice", "h-audits", options=("Once a year", "On request", "Every two years")),
    Question("certifications", "Which certifications can the processor show?",
             "Art. 28(5): codes and certifications as evidence.", "Art. 28(5)", False,
             "multiChoice", "h-audits", options=("ISO/IEC 27001", "ISO/IEC 27701",
                                                 "SOC 2 Type II", "EU Cloud Code of Conduct")),
    Question("assistanceCosts", "Who bears the cost of assistance and audits?",
             "State it to avoid disputes.", "Art. 28(3)(e)-(h)", False, "text",
             "f-compliance-assistance"),
)  # fmt: skip

DOCUMENT_TYPE = DocumentType(
    name="DATA_PROCESSING_AGREEMENT",
    title="Data Processing Agreement",
    ruleset_version="dpa-2026.2",
    description=(
        "Agreement between the controller and the processor under Art. 28(3) GDPR. The"
        " processor processes personal data on behalf of the controller only as set out here."
    ),
    questions=QUESTIONS,
    sections=SECTIONS,
    checklist=CHECKLIST,
    writers=writers.WRITERS,
)
