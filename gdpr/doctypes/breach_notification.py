"""BREACH_NOTIFICATION: notification to the authority and communication to subjects (33, 34)."""

from __future__ import annotations

from gdpr.composition.writers import breach_notification as writers
from gdpr.doctypes.base import ChecklistItem, DocumentType, Question, Section
from gdpr.i18n import N_

BREACH_TYPES = ("confidentiality", "integrity", "availability")


SECTIONS = (
    Section("notification", N_("Notification and deadline"), "Art. 33(1)-(2)"),
    Section("content", N_("Content of the notification"), "Art. 33(3)"),
    Section("record", N_("Information in phases and documentation"), "Art. 33(4)-(5)"),
    Section("subjects", N_("Communication to data subjects"), "Art. 34"),
)

CHECKLIST = (
    ChecklistItem("deadline", "Art. 33(1)", N_("Notify the supervisory authority without undue"
                  " delay and where feasible within 72 hours of becoming aware, with reasons for"
                  " any delay"), "notification", N_("Deadline for notification")),
    ChecklistItem("timeline", N_("Art. 33(1), 33(5); EDPB Guidelines 9/2022"),
                  N_("Timeline: when the"
                  " breach occurred, was discovered, when the controller became aware and when it"
                  " notified"), "notification", N_("Timeline")),
    ChecklistItem("processor-notification", "Art. 33(2)", N_("Processors notify the controller"
                  " without undue delay"), "notification", N_("Processor's notification")),
    ChecklistItem("a-nature", "Art. 33(3)(a)", N_("Nature of the breach, categories and"
                  " approximate numbers of data subjects and records"), "content",
                  N_("Nature of the breach")),
    ChecklistItem("b-contact", "Art. 33(3)(b)", N_("Name and contact details of the DPO or other"
                  " contact point"), "content", N_("Contact point")),
    ChecklistItem("c-consequences", "Art. 33(3)(c)", N_("Likely consequences of the breach"),
                  "content", N_("Likely consequences")),
    ChecklistItem("d-measures", "Art. 33(3)(d)", N_("Measures taken or proposed, including"
                  " mitigation"), "content", N_("Measures taken or proposed")),
    ChecklistItem("phased-information", "Art. 33(4)", N_("Information provided in phases where"
                  " not available at once"), "record", N_("Information in phases")),
    ChecklistItem("documentation", "Art. 33(5)", N_("Documentation of the breach: facts, effects"
                  " and remedial action"), "record", N_("Internal documentation")),
    ChecklistItem("data-subject-communication", "Art. 34", N_("Communication to data subjects"
                  " when high risk, in clear and plain language, unless an Art. 34(3) exception"
                  " applies"), "subjects", N_("Communication to data subjects")),
    ChecklistItem("encryption", "Art. 34(3)(a)", N_("Encryption status of the data and its effect"
                  " on the Art. 34(3)(a) exemption"), "subjects", N_("Encryption")),
    ChecklistItem("draft-communication", N_("Art. 34(2); EDPB Guidelines 9/2022"), N_("Draft"
                  " communication to data subjects with concrete advice and a contact point"),
                  "subjects", N_("Draft communication to data subjects")),
)  # fmt: skip

QUESTIONS = (
    Question("howDiscovered", N_("How was the breach discovered?"), N_("Helps date awareness."),
             "Art. 33(1)", True, "choice", "a-nature",
             options=(N_("Internal detection"), N_("Reported by a processor"),
                      N_("Reported by a data subject"), N_("Reported by a third party"),
                      N_("Media or public source"))),
    Question("breachOngoing", N_("Is the breach still ongoing?"), N_("Containment status."),
             "Art. 33(3)(d)", True, "boolean", "d-measures"),
    Question("containedOn", N_("When was the breach contained?"), N_("Date of containment."),
             "Art. 33(3)(d)", False, "date", "d-measures", condition=("breachOngoing", False)),
    Question("crossBorder", N_("Does the breach affect data subjects in several Member States?"),
             N_("Notify the lead supervisory authority (Art. 56)."), "Art. 56", False, "boolean",
             "deadline"),
    Question("informationComplete", N_("Is all the Art. 33(3) information available now?"),
             N_("Otherwise provide it in phases."), "Art. 33(4)", True, "boolean",
             "phased-information"),
    Question("pendingInformation", N_("Which information is still being gathered, and when will"
             " it follow?"), N_("Name the items and an expected date."), "Art. 33(4)", True, "text",
             "phased-information", condition=("informationComplete", False)),
    Question("communicationChannels", N_("How will data subjects be told?"),
             N_("Direct messages unless disproportionate."), "Art. 34(2)", False, "multiChoice",
             "data-subject-communication",
             options=(N_("E-mail"), N_("Letter"), N_("SMS"), N_("Website notice"),
                      N_("Press release"))),
)  # fmt: skip

DOCUMENT_TYPE = DocumentType(
    name="BREACH_NOTIFICATION",
    title=N_("Personal Data Breach Notification"),
    ruleset_version="breach-2026.2",
    description=(
        N_(
            "Notification of a personal data breach to the supervisory authority (Art. 33 GDPR)"
            " and decision on communication to the data subjects (Art. 34), following EDPB"
            " Guidelines 9/2022."
        )
    ),
    questions=QUESTIONS,
    sections=SECTIONS,
    checklist=CHECKLIST,
    writers=writers.WRITERS,
    assess=writers.assess,
    # Signed by the processor / sent to the supervisory authority.
    external=True,
)
