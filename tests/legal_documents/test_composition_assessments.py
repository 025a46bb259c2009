"""Rule-based assessments: DPIA screening and risks, breach deadline and Art. 34, DSR dates."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

from gdpr.composition import compose
from gdpr.composition.assessments.breach_deadline import iso_z, notification_deadline
from gdpr.composition.assessments.breach_risk import BreachFacts, decide
from gdpr.composition.assessments.dpia_risk import assess_risks
from gdpr.composition.assessments.dpia_screening import DpiaFacts, screen
from gdpr.composition.assessments.dsr_deadline import add_months, response_deadline
from gdpr.composition.assessments.risk_scale import risk_level
from gdpr.composition.assessments.security_measures import classify_measures
from gdpr.composition.completeness import item_blocks
from gdpr.doctypes.registry import get_document_type

ALL_MEASURES = classify_measures(
    [
        "AES encryption",
        "MFA",
        "access logs",
        "nightly backups",
        "checksums",
        "staff training",
        "pseudonymised identifiers",
    ]
)


def test_two_wp248_criteria_make_a_dpia_required() -> None:
    screening = screen(DpiaFacts(systematic_monitoring=True, vulnerable_subjects=True))
    assert screening.met_count == 2
    assert screening.required


def test_one_criterion_alone_does_not_require_a_dpia() -> None:
    facts = DpiaFacts(
        profiling=False,
        automated_decisions=False,
        systematic_monitoring=False,
        highly_personal_data=False,
        large_scale=False,
        dataset_matching=False,
        vulnerable_subjects=False,
        innovative_technology=True,
        prevents_right_or_service=False,
        public_area_monitoring=False,
    )
    screening = screen(facts)
    assert screening.met_count == 1
    assert not screening.required
    assert screening.unknown == ()


def test_large_scale_special_categories_fall_under_art_35_3_b() -> None:
    screening = screen(DpiaFacts(special_categories=("health",), large_scale=True))
    case_b = next(c for c in screening.mandatory_cases if c.key == "art-35-3-b")
    assert case_b.met
    assert screening.required


def test_an_unstated_fact_leaves_its_criterion_unknown_not_met() -> None:
    screening = screen(DpiaFacts())
    assert screening.met_count == 0
    assert len(screening.unknown) == 12
    assert not screening.required


def test_subject_count_decides_large_scale_when_the_flag_is_absent() -> None:
    assert DpiaFacts(approximate_subjects=50_000).is_large_scale is True
    assert DpiaFacts(approximate_subjects=200).is_large_scale is False


def test_risk_levels_are_positions_on_the_cnil_map() -> None:
    assert risk_level(1, 4) == "medium (likely)"
    assert risk_level(2, 3) == "medium (likely)"
    assert risk_level(3, 1) == "medium (severe impact)"
    assert risk_level(3, 3) == "high"


def test_sensitive_large_scale_processing_without_measures_needs_prior_consultation() -> None:
    facts = DpiaFacts(
        special_categories=("health",),
        vulnerable_subjects=True,
        large_scale=True,
        third_country_transfers=True,
    )
    assessment = assess_risks(facts, frozenset())

    access = assessment.risks[0]
    assert (access.severity, access.likelihood) == (4, 3)
    assert access.residual_level == "high"
    assert assessment.prior_consultation_required


def test_measures_lower_the_residual_risk_below_high() -> None:
    facts = DpiaFacts(
        special_categories=("health",),
        vulnerable_subjects=True,
        large_scale=True,
        third_country_transfers=True,
    )
    assessment = assess_risks(facts, ALL_MEASURES)

    access = assessment.risks[0]
    assert access.residual_severity == 3  # encryption makes leaked data unintelligible
    assert access.residual_likelihood == 1
    assert not assessment.prior_consultation_required
    assert all(not risk.recommendations for risk in assessment.risks)


def test_without_backups_the_disappearance_risk_is_not_reduced() -> None:
    assessment = assess_risks(DpiaFacts(large_scale=True), classify_measures(["MFA", "checksums"]))
    disappearance = assessment.risks[2]
    assert disappearance.residual_likelihood == disappearance.likelihood == 3
    assert any("backups" in text for text in disappearance.recommendations)


def test_the_dpia_document_states_the_screening_and_the_art_36_conclusion(
    full_inputs: dict, now: datetime
) -> None:
    inputs = {**full_inputs["DPIA"], "securityMeasures": ["Door locks"]}
    markdown = compose(document_type=get_document_type("DPIA"), inputs=inputs, now=now)
    blocks = item_blocks(markdown)

    assert "**Conclusion: a DPIA is required.**" in blocks["screening"][0].body
    assert "| Systematic monitoring | Met |" in blocks["screening"][0].body
    assert "**Prior consultation is required.**" in blocks["prior-consultation"][0].body
    assert "| Illegitimate access to data | 4 (Maximum) |" in blocks["c-risks"][0].body


def test_the_breach_deadline_is_72_hours_after_awareness_in_utc() -> None:
    aware = datetime(2026, 3, 1, 10, 30, tzinfo=timezone(timedelta(hours=2)))
    deadline = notification_deadline(aware, now=datetime(2026, 3, 2, tzinfo=UTC))

    assert iso_z(deadline.deadline) == "2026-03-04T08:30:00Z"
    assert not deadline.passed
    assert deadline.hours_remaining == 56.5


def test_a_naive_awareness_time_is_read_as_utc_and_lateness_is_measured() -> None:
    deadline = notification_deadline(datetime(2026, 3, 1, 8), now=datetime(2026, 3, 4, 18))
    assert deadline.passed
    assert deadline.hours_overdue == 10


def test_a_late_notification_requires_reasons_for_the_delay(
    full_inputs: dict, now: datetime
) -> None:
    inputs = {**full_inputs["BREACH_NOTIFICATION"], "discoveredAt": "2026-02-20T09:00:00Z"}
    document_type = get_document_type("BREACH_NOTIFICATION")

    late = item_blocks(compose(document_type=document_type, inputs=inputs, now=now))
    explained = item_blocks(
        compose(
            document_type=document_type, inputs={**inputs, "delayReasons": "Forensics."}, now=now
        )
    )

    assert "2026-02-23T09:00:00Z" in late["deadline"][0].body
    assert "the deadline has passed by 171 hours" in late["deadline"][0].body
    assert "[To be completed]" in late["deadline"][0].body
    assert explained["deadline"][0].filled


def test_exposed_bank_data_needs_communication_to_data_subjects() -> None:
    decision = decide(
        BreachFacts(
            data_categories=("Bank account numbers",),
            breach_types=("confidentiality",),
            encrypted=False,
        )
    )
    assert decision.risk_level == "high"
    assert decision.notify_authority
    assert decision.communicate_to_subjects


def test_encrypted_data_is_an_art_34_3_a_exception() -> None:
    decision = decide(
        BreachFacts(
            special_categories=True,
            encrypted=True,
            breach_types=("confidentiality", "availability"),
        )
    )
    assert decision.risk_level == "high"
    assert decision.art_34_exception is not None
    assert decision.art_34_exception.startswith("Art. 34(3)(a)")
    assert not decision.communicate_to_subjects


def test_an_encrypted_confidentiality_breach_with_a_safe_key_need_not_be_notified() -> None:
    decision = decide(
        BreachFacts(special_categories=True, encrypted=True, breach_types=("confidentiality",))
    )
    assert decision.risk_level == "unlikely"
    assert not decision.notify_authority


def test_a_compromised_key_removes_the_encryption_exception() -> None:
    decision = decide(
        BreachFacts(
            special_categories=True,
            encrypted=True,
            key_compromised=True,
            breach_types=("confidentiality",),
        )
    )
    assert decision.communicate_to_subjects


def test_disproportionate_effort_turns_messages_into_a_public_communication() -> None:
    decision = decide(BreachFacts(special_categories=True, disproportionate_effort=True))
    assert decision.communicate_to_subjects
    assert decision.public_communication


def test_a_low_risk_breach_is_notified_but_not_communicated() -> None:
    decision = decide(BreachFacts(data_categories=("Newsletter preferences",)))
    assert decision.risk_level == "risk"
    assert decision.notify_authority
    assert not decision.communicate_to_subjects


def test_the_breach_document_carries_the_art_34_decision(full_inputs: dict, now: datetime) -> None:
    document_type = get_document_type("BREACH_NOTIFICATION")
    plain = compose(document_type=document_type, inputs=full_inputs["BREACH_NOTIFICATION"], now=now)
    encrypted = compose(
        document_type=document_type,
        inputs={
            **full_inputs["BREACH_NOTIFICATION"],
            "encrypted": True,
            "breachTypes": ["confidentiality", "integrity"],
        },
        now=now,
    )

    assert "**Communication to data subjects is required**" in plain
    assert "Art. 34(3)(a)" in item_blocks(encrypted)["data-subject-communication"][0].body


def test_one_month_ends_on_the_last_day_of_a_shorter_month() -> None:
    assert add_months(date(2026, 1, 31), 1) == date(2026, 2, 28)
    assert add_months(date(2028, 1, 31), 1) == date(2028, 2, 29)
    assert add_months(date(2026, 11, 15), 3) == date(2027, 2, 15)


def test_a_request_can_be_extended_by_two_months_with_notice_in_the_first() -> None:
    deadline = response_deadline(date(2026, 1, 31))
    # 28 February 2026 is a Saturday: the period ends on Monday 2 March (Reg. 1182/71 Art. 3(4)).
    assert deadline.deadline == date(2026, 3, 2)
    assert deadline.extension_notice_by == date(2026, 3, 2)
    assert deadline.extended_deadline == date(2026, 4, 30)


def test_the_request_form_shows_the_computed_dates(full_inputs: dict, now: datetime) -> None:
    markdown = compose(
        document_type=get_document_type("DATA_SUBJECT_REQUEST_FORM"),
        inputs=full_inputs["DATA_SUBJECT_REQUEST_FORM"],
        now=now,
    )
    deadline = item_blocks(markdown)["deadline"][0].body
    assert "**2026-03-02**" in deadline  # not Saturday 28 February (Reg. 1182/71 Art. 3(4))
    assert "**2026-04-30**" in deadline
    assert "- \\[x\\] I want my data erased." in markdown
    assert "- \\[ \\] I object" in markdown
