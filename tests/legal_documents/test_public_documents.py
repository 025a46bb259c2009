"""Privacy notice and request form: what a data subject reads.

See docs/LEGAL-REVIEW.md (privacy notice and request form).
Each test composes the template output with inputs that trigger one legal point and names the
article it checks. Pure functions, no database.
"""

from __future__ import annotations

import io
import zipfile
from datetime import UTC, datetime
from typing import Any

import pytest

from gdpr.composition import completeness_report, compose, ensure_checklist
from gdpr.composition.completeness import item_blocks
from gdpr.doctypes.registry import DOCUMENT_TYPES
from legal_documents.exports import ExportMeta, export_document
from legal_documents.rendering import markdown_to_safe_html, markdown_to_text

NOTICE = DOCUMENT_TYPES["PRIVACY_POLICY"]
FORM = DOCUMENT_TYPES["DATA_SUBJECT_REQUEST_FORM"]
NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
BASE: dict[str, Any] = {"companyName": "Acme", "companyDetails": "1 Main St, acme@example.org"}


def notice(**inputs: Any) -> str:
    return compose(document_type=NOTICE, inputs={**BASE, **inputs}, now=NOW)


def form(answers: dict[str, Any] | None = None, **inputs: Any) -> str:
    return compose(document_type=FORM, inputs={**BASE, **inputs}, answers=answers, now=NOW)


def body(markdown: str, item: str) -> str:
    return item_blocks(markdown)[item][0].body


# 1. Rights follow the legal basis (Art. 20, 21, 7(3)) -------------------------------------


def test_art_20_portability_is_not_promised_for_a_legal_obligation_or_legitimate_interests():
    markdown = notice(purposes=["Payroll"], legalBasis=["legal-obligation"])
    rights = body(markdown, "rights")
    assert "machine-readable" not in rights
    assert "does not apply" in rights and "(Art. 20)" in rights


def test_art_20_portability_is_listed_for_consent_processed_by_automated_means():
    markdown = notice(
        purposes=["Newsletter"], legalBasis=["consent"], processedByAutomatedMeans=True
    )
    assert "machine-readable" in body(markdown, "rights")


def test_art_21_1_objection_absent_under_contract_but_direct_marketing_always_offered():
    markdown = notice(purposes=["Orders"], legalBasis=["contract"], directMarketing=True)
    objection = body(markdown, "objection")
    assert "Art. 21(1)" not in objection
    assert "**Direct marketing:**" in objection and "Art. 21(2)-(3)" in objection


def test_art_21_4_objection_has_its_own_heading_apart_from_the_rights_list():
    markdown = notice(purposes=["Audience"], legalBasis=["legitimate-interests"])
    assert "### Your right to object (Art. 21(4)) {#objection}" in markdown
    assert "compelling legitimate grounds" in body(markdown, "objection")
    assert "compelling legitimate grounds" not in body(markdown, "rights")


def test_art_7_3_withdrawal_only_where_consent_is_a_basis_in_the_request_form():
    without = form(legalBasis=["contract"])
    assert "Not applicable" in body(without, "withdraw-consent")
    assert "Not available" in body(without, "objection")
    assert "Not available" not in body(without, "portability")
    with_consent = form(legalBasis=["consent"])
    assert "I withdraw my consent" in body(with_consent, "withdraw-consent")
    assert "Art. 7(3)" in body(with_consent, "withdraw-consent")


# 2. Complaints to any supervisory authority (Art. 77) ------------------------------------


@pytest.mark.parametrize(("compose_one", "item"), [(notice, "complaint"), (form, "complaint")])
def test_art_77_any_authority_with_the_competent_one_only_as_an_example(compose_one, item):
    markdown = compose_one(supervisoryAuthority="the Berlin Commissioner")
    text = body(markdown, item)
    for place in ("habitual residence", "place of work", "alleged infringement"):
        assert place in text
    assert "for example contact the Berlin Commissioner" in text


def test_art_12_4_refusal_does_not_name_one_authority_as_the_only_one():
    markdown = form(supervisoryAuthority="the Berlin Commissioner")
    assert "Berlin" not in body(markdown, "refusal")


# 3. Public documents carry no working notes (Art. 12(1): concise, intelligible) ------------


