"""PRIVACY_POLICY: information to data subjects (Art. 13 and, for indirect collection, 14)."""

from __future__ import annotations

from gdpr.composition.writers import privacy_policy as writers
from gdpr.doctypes.base import ChecklistItem, DocumentType, Question, Section

SECTIONS = (
    Section("who", "Who we are", "Art. 13(1)(a)-(b)"),
    Section("why", "What we process and why", "Art. 13(1)(c)-(d), 14(1)(d)"),
    Section("sharing", "Who receives your data", "Art. 13(1)(e)-(f)"),
    Section("retention", "How long we keep your data", "Art. 13(2)(a)"),
    Section("rights", "Your rights", "Art. 13(2)(b)-(d)"),
    Section("obligations", "Providing data and automated decisions", "Art. 13(2)(e)-(f)"),
    Section("indirect", "Data we do not obtain from you", "Art. 14"),
    Section("changes", "Changes to this notice", "Art. 13(3)"),
)

CHECKLIST = (
    ChecklistItem("controller", "Art. 13(1)(a)", "Identity and contact details of the controller"
                  " and, where applicable, its representative", "who", "Controller"),
    ChecklistItem("dpo", "Art. 13(1)(b)", "Contact details of the data protection officer",
                  "who", "Data protection officer"),
    ChecklistItem("purposes-legal-basis", "Art. 13(1)(c)", "Purposes of the processing and, for"
                  " each purpose, its legal basis, data, retention, recipients and source (one"
                  " table per purpose; Art. 13(1)(c)-(e), 13(2)(a), 14(2)(f))", "why",
                  "Purposes and legal basis"),
    ChecklistItem("legitimate-interests", "Art. 13(1)(d)", "The legitimate interests pursued"
                  " where the processing relies on Art. 6(1)(f)", "why", "Legitimate interests"),
    ChecklistItem("data-categories", "Art. 14(1)(d)", "Categories of personal data concerned",
                  "why", "Categories of personal data"),
    ChecklistItem("recipients", "Art. 13(1)(e)", "Recipients or categories of recipients",
                  "sharing", "Recipients"),
    ChecklistItem("transfers", "Art. 13(1)(f)", "Transfers to third countries with the adequacy"
                  " decision or Art. 46/47/49 safeguards and how to obtain a copy", "sharing",
                  "Transfers outside the EEA"),
    ChecklistItem("retention", "Art. 13(2)(a)", "Retention period or the criteria used to set"
                  " it", "retention", "Retention"),
    ChecklistItem("rights", "Art. 13(2)(b)", "Rights of access, rectification, erasure and"
                  " restriction; portability only where the basis is consent or contract and"
                  " the processing is automated (Art. 20(1))", "rights", "Your rights"),
    ChecklistItem("objection", "Art. 21(4)", "Right to object (Art. 21(1)) where the basis is"
                  " Art. 6(1)(e) or (f), and to direct marketing in every case (Art. 21(2)),"
                  " presented explicitly and separately from other information", "rights",
                  "Your right to object"),
    ChecklistItem("withdraw-consent", "Art. 13(2)(c)", "Right to withdraw consent at any time"
                  " where consent is the basis: how, and what is kept afterwards (Art. 7(3))",
                  "rights", "Withdrawing consent"),
    ChecklistItem("complaint", "Art. 13(2)(d)", "Right to lodge a complaint with any"
                  " supervisory authority: habitual residence, place of work or of the alleged"
                  " infringement (Art. 77(1))", "rights", "Complaints"),
    ChecklistItem("statutory-requirement", "Art. 13(2)(e)", "Whether providing the data is a"
                  " statutory or contractual requirement and the consequences of not providing it",
                  "obligations", "Whether you must provide your data"),
    ChecklistItem("automated-decisions", "Art. 13(2)(f)", "Automated decision-making including"
                  " profiling, the logic involved and its consequences", "obligations",
                  "Automated decisions and profiling"),
    ChecklistItem("source", "Art. 14(2)(f)", "The source of the data, including publicly"
                  " accessible sources", "indirect", "Where your data comes from"),
    ChecklistItem("information-timing", "Art. 14(3)", "Information given within a reasonable"
                  " period, at the latest one month after obtaining the data in every case",
                  "indirect",
                  "When we inform you"),
    ChecklistItem("exemptions", "Art. 14(5)", "Exemptions from informing data subjects: only"
                  " the one claimed, if any", "indirect", "Exemptions"),
    ChecklistItem("further-processing", "Art. 13(3), 14(4)", "New purposes announced before"
                  " further processing", "changes", "New purposes and updates"),
)  # fmt: skip

QUESTIONS = (
    Question("childrenData", "Does the processing concern children under 16?",
             "Consent for information society services needs parental authorisation.",
             "Art. 8", True, "boolean", "purposes-legal-basis"),
    Question("parentalConsentMethod", "How is parental consent obtained and verified?",
             "Reasonable efforts to verify, in view of available technology.", "Art. 8(2)",
             True, "text", "purposes-legal-basis", condition=("childrenData", True)),
    Question("rightsRequestChannel", "How should data subjects send requests?",
             "Make exercising rights easy.", "Art. 12(2)", True, "choice", "rights",
             options=("E-mail", "Web form", "Postal mail", "Any of these")),
    Question("directMarketing", "Is personal data used for direct marketing?",
             "The right to object to it applies whatever the legal basis.", "Art. 21(2)",
             False, "boolean", "objection"),
    Question("consentWithdrawalMethod", "How can consent be withdrawn?",
             "As easy as giving it.", "Art. 7(3)", False, "text", "withdraw-consent"),
    Question("afterWithdrawal", "What is kept after consent is withdrawn, and why?",
             "E.g. a suppression list, the proof of consent.", "Art. 7(1), 7(3)", False,
             "text", "withdraw-consent"),
    Question("automatedDecisionSafeguards", "Which safeguards accompany automated decisions?",
             "Art. 22(3).", "Art. 22(3)", False, "multiChoice", "automated-decisions",
             options=("Human review on request", "Right to express one's view",
                      "Right to contest the decision", "Regular accuracy testing")),
    Question("publicSources", "Do any data come from publicly accessible sources?",
             "Art. 14(2)(f).", "Art. 14(2)(f)", False, "boolean", "source"),
    Question("effectiveDate", "From which date does this notice apply?", "Shown to readers.",
             "Art. 12(1)", False, "date", "further-processing"),
)  # fmt: skip

DOCUMENT_TYPE = DocumentType(
    name="PRIVACY_POLICY",
    title="Privacy Notice",
    ruleset_version="privacy-2026.2",
    description=(
        "This notice explains how your personal data is processed, as required by Art. 13 and"
        " 14 GDPR."
    ),
    questions=QUESTIONS,
    sections=SECTIONS,
    checklist=CHECKLIST,
    writers=writers.WRITERS,
    public=True,
)
