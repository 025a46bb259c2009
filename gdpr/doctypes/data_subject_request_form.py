"""DATA_SUBJECT_REQUEST_FORM: a form to exercise GDPR rights (Art. 12, 15-22)."""

from __future__ import annotations

from gdpr.composition.writers import data_subject_request_form as writers
from gdpr.doctypes.base import ChecklistItem, DocumentType, Question, Section

RIGHTS = (
    "access",
    "rectification",
    "erasure",
    "restriction",
    "notification-recipients",
    "portability",
    "objection",
    "objection-direct-marketing",
    "withdraw-consent",
    "automated-decisions",
)


SECTIONS = (
    Section("requester", "Requester and identity verification", "Art. 12(6)"),
    Section("rights", "The right you exercise", "Art. 15-22"),
    Section("handling", "How we handle your request", "Art. 12(3)-(5)"),
)

CHECKLIST = (
    ChecklistItem("form-optional", "Art. 12(2)", "Using the form is optional: a request in"
                  " any form is valid", "requester", "Using this form"),
    ChecklistItem("requester-identity", "Art. 12(6)", "Identity of the requester and"
                  " proportionate verification only where there are reasonable doubts, without"
                  " identity documents by default (EDPB Guidelines 01/2022)", "requester",
                  "Your identity"),
    ChecklistItem("access", "Art. 15", "Right of access: the information of 15(1)(a)-(h)"
                  " incl. the right to complain (15(1)(f)), transfer safeguards (15(2)), a copy"
                  " of the data and the fee for further copies (15(3))", "rights",
                  "Access to your data"),
    ChecklistItem("rectification", "Art. 16", "Right to rectification", "rights",
                  "Rectification"),
    ChecklistItem("erasure", "Art. 17", "Right to erasure; restriction instead where a"
                  " retention duty applies (17(3)(b), 18)", "rights", "Erasure"),
    ChecklistItem("restriction", "Art. 18", "Right to restriction of processing", "rights",
                  "Restriction of processing"),
    ChecklistItem("notification-recipients", "Art. 19", "Notification of recipients of"
                  " rectification, erasure or restriction", "rights",
                  "Notification of recipients"),
    ChecklistItem("portability", "Art. 20", "Right to data portability", "rights",
                  "Data portability"),
    ChecklistItem("objection", "Art. 21(1)", "Right to object on grounds relating to one's"
                  " particular situation, with a field for the grounds, where the basis is"
                  " Art. 6(1)(e) or (f)", "rights", "Objection"),
    ChecklistItem("objection-direct-marketing", "Art. 21(2)-(3)", "Objection to direct"
                  " marketing, in a box of its own, without grounds", "rights",
                  "Objection to direct marketing"),
    ChecklistItem("withdraw-consent", "Art. 7(3)", "Withdrawal of consent where consent is a"
                  " basis", "rights", "Withdrawing consent"),
    ChecklistItem("automated-decisions", "Art. 22", "Decisions based solely on automated"
                  " processing: a prohibition (22(1)) with the exceptions of 22(2) and the"
                  " safeguards of 22(3)-(4)", "rights", "Automated decisions"),
    ChecklistItem("deadline", "Art. 12(3)", "One month, extendable by two further months with"
                  " notice within the first month, computed under Regulation 1182/71; an"
                  " overdue answer is flagged", "handling", "Response time"),
    ChecklistItem("refusal", "Art. 12(4)", "Reasons for not taking action and the right to"
                  " complain and seek a judicial remedy", "handling", "If we do not act"),
    ChecklistItem("complaint", "Art. 77", "Complaint to any supervisory authority: habitual"
                  " residence, place of work or of the alleged infringement", "handling",
                  "Complaints"),
    ChecklistItem("free-of-charge", "Art. 12(5)", "Free of charge unless manifestly unfounded"
                  " or excessive", "handling", "Cost"),
)  # fmt: skip

QUESTIONS = (
    Question("requestChannel", "How was the request received?", "Any channel is valid.",
             "Art. 12(2)", False, "choice", "requester-identity",
             options=("Web form", "E-mail", "Postal mail", "In person", "Telephone")),
    Question("actingOnBehalf", "Is someone acting on behalf of the data subject?",
             "A representative must show authority.", "Art. 12(6)", True, "boolean",
             "requester-identity"),
    Question("representativeAuthority", "What proves the representative's authority?",
             "E.g. power of attorney, parental responsibility.", "Art. 12(6)", True, "text",
             "requester-identity", condition=("actingOnBehalf", True)),
    Question("retentionDuty", "Does a legal duty require keeping some of the data?",
             "Erasure then becomes restriction until the duty ends.", "Art. 17(3)(b), 18",
             False, "text", "erasure"),
    Question("copyFormat", "In which format is the copy of the data provided?",
             "Electronic requests get an electronic answer.", "Art. 15(3)", False, "choice",
             "access", options=("PDF", "Machine-readable (CSV or JSON)", "Paper")),
    Question("extensionNeeded", "Is the two-month extension needed?",
             "Only for complex or numerous requests.", "Art. 12(3)", False, "boolean",
             "deadline"),
    Question("extensionReason", "Why is the extension needed?", "Told to the data subject"
             " within the first month.", "Art. 12(3)", True, "text", "deadline",
             condition=("extensionNeeded", True)),
    Question("manifestlyUnfounded", "Is the request manifestly unfounded or excessive?",
             "The controller bears the burden of proof.", "Art. 12(5)", False, "boolean",
             "free-of-charge"),
    Question("unfoundedJustification", "Why, and will you charge a fee or refuse?",
             "Document it.", "Art. 12(5)", True, "text", "free-of-charge",
             condition=("manifestlyUnfounded", True)),
)  # fmt: skip

DOCUMENT_TYPE = DocumentType(
    name="DATA_SUBJECT_REQUEST_FORM",
    title="Data Subject Request Form",
    ruleset_version="dsr-2026.2",
    description=(
        "You may use this form to exercise your rights under the GDPR (Art. 15-22): tick the"
        " right you exercise and send it to the controller. Using it is optional."
    ),
    questions=QUESTIONS,
    sections=SECTIONS,
    checklist=CHECKLIST,
    writers=writers.WRITERS,
    public=True,
)