@pytest.mark.parametrize(
    ("document_type", "answers"),
    [
        (NOTICE, {"rightsRequestChannel": "E-mail", "childrenData": False}),
        (FORM, {"actingOnBehalf": False, "copyFormat": "PDF"}),
    ],
)
def test_art_12_1_no_rule_set_answers_or_anchors_in_what_readers_see(document_type, answers):
    markdown = compose(document_type=document_type, inputs=BASE, answers=answers, now=NOW)
    assert "Rule set" not in markdown
    assert "Answers recorded" not in markdown
    for rendered in (markdown_to_text(markdown), markdown_to_safe_html(markdown)):
        assert "{#" not in rendered
        assert "item:" not in rendered
        assert "Rule set" not in rendered
    # The compliance report still reads the anchors of the Markdown.
    report = completeness_report(document_type=document_type, markdown=markdown)
    assert {item.id for item in report.items} == {item.id for item in document_type.checklist}


# 4. Periods (Art. 12(3), Regulation 1182/71) ---------------------------------------------


def test_art_12_3_a_deadline_on_a_saturday_moves_to_the_next_working_day():
    # 31 Jan 2026 + 1 month = Saturday 28 Feb 2026 -> Monday 2 March (Reg. 1182/71 Art. 3(4)).
    markdown = form(receivedAt="2026-01-31")
    assert "answer due by **2026-03-02**" in body(markdown, "deadline")


def test_art_12_3_a_past_deadline_is_flagged_overdue_not_pending():
    markdown = form(receivedAt="2026-01-15")  # due 16 Feb 2026 (15 Feb is a Sunday)
    deadline = body(markdown, "deadline")
    assert "**Overdue:**" in deadline
    assert "2026-02-16" in deadline


def test_art_12_3_extension_counts_against_the_extended_deadline():
    markdown = form(
        {"extensionNeeded": True, "extensionReason": "Many requests"}, receivedAt="2026-01-15"
    )
    deadline = body(markdown, "deadline")
    assert "**Overdue:**" not in deadline and "pending" in deadline


# 7. Privacy notice ----------------------------------------------------------------------


def test_art_13_1_c_one_table_per_purpose_with_basis_interest_retention_recipients_source():
    markdown = notice(
        processingPurposes=[
            {
                "purpose": "Newsletter",
                "dataCategories": ["E-mail"],
                "legalBasis": ["consent"],
                "retention": "Until unsubscribed",
                "recipients": ["Mailer Ltd"],
                "source": "You",
            },
            {
                "purpose": "Fraud prevention",
                "dataCategories": ["IP address"],
                "legalBasis": ["legitimate-interests"],
                "legitimateInterest": "Preventing fraud",
                "retention": "6 months",
                "recipients": ["Nobody"],
                "source": "Your device",
            },
        ]
    )
    purposes = body(markdown, "purposes-legal-basis")
    assert purposes.count("| Aspect | Details |") == 2
    assert "**Purpose: Fraud prevention**" in purposes
    assert "| Legitimate interest pursued | Preventing fraud |" in purposes
    assert "| How long we keep it | 6 months |" in purposes
    assert "| Where it comes from | Your device |" in purposes


def test_art_13_1_c_several_bases_for_several_purposes_are_not_guessed():
    markdown = notice(purposes=["A", "B"], legalBasis=["consent", "contract"])
    assert "which of the legal bases given applies" in body(markdown, "purposes-legal-basis")


def test_art_14_3_one_month_is_the_outer_limit_in_every_case():
    timing = body(notice(dataCollectedFromSubject=False), "information-timing")
    assert "in every case within one month" in timing
    assert "or before we disclose" not in timing


def test_art_14_5_only_the_exemption_claimed_is_stated():
    none_claimed = body(notice(dataCollectedFromSubject=False), "exemptions")
    assert "professional secrecy" not in none_claimed and "disproportionate" not in none_claimed
    claimed = body(
        notice(dataCollectedFromSubject=False, art14Exemptions=["professional-secrecy"]),
        "exemptions",
    )
    assert "Art. 14(5)(d)" in claimed and "disproportionate" not in claimed


def test_art_7_3_withdrawal_says_how_and_what_is_kept_after():
    markdown = notice(
        purposes=["Newsletter"],
        legalBasis=["consent"],
        consentWithdrawalMethod="Unsubscribe link",
        afterWithdrawal="E-mail on a suppression list",
    )
    text = body(markdown, "withdraw-consent")
    assert "How to withdraw: Unsubscribe link" in text
    assert "What we keep after you withdraw: E-mail on a suppression list" in text
    missing = body(notice(purposes=["Newsletter"], legalBasis=["consent"]), "withdraw-consent")
    assert "[To be completed]" in missing


