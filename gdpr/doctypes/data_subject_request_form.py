"""DATA_SUBJECT_REQUEST_FORM: a form to exercise GDPR rights (Art. 12, 15-22)."""

from __future__ import annotations

from gdpr.composition.writers import data_subject_request_form as writers
from gdpr.doctypes.base import ChecklistItem, DocumentType, Question, Section
from gdpr.i18n import N_

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
    Section("requester", N_("Requester and identity verification"), "Art. 12(6)"),
    Section("rights", N_("The right you exercise"), "Art. 15-22"),
    Section("handling", N_("How we handle your request"), "Art. 12(3)-(5)"),
)

CHECKLIST = (
    ChecklistItem("form-optional", "Art. 12(2)", N_("Using the form is optional: a request in"
                  " any form is valid"), "requester", N_("Using this form")),
    ChecklistItem("requester-identity", "Art. 12(6)", N_("Identity of the requester and"
                  " proportionate verification only where there are reasonable doubts, without"
                  " identity documents by default (EDPB Guidelines 01/2022)"), "requester",
                  N_("Your identity")),
    ChecklistItem("access", "Art. 15", N_("Right of access: the information of 15(1)(a)-(h)"
                  " incl. the right to complain (15(1)(f)), transfer safeguards (15(2)), a copy"
                  " of the data and the fee for further copies (15(3))"), "rights",
                  N_("Access to your data")),
    ChecklistItem("rectification", "Art. 16", N_("Right to rectification"), "rights",
                  N_("Rectification")),
    ChecklistItem("erasure", "Art. 17", N_("Right to erasure; restriction instead where a"
                  " retention duty applies (17(3)(b), 18)"), "rights", N_("Erasure")),
    ChecklistItem("restriction", "Art. 18", N_("Right to restriction of processing"), "rights",
                  N_("Restriction of processing")),
    ChecklistItem("notification-recipients", "Art. 19", N_("Notification of recipients of"
                  " rectification, erasure or restriction"), "rights",
                  N_("Notification of recipients")),
    ChecklistItem("portability", "Art. 20", N_("Right to data portability"), "rights",
                  N_("Data portability")),
    ChecklistItem("objection", "Art. 21(1)", N_("Right to object on grounds relating to one's"
                  " particular situation, with a field for the grounds, where the basis is"
                  " Art. 6(1)(e) or (f)"), "rights", N_("Objection")),
    ChecklistItem("objection-direct-marketing", "Art. 21(2)-(3)", N_("Objection to direct"
                  " marketing, in a box of its own, without grounds"), "rights",
                  N_("Objection to direct marketing")),
    ChecklistItem("withdraw-consent", "Art. 7(3)", N_("Withdrawal of consent where consent is a"
                  " basis"), "rights", N_("Withdrawing consent")),
    ChecklistItem("automated-decisions", "Art. 22", N_("Decisions based solely on automated"
                  " processing: a prohibition (22(1)) with the exceptions of 22(2) and the"
                  " safeguards of 22(3)-(4)"), "rights", N_("Automated decisions")),
    ChecklistItem("deadline", "Art. 12(3)", N_("One month, extendable by two further months with"
                  " notice within the first month, computed under Regulation 1182/71; an"
                  " overdue answer is flagged"), "handling", N_("Response time")),
    ChecklistItem("refusal", "Art. 12(4)", N_("Reasons for not taking action and the right to"
                  " complain and seek a judicial remedy"), "handling", N_("If we do not act")),
    ChecklistItem("complaint", "Art. 77", N_("Complaint to any supervisory authority: habitual"
                  " residence, place of work or of the alleged infringement"), "handling",
                  N_("Complaints")),
    ChecklistItem("free-of-charge", "Art. 12(5)", N_("Free of charge unless manifestly unfounded"
                  " or excessive"), "handling", N_("Cost")),
)  # fmt: skip

QUESTIONS = (
    Question("requestChannel", N_("How was the request received?"), N_("Any channel is valid."),
             "Art. 12(2)", False, "choice", "requester-identity",
             options=(N_("Web form"), N_("E-mail"), N_("Postal mail"), N_("In person"),
                      N_("Telephone"))),
    Question("actingOnBehalf", N_("Is someone acting on behalf of the data subject?"),
             N_("A representative must show authority."), "Art. 12(6)", True, "boolean",
             "requester-identity"),
    Question("representativeAuthority", N_("What proves the representative's authority?"),
             N_("E.g. power of attorney, parental responsibility."), "Art. 12(6)", True, "text",
             "requester-identity", condition=("actingOnBehalf", True)),
    Question("retentionDuty", N_("Does a legal duty require keeping some of the data?"),
             N_("Erasure then becomes restriction until the duty ends."), "Art. 17(3)(b), 18",
             False, "text", "erasure"),
    Question("copyFormat", N_("In which format is the copy of the data provided?"),
             N_("Electronic requests get an electronic answer."), "Art. 15(3)", False, "choice",
             "access", options=(N_("PDF"), N_("Machine-readable (CSV or JSON)"), N_("Paper"))),
    Question("extensionNeeded", N_("Is the two-month extension needed?"),
             N_("Only for complex or numerous requests."), "Art. 12(3)", False, "boolean",
             "deadline"),
    Question("extensionReason", N_("Why is the extension needed?"), N_("Told to the data subject"
             " within the first month."), "Art. 12(3)", True, "text", "deadline",
             condition=("extensionNeeded", True)),
    Question("manifestlyUnfounded", N_("Is the request manifestly unfounded or excessive?"),
             N_("The controller bears the burden of proof."), "Art. 12(5)", False, "boolean",
             "free-of-charge"),
    Question("unfoundedJustification", N_("Why, and will you charge a fee or refuse?"),
             N_("Document it."), "Art. 12(5)", True, "text", "free-of-charge",
             condition=("manifestlyUnfounded", True)),
)  # fmt: skip

DOCUMENT_TYPE = DocumentType(
    name="DATA_SUBJECT_REQUEST_FORM",
    title=N_("Data Subject Request Form"),
    ruleset_version="dsr-2026.2",
    description=(
        N_(
            "You may use this form to exercise your rights under the GDPR (Art. 15-22): tick the"
            " right you exercise and send it to the controller. Using it is optional."
        )
    ),
    questions=QUESTIONS,
    sections=SECTIONS,
    checklist=CHECKLIST,
    writers=writers.WRITERS,
    public=True,
)
