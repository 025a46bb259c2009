"""PRIVACY_POLICY: information to data subjects (Art. 13 and, for indirect collection, 14)."""

from __future__ import annotations

from gdpr.composition.writers import privacy_policy as writers
from gdpr.doctypes.base import ChecklistItem, DocumentType, Question, Section
from gdpr.i18n import N_

SECTIONS = (
    Section("who", N_("Who we are"), "Art. 13(1)(a)-(b)"),
    Section("why", N_("What we process and why"), "Art. 13(1)(c)-(d), 14(1)(d)"),
    Section("sharing", N_("Who receives your data"), "Art. 13(1)(e)-(f)"),
    Section("retention", N_("How long we keep your data"), "Art. 13(2)(a)"),
    Section("rights", N_("Your rights"), "Art. 13(2)(b)-(d)"),
    Section("obligations", N_("Providing data and automated decisions"), "Art. 13(2)(e)-(f)"),
    Section("indirect", N_("Data we do not obtain from you"), "Art. 14"),
    Section("changes", N_("Changes to this notice"), "Art. 13(3)"),
)

CHECKLIST = (
    ChecklistItem("controller", "Art. 13(1)(a)", N_("Identity and contact details of the controller"
                  " and, where applicable, its representative"), "who", N_("Controller")),
    ChecklistItem("dpo", "Art. 13(1)(b)", N_("Contact details of the data protection officer"),
                  "who", N_("Data protection officer")),
    ChecklistItem("purposes-legal-basis", "Art. 13(1)(c)", N_("Purposes of the processing and, for"
                  " each purpose, its legal basis, data, retention, recipients and source (one"
                  " table per purpose; Art. 13(1)(c)-(e), 13(2)(a), 14(2)(f))"), "why",
                  N_("Purposes and legal basis")),
    ChecklistItem("legitimate-interests", "Art. 13(1)(d)", N_("The legitimate interests pursued"
                  " where the processing relies on Art. 6(1)(f)"), "why",
                  N_("Legitimate interests")),
    ChecklistItem("data-categories", "Art. 14(1)(d)", N_("Categories of personal data concerned"),
                  "why", N_("Categories of personal data")),
    ChecklistItem("recipients", "Art. 13(1)(e)", N_("Recipients or categories of recipients"),
                  "sharing", N_("Recipients")),
    ChecklistItem("transfers", "Art. 13(1)(f)", N_("Transfers to third countries with the adequacy"
                  " decision or Art. 46/47/49 safeguards and how to obtain a copy"), "sharing",
                  N_("Transfers outside the EEA")),
    ChecklistItem("retention", "Art. 13(2)(a)", N_("Retention period or the criteria used to set"
                  " it"), "retention", N_("Retention")),
    ChecklistItem("rights", "Art. 13(2)(b)", N_("Rights of access, rectification, erasure and"
                  " restriction; portability only where the basis is consent or contract and"
                  " the processing is automated (Art. 20(1))"), "rights", N_("Your rights")),
    ChecklistItem("objection", "Art. 21(4)", N_("Right to object (Art. 21(1)) where the basis is"
                  " Art. 6(1)(e) or (f), and to direct marketing in every case (Art. 21(2)),"
                  " presented explicitly and separately from other information"), "rights",
                  N_("Your right to object")),
    ChecklistItem("withdraw-consent", "Art. 13(2)(c)", N_("Right to withdraw consent at any time"
                  " where consent is the basis: how, and what is kept afterwards (Art. 7(3))"),
                  "rights", N_("Withdrawing consent")),
    ChecklistItem("complaint", "Art. 13(2)(d)", N_("Right to lodge a complaint with any"
                  " supervisory authority: habitual residence, place of work or of the alleged"
                  " infringement (Art. 77(1))"), "rights", N_("Complaints")),
    ChecklistItem("statutory-requirement", "Art. 13(2)(e)", N_("Whether providing the data is a"
                  " statutory or contractual requirement and the consequences of not providing it"),
                  "obligations", N_("Whether you must provide your data")),
    ChecklistItem("automated-decisions", "Art. 13(2)(f)", N_("Automated decision-making including"
                  " profiling, the logic involved and its consequences"), "obligations",
                  N_("Automated decisions and profiling")),
    ChecklistItem("source", "Art. 14(2)(f)", N_("The source of the data, including publicly"
                  " accessible sources"), "indirect", N_("Where your data comes from")),
    ChecklistItem("information-timing", "Art. 14(3)", N_("Information given within a reasonable"
                  " period, at the latest one month after obtaining the data in every case"),
                  "indirect",
                  N_("When we inform you")),
    ChecklistItem("exemptions", "Art. 14(5)", N_("Exemptions from informing data subjects: only"
                  " the one claimed, if any"), "indirect", N_("Exemptions")),
    ChecklistItem("further-processing", "Art. 13(3), 14(4)", N_("New purposes announced before"
                  " further processing"), "changes", N_("New purposes and updates")),
)  # fmt: skip

QUESTIONS = (
    Question("childrenData", N_("Does the processing concern children under 16?"),
             N_("Consent for information society services needs parental authorisation."),
             "Art. 8", True, "boolean", "purposes-legal-basis"),
    Question("parentalConsentMethod", N_("How is parental consent obtained and verified?"),
             N_("Reasonable efforts to verify, in view of available technology."), "Art. 8(2)",
             True, "text", "purposes-legal-basis", condition=("childrenData", True)),
    Question("rightsRequestChannel", N_("How should data subjects send requests?"),
             N_("Make exercising rights easy."), "Art. 12(2)", True, "choice", "rights",
             options=(N_("E-mail"), N_("Web form"), N_("Postal mail"), N_("Any of these"))),
    Question("directMarketing", N_("Is personal data used for direct marketing?"),
             N_("The right to object to it applies whatever the legal basis."), "Art. 21(2)",
             False, "boolean", "objection"),
    Question("consentWithdrawalMethod", N_("How can consent be withdrawn?"),
             N_("As easy as giving it."), "Art. 7(3)", False, "text", "withdraw-consent"),
    Question("afterWithdrawal", N_("What is kept after consent is withdrawn, and why?"),
             N_("E.g. a suppression list, the proof of consent."), "Art. 7(1), 7(3)", False,
             "text", "withdraw-consent"),
    Question("automatedDecisionSafeguards", N_("Which safeguards accompany automated decisions?"),
             N_("Art. 22(3)."), "Art. 22(3)", False, "multiChoice", "automated-decisions",
             options=(N_("Human review on request"), N_("Right to express one's view"),
                      N_("Right to contest the decision"), N_("Regular accuracy testing"))),
    Question("publicSources", N_("Do any data come from publicly accessible sources?"),
             N_("Art. 14(2)(f)."), "Art. 14(2)(f)", False, "boolean", "source"),
    Question("effectiveDate", N_("From which date does this notice apply?"),
             N_("Shown to readers."),
             "Art. 12(1)", False, "date", "further-processing"),
)  # fmt: skip

DOCUMENT_TYPE = DocumentType(
    name="PRIVACY_POLICY",
    title=N_("Privacy Notice"),
    ruleset_version="privacy-2026.2",
    description=(
        N_(
            "This notice explains how your personal data is processed, as required by Art. 13 and"
            " 14 GDPR."
        )
    ),
    questions=QUESTIONS,
    sections=SECTIONS,
    checklist=CHECKLIST,
    writers=writers.WRITERS,
    public=True,
)
