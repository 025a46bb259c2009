"""RECORD_OF_PROCESSING: record of processing activities (Art. 30)."""

from __future__ import annotations

from gdpr.composition.writers import record_of_processing as writers
from gdpr.doctypes.base import ChecklistItem, DocumentType, Question, Section
from gdpr.i18n import N_

SECTIONS = (
    Section("controller-record", N_("Record of the controller"), "Art. 30(1)"),
    Section("processor-record", N_("Record of the processor"), "Art. 30(2)"),
    Section("keeping", N_("Form, availability and exemption"), "Art. 30(3)-(5)"),
)

CHECKLIST = (
    ChecklistItem("a-controller", "Art. 30(1)(a)", N_("Name and contact details of the controller,"
                  " any joint controller, the representative and the DPO"), "controller-record",
                  N_("Controller, joint controllers, representative and DPO")),
    ChecklistItem("b-purposes", "Art. 30(1)(b)", N_("The purposes of the processing"),
                  "controller-record", N_("Purposes of the processing")),
    ChecklistItem("purpose-basis", "Art. 6(1), Art. 5(2)", N_("A legal basis for each purpose,"
                  " consistent with the data subjects concerned (Art. 6(1)(b) does not cover"
                  " prospects)"), "controller-record", N_("Legal basis of each purpose")),
    ChecklistItem("c-categories", "Art. 30(1)(c)", N_("Categories of data subjects and categories"
                  " of personal data"), "controller-record",
                  N_("Categories of data subjects and data")),
    ChecklistItem("special-categories", "Art. 9(2), Art. 10", N_("Special categories of data only"
                  " under an Art. 9(2) condition, and criminal offence data only under an"
                  " Art. 10 basis"), "controller-record",
                  N_("Special categories and criminal offence data")),
    ChecklistItem("d-recipients", "Art. 30(1)(d)", N_("Categories of recipients, including"
                  " recipients in third countries or international organisations"),
                  "controller-record", N_("Categories of recipients")),
    ChecklistItem("e-transfers", "Art. 30(1)(e)", N_("Transfers to a third country or"
                  " international organisation, naming it, and for Art. 49(1) second-subparagraph"
                  " transfers the documented safeguards"), "controller-record",
                  N_("Transfers to third countries")),
    ChecklistItem("f-erasure", "Art. 30(1)(f)", N_("Where possible, the time limits for erasure of"
                  " each data category, with the event from which each period runs"),
                  "controller-record", N_("Time limits for erasure")),
    ChecklistItem("g-security", "Art. 30(1)(g)", N_("Where possible, a general description of the"
                  " Art. 32(1) technical and organisational measures"), "controller-record",
                  N_("Technical and organisational security measures")),
    ChecklistItem("processor-record", "Art. 30(2)", N_("When acting as processor: processor and"
                  " controllers' names and contacts, representatives and DPO; categories of"
                  " processing per controller; transfers with safeguards; security measures"),
                  "processor-record", N_("Processing carried out on behalf of controllers")),
    ChecklistItem("written-form", "Art. 30(3)-(4)", N_("Kept in writing, including electronic form,"
                  " and made available to the supervisory authority on request"), "keeping",
                  N_("Written form and availability to the supervisory authority")),
    ChecklistItem("exemption", "Art. 30(5)", N_("The 250-employee exemption and its exceptions"),
                  "keeping", N_("Exemption for organisations under 250 employees")),
)  # fmt: skip

QUESTIONS = (
    Question("hasJointControllers", N_("Is the purpose or means determined jointly with another"
             " organisation?"), N_("Joint controllers need an Art. 26 arrangement."), "Art. 26",
             True, "boolean", "a-controller"),
    Question("jointControllerArrangement", N_("Where is the Art. 26 arrangement documented and"
             " who is the contact point?"), N_("Name the agreement and the contact point for data"
             " subjects."), "Art. 26(1)", True, "text", "a-controller",
             condition=("hasJointControllers", True)),
    Question("transferSafeguardsDocumented", N_("Are the safeguards of every transfer documented?"),
             N_("Art. 49(1) second-subparagraph transfers need documented safeguards."),
             "Art. 30(1)(e)", False, "boolean", "e-transfers"),
    Question("recordFormat", N_("In which form is the record kept?"),
             N_("Electronic form is allowed."),
             "Art. 30(3)", True, "choice", "written-form",
             options=(N_("Electronic"), N_("Paper"), N_("Electronic and paper"))),
    Question("recordOwner", N_("Who maintains the record and answers the supervisory authority?"),
             N_("Name a role, not only a person."), "Art. 30(4)", True, "text", "written-form"),
    Question("lastReviewed", N_("When was this entry last reviewed?"),
             N_("Keep the record current."),
             "Art. 30(1)", False, "date", "written-form"),
    Question("processingCharacteristics", N_("Which of these apply to the processing?"),
             N_("Any of them rules out the Art. 30(5) exemption."), "Art. 30(5)", False,
             "multiChoice", "exemption", options=(N_("Likely to result in a risk"),
                                                  N_("Not occasional"), N_("Art. 9 or 10 data"))),
)  # fmt: skip

DOCUMENT_TYPE = DocumentType(
    name="RECORD_OF_PROCESSING",
    title=N_("Record of Processing Activities"),
    ruleset_version="ropa-2026.2",
    description=N_("Record of processing activities kept under Art. 30 GDPR."),
    questions=QUESTIONS,
    sections=SECTIONS,
    checklist=CHECKLIST,
    writers=writers.WRITERS,
)
