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
    "automated-decisions",
)


SECTIONS = (
    Section("requester", "Requester and identity verification", "Art. 12(6)"),
    Section("rights", "The right you exercise", "Art. 15-22"),
    Section("handling", "How we handle your request", "Art. 12(3)-(5)"),
)

CHECKLIST = (
    ChecklistItem("requester-identity", "Art. 12(6)", "Identity of the requester and"
                  " verification where there are reasonable doubts", "requester",
                  "Your identity"),
    ChecklistItem("access", "Art. 15", "Right of access, with a copy of the data (15(3))",
                  "rights", "Access to your data"),
    ChecklistItem("rectification", "Art. 16", "Right to rectification", "rights",
                  "Rectification"),
    ChecklistItem("erasure", "Art. 17", "Right to erasure", "rights", "Erasure"),
    ChecklistItem("restriction", "Art. 18", "Right to restriction of processing", "rights",
                  "Restriction of processing"),
    ChecklistItem("notification-recipients", "Art. 19", "Notification of recipients of"
                  " rectification, erasure or restriction", "rights",
                  "Notification of recipients"),
    ChecklistItem("portability", "Art. 20", "Right to data portability", "rights",
                  "Data portability"),
    ChecklistItem("objection", "Art. 21", "Right to object", "rights", "Objection"),
    ChecklistItem("automated-decisions", "Art. 22", "Right not to be subject to a decision"
                  " based solely on automated processing", "rights", "Automated decisions"),
    ChecklistItem("deadline", "Art. 12(3)", "One month, extendable by two further months with"
                  " notice within the first month", "handling", "Response time"),
    ChecklistItem("refusal", "Art. 12(4)", "Reasons for not taking action and the right to"
                  " complain and seek a judicial remedy", "handling", "If we do not act"),
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
    ruleset_version="dsr-2026.1",
    description=(
        "Use this form to exercise your rights under the GDPR (Art. 15-22). Tick the right"
        " you exercise and send the form to the controller."
    ),
    questions=QUESTIONS,
    sections=SECTIONS,
    checklist=CHECKLIST,
    writers=writers.WRITERS,
)
