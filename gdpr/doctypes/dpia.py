"""DPIA: data protection impact assessment (Art. 35), CNIL PIA method."""

from __future__ import annotations

from gdpr.composition.writers import dpia as writers
from gdpr.doctypes.base import ChecklistItem, DocumentType, Question, Section
from gdpr.i18n import N_

SECTIONS = (
    Section("context", N_("Context and description of the processing"), "Art. 35(7)(a)"),
    Section("screening", N_("Screening: is a DPIA required?"), "Art. 35(1), 35(3), 35(4)"),
    Section("principles", N_("Necessity and proportionality"), "Art. 35(7)(b)"),
    Section("risks", N_("Risks to the rights and freedoms of data subjects"), "Art. 35(7)(c)"),
    Section("measures", N_("Measures envisaged to address the risks"), "Art. 35(7)(d)"),
    Section("opinions", N_("Advice of the DPO and views of data subjects"), "Art. 35(2), 35(9)"),
    Section("validation", N_("Validation, prior consultation and review"), "Art. 35(11), 36"),
)

CHECKLIST = (
    ChecklistItem("a-description", "Art. 35(7)(a)",
                  N_("Systematic description of the processing operations and purposes, including"
                  " the legitimate interest pursued where applicable"),
                  "context", N_("Systematic description of the processing")),
    ChecklistItem("special-categories", "Art. 9(2), Art. 10",
                  N_("Special categories of data only under an Art. 9(2) condition, and data"
                  " relating to criminal convictions and offences only under an Art. 10 basis"),
                  "context", N_("Special categories and criminal offence data")),
    ChecklistItem("screening", N_("Art. 35(3); EDPB WP248"),
                  N_("Screening against Art. 35(3)(a)-(c) and the nine EDPB WP248 criteria; two or"
                  " more met: DPIA required"), "screening", N_("Screening against the criteria")),
    ChecklistItem("national-list", "Art. 35(4)",
                  N_("The supervisory authority's list of processing operations requiring a DPIA,"
                  " checked for the controller's country"), "screening",
                  N_("National list of processing requiring a DPIA")),
    ChecklistItem("b-necessity", "Art. 35(7)(b)",
                  N_("Assessment of necessity and proportionality in relation to the purposes"),
                  "principles", N_("Necessity and proportionality assessment")),
    ChecklistItem("balancing-test", "Art. 6(1)(f)",
                  N_("A documented balancing test of the legitimate interests against the data"
                  " subjects' interests, rights and freedoms where Art. 6(1)(f) is relied on"),
                  "principles", N_("Balancing test for legitimate interests")),
    ChecklistItem("c-risks", "Art. 35(7)(c)",
                  N_("Assessment of the risks to the rights and freedoms of data subjects"),
                  "risks", N_("Risk assessment")),
    ChecklistItem("d-measures", "Art. 35(7)(d)",
                  N_("Measures to address the risks, safeguards, security measures and how"
                  " compliance is demonstrated"), "measures", N_("Measures and safeguards")),
    ChecklistItem("dpo-advice", "Art. 35(2)", N_("Advice of the data protection officer"),
                  "opinions", N_("Advice of the data protection officer")),
    ChecklistItem("data-subject-views", "Art. 35(9)",
                  N_("Views of data subjects or their representatives, where appropriate"),
                  "opinions", N_("Views of data subjects")),
    ChecklistItem("action-plan", N_("Art. 35(7)(d); CNIL PIA"),
                  N_("Action plan carrying the measures planned and the conditions of the DPO's"
                  " advice, each with its owner and due date"), "validation", N_("Action plan")),
    ChecklistItem("validation", N_("Art. 24(1); CNIL PIA"),
                  N_("Validation of the assessment by the controller: decision, name and date"),
                  "validation", N_("Validation by the controller")),
    ChecklistItem("prior-consultation", "Art. 36(1)",
                  N_("Prior consultation of the supervisory authority if a high residual risk"
                  " remains"), "validation", N_("Prior consultation of the supervisory authority")),
    ChecklistItem("review", "Art. 35(11)",
                  N_("Review of the assessment at least when the risk changes"), "validation",
                  N_("Review of the assessment")),
)  # fmt: skip

