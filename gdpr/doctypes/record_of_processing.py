"""RECORD_OF_PROCESSING: record of processing activities (Art. 30)."""

from __future__ import annotations

from gdpr.composition.writers import record_of_processing as writers
from gdpr.doctypes.base import ChecklistItem, DocumentType, Question, Section

SECTIONS = (
    Section("controller-record", "Record of the controller", "Art. 30(1)"),
    Section("processor-record", "Record of the processor", "Art. 30(2)"),
    Section("keeping", "Form, availability and exemption", "Art. 30(3)-(5)"),
)

CHECKLIST = (
    ChecklistItem("a-controller", "Art. 30(1)(a)", "Name and contact details of the controller,"
                  " any joint controller, the representative and the DPO", "controller-record",
                  "Controller, joint controllers, representative and DPO"),
    ChecklistItem("b-purposes", "Art. 30(1)(b)", "The purposes of the processing",
                  "controller-record", "Purposes of the processing"),
    ChecklistItem("purpose-basis", "Art. 6(1), Art. 5(2)", "A legal basis for each purpose,"
                  " consistent with the data subjects concerned (Art. 6(1)(b) does not cover"
                  " prospects)", "controller-record", "Legal basis of each purpose"),
    ChecklistItem("c-categories", "Art. 30(1)(c)", "Categories of data subjects and categories"
                  " of personal data", "controller-record", "Categories of data subjects and data"),
    ChecklistItem("special-categories", "Art. 9(2), Art. 10", "Special categories of data only"
                  " under an Art. 9(2) condition, and criminal offence data only under an"
                  " Art. 10 basis", "controller-record",
                  "Special categories and criminal offence data"),
    ChecklistItem("d-recipients", "Art. 30(1)(d)", "Categories of recipients, including"
                  " recipients in third countries or international organisations",
                  "controller-record", "Categories of recipients"),
    ChecklistItem("e-transfers", "Art. 30(1)(e)", "Transfers to a third country or"
                  " international organisation, naming it, and for Art. 49(1) second-subparagraph"
                  " transfers the documented safeguards", "controller-record",
                  "Transfers to third countries"),
    ChecklistItem("f-erasure", "Art. 30(1)(f)", "Where possible, the time limits for erasure of"
                  " each data category, with the event from which each period runs",
                  "controller-record", "Time limits for erasure"),
    ChecklistItem("g-security", "Art. 30(1)(g)", "Where possible, a general description of the"
                  " Art. 32(1) technical and organisational measures", "controller-record",
                  "Technical and organisational security measures"),
    ChecklistItem("processor-record", "Art. 30(2)", "When acting as processor: processor and"
                  " controllers' names and contacts, representatives and DPO; categories of"
                  " processing per controller; transfers with safeguards; security measures",
                  "processor-record", "Processing carried out on behalf of controllers"),
    ChecklistItem("written-form", "Art. 30(3)-(4)", "Kept in writing, including electronic form,"
                  " and made available to the supervisory authority on request", "keeping",
                  "Written form and availability to the supervisory authority"),
    ChecklistItem("exemption", "Art. 30(5)", "The 250-employee exemption and its exceptions",
                  "keeping", "Exemption for organisations under 250 employees"),
)  # fmt: skip

QUESTIONS = (
    Question("hasJointControllers", "Is the purpose or means determined jointly with another"
             " organisation?", "Joint controllers need an Art. 26 arrangement.", "Art. 26",
             True, "boolean", "a-controller"),
    Question("jointControllerArrangement", "Where is the Art. 26 arrangement documented and"
             " who is the contact point?", "Name the agreement and the contact point for data"
             " subjects.", "Art. 26(1)", True, "text", "a-controller",
             condition=("hasJointControllers", True)),
    Question("transferSafeguardsDocumented", "Are the safeguards of every transfer documented?",
             "Art. 49(1) second-subparagraph transfers need documented safeguards.",
             "Art. 30(1)(e)", False, "boolean", "e-transfers"),
    Question("recordFormat", "In which form is the record kept?", "Electronic form is allowed.",
             "Art. 30(3)", True, "choice", "written-form",
             options=("Electronic", "Paper", "Electronic and paper")),
    Question("recordOwner", "Who maintains the record and answers the supervisory authority?",
             "Name a role, not only a person.", "Art. 30(4)", True, "text", "written-form"),
    Question("lastReviewed", "When was this entry last reviewed?", "Keep the record current.",
             "Art. 30(1)", False, "date", "written-form"),
    Question("processingCharacteristics", "Which of these apply to the processing?",
             "Any of them rules out the Art. 30(5) exemption.", "Art. 30(5)", False,
             "multiChoice", "exemption", options=("Likely to result in a risk",
                                                  "Not occasional", "Art. 9 or 10 data")),
)  # fmt: skip

DOCUMENT_TYPE = DocumentType(
    name="RECORD_OF_PROCESSING",
    title="Record of Processing Activities",
    ruleset_version="ropa-2026.2",
    description="Record of processing activities kept under Art. 30 GDPR.",
    questions=QUESTIONS,
    sections=SECTIONS,
    checklist=CHECKLIST,
    writers=writers.WRITERS,
)