# 11. Request form ----------------------------------------------------------------------


def test_art_12_2_the_form_is_optional():
    assert "Using this form is optional" in body(form(), "form-optional")


def test_art_12_6_no_identity_document_by_default():
    identity = body(form(), "requester-identity")
    assert "do not ask for a copy of an identity document by default" in identity
    assert "EDPB Guidelines 01/2022" in identity


def test_art_15_complaint_transfer_safeguards_and_fee_for_further_copies():
    access = body(form(), "access")
    assert "Art. 15(1)(f)" in access
    assert "Art. 15(2)" in access
    assert "further copies" in access and "administrative costs" in access


def test_art_21_grounds_field_and_a_separate_direct_marketing_box():
    markdown = form(rightsInvoked=["objection"], objectionGrounds="I am a public figure")
    assert (
        "**Grounds relating to my particular situation (Art. 21(1)):** I am a public figure"
        in body(markdown, "objection")
    )
    direct = body(markdown, "objection-direct-marketing")
    assert direct.strip().startswith(
        "- \\[ \\] I object to the use of my data for direct marketing"
    )


def test_art_17_3_b_erasure_becomes_restriction_under_a_retention_duty():
    markdown = form({"retentionDuty": "Invoices: 10 years (commercial code)"})
    erasure = body(markdown, "erasure")
    assert "restrict" in erasure and "(Art. 18)" in erasure
    assert "Invoices: 10 years" in erasure


def test_art_22_is_a_prohibition_with_its_exceptions():
    text = body(form(), "automated-decisions")
    assert "prohibited (Art. 22(1))" in text
    assert "explicit consent (Art. 22(2))" in text


# Compliance report and ensure_checklist keep the new items -------------------------------


@pytest.mark.parametrize(
    ("document_type", "new_items"),
    [
        (NOTICE, ["objection"]),
        (FORM, ["form-optional", "objection-direct-marketing", "withdraw-consent", "complaint"]),
    ],
)
def test_new_items_are_reported_and_restored_after_an_llm_or_editor_drops_them(
    document_type, new_items
):
    template = compose(
        document_type=document_type, inputs={**BASE, "legalBasis": ["consent"]}, now=NOW
    )
    lines = template.splitlines()
    for item in new_items:
        block = item_blocks("\n".join(lines))[item][0]
        del lines[block.heading_line : block.end_line]
    edited = "\n".join(lines)
    report = completeness_report(document_type=document_type, markdown=edited)
    assert set(new_items) <= set(report.missing)
    repaired = ensure_checklist(
        document_type=document_type, markdown=edited, fallback_markdown=template
    )
    repaired_report = completeness_report(document_type=document_type, markdown=repaired)
    assert not set(new_items) & set(repaired_report.missing)


@pytest.mark.parametrize("fmt", ["html", "txt", "docx"])
@pytest.mark.parametrize("document_type", [NOTICE, FORM])
def test_art_12_1_exports_of_public_documents_show_no_anchor_or_rule_set(document_type, fmt):
    markdown = compose(document_type=document_type, inputs=BASE, now=NOW)
    meta = ExportMeta(
        organization_name="Acme",
        document_title=document_type.title,
        document_type=document_type.name,
        version=1,
        stage="final",
        created_at=NOW,
        updated_at=NOW,
        content_sha256="0" * 64,
        ruleset_version=document_type.ruleset_version,
    )
    content = export_document(markdown, meta, fmt).content
    if fmt == "docx":
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            text = archive.read("word/document.xml").decode("utf-8")
    else:
        text = content.decode("utf-8")
    assert "{#" not in text
    assert document_type.ruleset_version not in text
    assert "Rule set" not in text and "Ruleset" not in text


def test_art_12_3_a_national_holiday_given_moves_the_deadline():
    # 5 Sep 2026 + 1 month = Mon 5 Oct 2026; given as a national holiday it moves to 6 Oct.
    markdown = form(receivedAt="2026-09-05", publicHolidays=["2026-10-05"])
    deadline = body(markdown, "deadline")
    assert "answer due by **2026-10-06**" in deadline
    assert "National public holidays taken into account: 2026-10-05." in deadline
    assert "2026-10-05" in deadline.split("Monday to Friday:")[1]