QUESTIONS = (
    Question("dataMinimisation", N_("Is every data category necessary for the stated purposes?"),
             N_("Art. 5(1)(c): adequate, relevant and limited to what is necessary."),
             "Art. 5(1)(c)", True, "boolean", "b-necessity"),
    Question("minimisationPlan", N_("Which data categories are not strictly necessary, and what"
             " will be done about them?"),
             N_("Name each category and the action (drop, pseudonymise,"
             " shorten retention)."), "Art. 5(1)(c)", True, "text", "b-necessity",
             condition=("dataMinimisation", False)),
    Question("retentionApproach", N_("How are retention periods set?"),
             N_("Art. 5(1)(e): storage limitation."), "Art. 5(1)(e)", True, "choice", "b-necessity",
             options=(N_("Fixed period per data category"), N_("Criteria-based"),
                      N_("Not yet defined"))),
    Question("rightsChannels",
             N_("Through which channels can data subjects exercise their rights?"),
             N_("Art. 12-22."), "Art. 12(2)", False, "multiChoice", "b-necessity",
             options=(N_("Web form"), N_("E-mail"), N_("Postal mail"), N_("In-app self-service"),
                      N_("Customer service"))),
    Question("processorsBound", N_("Are all processors bound by an Art. 28 agreement?"),
             N_("Each processor needs a contract with the Art. 28(3) terms."), "Art. 28(3)", True,
             "boolean", "d-measures"),
    Question("dpoOpinion", N_("What is the DPO's opinion on this DPIA?"),
             N_("The controller must seek the DPO's advice."), "Art. 35(2)", True, "choice",
             "dpo-advice", options=(N_("Favourable"), N_("Favourable with reservations"),
                                    N_("Unfavourable"))),
    Question("dataSubjectsConsulted", N_("Were data subjects or their representatives consulted?"),
             N_("Seek their views where appropriate (e.g. survey, works council)."), "Art. 35(9)",
             True, "boolean", "data-subject-views"),
    Question("consultationSummary", N_("How were they consulted and what did they say?"),
             N_("Method, date, main views and how they were taken into account."), "Art. 35(9)",
             True, "text", "data-subject-views", condition=("dataSubjectsConsulted", True)),
    Question("consultationNotSoughtReason", N_("Why was it not appropriate to seek their views?"),
             N_("E.g. confidentiality of the project, disproportionate effort."), "Art. 35(9)",
             True,
             "text", "data-subject-views", condition=("dataSubjectsConsulted", False)),
    Question("controllerDecision", N_("What does the controller decide on this processing?"),
             N_("The controller validates the DPIA in light of the DPO's advice (CNIL PIA); give"
             " validatedBy and validationDate in the create body."),
             "Art. 24(1)", True, "choice", "validation",
             options=(N_("Processing may start"),
                      N_("Processing may start once the action plan is implemented"),
                      N_("Processing may start only after prior consultation of the supervisory"
                         " authority (Art. 36)"),
                      N_("Processing must not start as designed"))),
    Question("nextReviewDate", N_("When will the DPIA next be reviewed?"),
             N_("At the latest when the risk changes; a yearly review is good practice."),
             "Art. 35(11)", False, "date", "review"),
    Question("reviewTriggers", N_("Which changes will trigger an earlier review?"),
             N_("Art. 35(11)."), "Art. 35(11)", False, "multiChoice", "review",
             options=(N_("New data category"), N_("New purpose"), N_("New technology"),
                      N_("Security incident"), N_("Change of processor"), N_("Regulatory change"))),
)  # fmt: skip

DOCUMENT_TYPE = DocumentType(
    name="DPIA",
    title=N_("Data Protection Impact Assessment"),
    ruleset_version="dpia-2026.2",
    description=(
        N_(
            "This assessment follows Art. 35 GDPR, the EDPB guidelines on DPIA (WP248 rev.01) and"
            " the CNIL PIA method: context, fundamental principles, risks, measures, validation."
        )
    ),
    questions=QUESTIONS,
    sections=SECTIONS,
    checklist=CHECKLIST,
    writers=writers.WRITERS,
    assess=writers.assess,
    # Submitted to the supervisory authority with the prior consultation (Art. 36(3)(e)).
    external_when=writers.submitted_for_prior_consultation,
)
