"""Legal review of the DPIA, the breach notification, the DPA and the privacy notice, and of
the translations: each test names the article it enforces and feeds the inputs that trigger it.

Pure compositions (no database) except the input validation, which uses the DRF serializer.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest

from gdpr.composition import completeness_report, compose
from gdpr.composition.assessments.controller_ratings import (
    RISK_KEYS,
    ControllerRating,
    apply_controller_ratings,
)
from gdpr.composition.assessments.dpia_risk import assess_risks
from gdpr.composition.assessments.dpia_screening import DpiaFacts
from gdpr.composition.completeness import item_blocks
from gdpr.composition.markdown import escape_inline
from gdpr.composition.skeleton import leaves_organization
from gdpr.composition.writers.dpia_governance import DECISIONS
from gdpr.doctypes.registry import DOCUMENT_TYPES
from gdpr.i18n.detect import without_values
from legal_documents.exports.base import ExportMeta, metadata_rows
from legal_documents.inputs.dpia import DpiaInputSerializer
from tests.legal_documents.samples import FIXED_NOW, FULL_ANSWERS, FULL_INPUTS

DPIA = DOCUMENT_TYPES["DPIA"]
BREACH = DOCUMENT_TYPES["BREACH_NOTIFICATION"]
DPA = DOCUMENT_TYPES["DATA_PROCESSING_AGREEMENT"]
NOTICE = DOCUMENT_TYPES["PRIVACY_POLICY"]
SUBMIT = "Processing may start only after prior consultation of the supervisory authority (Art. 36)"
MAY_START = "Processing may start once the action plan is implemented"
# A DPIA whose residual risks are all below high: no Art. 36 consultation.
LOW_RISK_DPIA: dict[str, Any] = {
    "companyName": "Acme",
    "processingActivity": "Staff directory",
    "purposes": ["Internal contact list"],
    "legalBasis": ["legitimate-interests"],
    "dataCategories": ["Work e-mail address", "Office phone number"],
    "dataSubjects": ["Employees"],
    "securityMeasures": ["Role-based access control", "Nightly backups", "Encryption at rest"],
}


def _compose(document_type: Any, inputs: dict[str, Any], answers: dict[str, Any] | None = None,
             language: str = "en") -> str:  # fmt: skip
    return compose(
        document_type=document_type, inputs=inputs, answers=answers, now=FIXED_NOW,
        language=language,
    )  # fmt: skip


def _full(name: str, language: str = "en", **answers: Any) -> str:
    document_type = DOCUMENT_TYPES[name]
    return _compose(document_type, FULL_INPUTS[name], {**FULL_ANSWERS[name], **answers}, language)


def _body(markdown: str, item_id: str) -> str:
    return item_blocks(markdown)[item_id][0].body


def _missing(document_type: Any, markdown: str) -> list[str]:
    return completeness_report(document_type=document_type, markdown=markdown).missing


def _meta(document_type: str, *, external: bool = False) -> ExportMeta:
    moment = datetime(2026, 3, 2, tzinfo=UTC)
    return ExportMeta(
        organization_name="Acme", document_title="Title", document_type=document_type,
        version=1, stage="draft", created_at=moment, updated_at=moment, content_sha256="0" * 64,
        ruleset_version="r-1", external=external,
    )  # fmt: skip


# --- 1. Documents that leave the organization carry no working notes ----------------------


@pytest.mark.parametrize(
    ("name", "article"),
    [("DATA_PROCESSING_AGREEMENT", "Art. 28(3)"), ("BREACH_NOTIFICATION", "Art. 33(3)")],
)
def test_art_28_and_33_documents_sent_out_carry_no_rule_set_or_questionnaire_notes(name, article):
    markdown = _full(name)
    assert "Rule set" not in markdown, article
    assert "Answers recorded in the questionnaire" not in markdown, article
    # The compliance report still reads the anchors of the Markdown.
    report = completeness_report(document_type=DOCUMENT_TYPES[name], markdown=markdown)
    assert {item.id for item in report.items} == {
        item.id for item in DOCUMENT_TYPES[name].checklist
    }


def test_art_36_3_e_a_dpia_submitted_for_prior_consultation_carries_no_working_notes():
    markdown = _full("DPIA", controllerDecision=SUBMIT)
    assert "Rule set" not in markdown
    assert "Answers recorded in the questionnaire" not in markdown
    assert leaves_organization(
        document_type=DPIA, inputs=FULL_INPUTS["DPIA"],
        answers={**FULL_ANSWERS["DPIA"], "controllerDecision": SUBMIT},
    )  # fmt: skip


def test_art_36_an_internal_dpia_keeps_its_rule_set_and_questionnaire_notes():
    markdown = _compose(DPIA, LOW_RISK_DPIA, {"dataMinimisation": True})
    assert "**Prior consultation is not required**" in _body(markdown, "prior-consultation")
    assert "Rule set" in markdown
    assert "Answers recorded in the questionnaire" in markdown
    assert not leaves_organization(
        document_type=DPIA, inputs=LOW_RISK_DPIA, answers={"dataMinimisation": True}
    )


def test_art_33_3_breach_answers_are_stated_as_facts_once_the_notes_are_gone():
    markdown = _full(
        "BREACH_NOTIFICATION",
        howDiscovered="Reported by a processor",
        breachOngoing=False,
        containedOn="2026-03-01",
        crossBorder=True,
    )
    assert "Reported by a processor" in _body(markdown, "a-nature")
    assert "contained on 2026-03-01" in _body(markdown, "d-measures")
    assert "several Member States" in _body(markdown, "deadline")
    assert "Art. 56" in _body(markdown, "deadline")


def test_art_36_3_e_dpia_answers_are_stated_as_facts_in_a_submitted_dpia():
    markdown = _full(
        "DPIA",
        controllerDecision=SUBMIT,
        processorsBound=True,
        retentionApproach="Fixed period per data category",
        reviewTriggers=["New purpose", "Security incident"],
    )
    necessity = _body(markdown, "b-necessity")
    assert "every data category is necessary for the purposes" in necessity  # Art. 5(1)(c)
    assert "Fixed period per data category" in necessity  # Art. 5(1)(e)
    assert "bound by an Art. 28 agreement" in _body(markdown, "d-measures")
    assert "New purpose, Security incident" in _body(markdown, "review")


@pytest.mark.parametrize("name", ["DPIA", "BREACH_NOTIFICATION"])
def test_art_36_3_and_33_3_no_drafting_instructions_outside_gap_markers(name):
    markdown = _full(name, **({"controllerDecision": SUBMIT} if name == "DPIA" else {}))
    text = without_values(markdown, [str(v) for v in FULL_INPUTS[name].values()])
    for line in text.splitlines():
        if "[To be completed]" in line:
            continue
        assert not re.search(r"\be\.g\.|\bCheck\b|\bmust be checked\b", line), line


def test_art_35_4_a_country_without_an_excerpt_is_a_gap_not_an_instruction():
    markdown = _compose(DPIA, {**LOW_RISK_DPIA, "country": "Iceland"})
    national = _body(markdown, "national-list")
    assert "must be checked" not in national
    assert "**[To be completed]**" in national and "Art. 35(4)" in national


@pytest.mark.parametrize("name", ["BREACH_NOTIFICATION", "DATA_PROCESSING_AGREEMENT"])
def test_exports_of_documents_sent_out_show_no_ruleset_row(name):
    labels = [label for label, _value in metadata_rows(_meta(name))]
    assert "Ruleset version" not in labels


def test_exports_of_a_dpia_show_the_ruleset_only_while_it_stays_inside():
    assert "Ruleset version" in [label for label, _v in metadata_rows(_meta("DPIA"))]
    external = metadata_rows(_meta("DPIA", external=True))
    assert "Ruleset version" not in [label for label, _v in external]


# --- 2. The controller's decision and the Art. 36(1) finding ------------------------------


def test_art_36_1_submitting_for_prior_consultation_is_a_decision_the_controller_can_record():
    assert DPIA.question("controllerDecision").options == DECISIONS
    assert SUBMIT in DECISIONS
    markdown = _full("DPIA", controllerDecision=SUBMIT)
    assert "validation" not in _missing(DPIA, markdown)
    assert "prior-consultation" not in _missing(DPIA, markdown)


def test_art_36_1_starting_despite_a_high_residual_risk_is_flagged_as_a_contradiction():
    markdown = _full("DPIA", controllerDecision=MAY_START)
    validation = _body(markdown, "validation")
    assert "**[To be completed]**" in validation and "Art. 36(1)" in validation
    assert "validation" in _missing(DPIA, markdown)


def test_art_36_1_submitting_without_a_high_residual_risk_is_flagged_as_a_contradiction():
    markdown = _compose(DPIA, LOW_RISK_DPIA, {"controllerDecision": SUBMIT})
    validation = _body(markdown, "validation")
    assert "**[To be completed]**" in validation and "Art. 36(1)" in validation


# --- 3. The controller sets the ratings (Art. 35(7)(c)) -----------------------------------


def test_art_35_7_c_every_risk_the_engine_rates_can_be_set_by_the_controller():
    assessment = assess_risks(DpiaFacts(), ())
    rated = {risk.key for risk in (*assessment.risks, *assessment.rights_risks)}
    assert rated == set(RISK_KEYS)


def test_art_35_7_c_controller_ratings_replace_the_proposal_and_keep_it():
    proposal = assess_risks(DpiaFacts(special_categories=("Biometric data",)), ())
    rating = ControllerRating(
        risk="illegitimate-access", severity=1, likelihood=1, reason="No copy leaves the site"
    )
    applied = apply_controller_ratings(proposal, [rating])
    access = next(risk for risk in applied.risks if risk.key == "illegitimate-access")
    assert (access.severity, access.likelihood) == (1, 1)
    assert (access.residual_severity, access.residual_likelihood) == (1, 1)
    untouched = next(risk for risk in applied.risks if risk.key == "disappearance")
    assert untouched == next(risk for risk in proposal.risks if risk.key == "disappearance")


def test_art_35_7_c_the_document_shows_the_controller_rating_beside_the_proposal():
    inputs = {
        **FULL_INPUTS["DPIA"],
        "riskRatings": [
            {"risk": "illegitimate-access", "severity": 3, "likelihood": 2,
             "residualSeverity": 2, "residualLikelihood": 1,
             "reason": "Only two engineers can reach the server"},
            {"risk": "rights-surveillance", "severity": 3, "likelihood": 3,
             "residualSeverity": 2, "residualLikelihood": 2,
             "reason": "Faces are blurred at the camera"},
        ],
    }  # fmt: skip
    markdown = _compose(DPIA, inputs, FULL_ANSWERS["DPIA"])
    risks = _body(markdown, "c-risks")
    assert "set by the controller" in risks
    assert "because Only two engineers can reach the server" in risks
    assert "4 (Maximum)" in risks  # the engine's proposal stays visible
    # Art. 36(1) follows the controller's residual values: nothing high remains.
    assert "**Prior consultation is not required**" in _body(markdown, "prior-consultation")


def test_art_36_1_a_controller_rating_can_raise_a_risk_to_high():
    inputs = {
        **LOW_RISK_DPIA,
        "riskRatings": [
            {
                "risk": "disappearance",
                "severity": 4,
                "likelihood": 4,
                "residualSeverity": 3,
                "residualLikelihood": 3,
                "reason": "Single copy of the payroll archive",
            }
        ],
    }
    markdown = _compose(DPIA, inputs)
    assert "**Prior consultation is required.**" in _body(markdown, "prior-consultation")


@pytest.mark.parametrize(
    ("rating", "field"),
    [
        ({"risk": "unknown-risk", "severity": 2, "likelihood": 2, "reason": "x"}, "risk"),
        ({"risk": "disappearance", "severity": 5, "likelihood": 2, "reason": "x"}, "severity"),
        ({"risk": "disappearance", "severity": 2, "likelihood": 2}, "reason"),
    ],
)
def test_art_35_7_c_a_controller_rating_needs_a_known_risk_a_1_to_4_value_and_a_reason(
    rating, field
):
    serializer = DpiaInputSerializer(data={"companyName": "Acme", "riskRatings": [rating]})
    assert not serializer.is_valid()
    assert field in serializer.errors["riskRatings"][0]


def test_art_35_7_c_a_risk_is_rated_once_by_the_controller():
    rating = {"risk": "disappearance", "severity": 2, "likelihood": 2, "reason": "Backups"}
    serializer = DpiaInputSerializer(data={"companyName": "Acme", "riskRatings": [rating] * 2})
    assert not serializer.is_valid()
    assert "riskRatings" in serializer.errors


# --- 4. No compliance asserted that no one stated ----------------------------------------


def test_art_13_14_information_of_data_subjects_is_asked_not_asserted():
    uninformed = {k: v for k, v in FULL_INPUTS["DPIA"].items() if k != "dataSubjectsInformation"}
    necessity = _body(_compose(DPIA, uninformed, FULL_ANSWERS["DPIA"]), "b-necessity")
    assert "data subjects are informed under Art. 13/14" not in necessity
    assert "**[To be completed]** how data subjects are informed" in necessity
    informed = {**uninformed, "dataSubjectsInformation": "Signs at every entrance"}
    stated = _body(_compose(DPIA, informed, FULL_ANSWERS["DPIA"]), "b-necessity")
    assert "Signs at every entrance" in stated
    assert "how data subjects are informed" not in stated


def test_art_5_1_b_purpose_limitation_is_asked_not_asserted():
    unanswered = FULL_ANSWERS["DPIA"]
    unstated = {k: v for k, v in FULL_INPUTS["DPIA"].items() if k != "furtherProcessing"}
    necessity = _body(_compose(DPIA, unstated, unanswered), "b-necessity")
    assert "data is not further processed for incompatible purposes" not in necessity
    assert "**[To be completed]** whether the data is used for any further purpose" in necessity
    inputs = {**FULL_INPUTS["DPIA"], "furtherProcessing": False}
    answered = _body(_compose(DPIA, inputs, unanswered), "b-necessity")
    assert "not further processed for purposes incompatible" in answered
    assert "any further purpose" not in answered


def test_art_22_3_human_review_is_not_cited_without_solely_automated_decisions():
    inputs = {**FULL_INPUTS["DPIA"], "profiling": True, "automatedDecisions": False}
    assert "Art. 22(3)" not in _compose(DPIA, inputs, FULL_ANSWERS["DPIA"])
    inputs["automatedDecisions"] = True
    assert "Art. 22(3)" in _body(_compose(DPIA, inputs, FULL_ANSWERS["DPIA"]), "d-measures")


# --- 5. The privacy notice names each right by its title in the GDPR -----------------------

RIGHT_TITLES = {
    "en": ("Right of access by the data subject", "Right to rectification",
           "Right to erasure ('right to be forgotten')", "Right to restriction of processing",
           "Right to data portability", "Right to object"),
    "de": ("Auskunftsrecht der betroffenen Person", "Recht auf Berichtigung",
           "Recht auf Löschung („Recht auf Vergessenwerden“)",
           "Recht auf Einschränkung der Verarbeitung", "Recht auf Datenübertragbarkeit",
           "Widerspruchsrecht"),
    "fr": ("Droit d'accès de la personne concernée", "Droit de rectification",
           "Droit à l'effacement («droit à l'oubli»)", "Droit à la limitation du traitement",
           "Droit à la portabilité des données", "Droit d'opposition"),
    "es": ("Derecho de acceso del interesado", "Derecho de rectificación",
           "Derecho de supresión («el derecho al olvido»)",
           "Derecho a la limitación del tratamiento", "Derecho a la portabilidad de los datos",
           "Derecho de oposición"),
    "it": ("Diritto di accesso dell'interessato", "Diritto di rettifica",
           "Diritto alla cancellazione («diritto all'oblio»)",
           "Diritto di limitazione di trattamento", "Diritto alla portabilità dei dati",
           "Diritto di opposizione"),
}  # fmt: skip


@pytest.mark.parametrize("language", sorted(RIGHT_TITLES))
def test_art_12_1_the_notice_names_each_right_by_its_gdpr_title(language):
    rights = _body(_full("PRIVACY_POLICY", language), "rights")
    for title in RIGHT_TITLES[language]:
        assert f"**{escape_inline(title)}**" in rights, title


# --- 6. Translations ---------------------------------------------------------------------


def test_a_german_date_in_a_table_has_no_stray_backslash():
    markdown = _full("BREACH_NOTIFICATION", "de")
    assert "| 28.02.2026 22:00 UTC |" in _body(markdown, "timeline")
    assert escape_inline("28.02.2026") == "28.02.2026"
    # A real list start is still made inert, by escaping its punctuation.
    assert escape_inline("1. item") == "1\\. item"


_TIGHT_PUNCTUATION = re.compile(r"[^\W\d_][*_)\]]*[:;?!]")


def _user_values(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [text for part in value.values() for text in _user_values(part)]
    if isinstance(value, list):
        return [text for part in value for text in _user_values(part)]
    return [str(value)]


@pytest.mark.parametrize("name", sorted(DOCUMENT_TYPES))
def test_french_puts_a_no_break_space_before_colons_semicolons_and_marks(name):
    markdown = _full(name, "fr")
    values = _user_values(FULL_INPUTS[name]) + _user_values(FULL_ANSWERS[name])
    text = without_values(markdown, values)
    text = re.sub(r"https?://\S+|\S+@\S+|\d{1,2}:\d{2}", " ", text)
    assert _TIGHT_PUNCTUATION.findall(text) == [], name
    # One convention: the no-break space, also where a translator typed a plain space.
    plain = [
        text[max(0, m.start() - 40) : m.end()] for m in re.finditer(r"\S [:;?!](?=\s|$)", text)
    ]
    assert plain == [], name
