"""The register speaks the document API's concepts: a data category may name its concept
(`{"name": "Notizen", "category": "health"}`), a measure its family; documents written from
the register, and the register report, read that code; an adequacy decision covering every
recipient of a country is the transfer mechanism in documents as in the report."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from audit.services import Actor
from compliance.report import register_report
from gdpr.assessment import assess
from legal_documents.register_inputs import resolve_register_inputs
from organizations.admin_access import admin_access_grant
from register import services
from register.models import ProcessingActivity
from tests.legal_documents.test_api import generate_now
from tests.support.second_factor import verified_login

pytestmark = pytest.mark.django_db

ACTIVITIES = "/api/v1/processing-activities"
ACTOR = Actor(label="test")
NOTES = {"name": "Notizen", "category": "health"}
DOOR = {"name": "Zutrittsschutz", "family": "access-control"}
SAFEGUARD_GAP = "a transfer safeguard"
SAFEGUARDS_GAP = "the safeguards (and, for Art. 49(1)"
ART_9_GAP = "the Art. 9(2) condition (a)-(j) relied on"


def _activity(organization, **data):  # type: ignore[no-untyped-def]
    return services.activity_create(
        organization=organization,
        actor=ACTOR,
        data={
            "name": "Beratung",
            "legal_bases": [{"code": "contract", "wording": "Art. 6(1)(b) Vertrag"}],
            **data,
        },
    )


def _vendor(organization, **data):  # type: ignore[no-untyped-def]
    return services.vendor_create(
        organization=organization,
        actor=ACTOR,
        data={"role": "processor", "dpa_status": "signed", **data},
    )


def _record_inputs(organization, *activities) -> dict:  # type: ignore[no-untyped-def]
    return resolve_register_inputs(
        organization_id=organization.pk,
        document_type="RECORD_OF_PROCESSING",
        body={
            "companyName": "Muster GmbH",
            "processingActivityIds": [str(activity.pk) for activity in activities],
        },
    ).inputs


def _create(caller, document_type: str, **fields):  # type: ignore[no-untyped-def]
    response = caller.client.post(
        "/api/v1/legal-documents",
        {"documentType": document_type, "companyName": "Muster GmbH", **fields},
        format="json",
    )
    assert response.status_code == 201, response.content
    return generate_now(response.json()["id"])


def _kinds(organization) -> list[str]:  # type: ignore[no-untyped-def]
    return [i.kind for i in register_report(organization_id=organization.pk, now=timezone.now())]


# --- 1. the API ------------------------------------------------------------------------------
def test_it_accepts_and_keeps_a_category_and_a_measure_naming_their_concept(dpo):
    response = dpo.client.post(
        ACTIVITIES,
        {
            "name": "Beratung",
            "legalBases": ["Art. 6(1)(b)"],
            "dataCategories": [NOTES, "Bankverbindung"],
            "specialCategories": [{"name": "Befunde", "category": "health"}],
            "securityMeasures": [DOOR, "Verschlüsselung"],
        },
        format="json",
    )

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["dataCategories"] == [NOTES, "Bankverbindung"]
    assert body["specialCategories"] == [{"name": "Befunde", "category": "health"}]
    assert body["securityMeasures"] == [DOOR, "Verschlüsselung"]
    stored = ProcessingActivity.objects.get(pk=body["id"])
    assert stored.data_categories == [NOTES, "Bankverbindung"]
    assert stored.security_measures == [DOOR, "Verschlüsselung"]


def test_it_refuses_a_code_no_concept_scheme_has(dpo):
    response = dpo.client.post(
        ACTIVITIES,
        {
            "name": "Beratung",
            "dataCategories": [{"name": "Notizen", "category": "gesundheit"}],
            "securityMeasures": [{"name": "Tür", "family": "lock"}],
        },
        format="json",
    )

    assert response.status_code == 400, response.content
    text = response.content.decode()
    assert "dataCategories" in text and "securityMeasures" in text
    assert "gesundheit" in text and "health" in text  # the accepted codes are listed
    assert not ProcessingActivity.objects.exists()


# --- 1. documents and the report read the code ---------------------------------------------------
def test_a_record_from_the_register_treats_a_category_named_health_as_health(dpo):
    activity = _activity(
        dpo.organization, data_categories=[NOTES, "Xylophon"], security_measures=[DOOR]
    )

    inputs = _record_inputs(dpo.organization, activity)

    assert inputs["dataCategories"] == [NOTES, "Xylophon"]
    assert inputs["securityMeasures"] == [DOOR]
    assessment = assess(document_type="RECORD_OF_PROCESSING", inputs=inputs)
    assert assessment["decisions"]["specialCategoriesWithoutCondition"] is True
    document = _create(dpo, "RECORD_OF_PROCESSING", processingActivityIds=[str(activity.pk)])
    assert ART_9_GAP in document.content_text


def test_the_whole_register_record_keeps_each_activitys_codes(dpo):
    _activity(dpo.organization, data_categories=[NOTES])
    _activity(dpo.organization, name="Newsletter", data_categories=["E-Mail-Adresse"])

    inputs = resolve_register_inputs(
        organization_id=dpo.organization.pk,
        document_type="RECORD_OF_PROCESSING",
        body={"companyName": "Muster GmbH"},
    ).inputs

    assessment = assess(document_type="RECORD_OF_PROCESSING", inputs=inputs)
    [notes] = [
        activity
        for activity in assessment["activities"]
        if any(e["wording"] == "Notizen" for e in activity["concepts"] + activity["unclassified"])
    ]
    assert notes["decisions"]["specialCategoriesWithoutCondition"] is True


def test_a_special_category_named_by_its_concept_reaches_a_dpa_and_a_privacy_policy(dpo):
    hosting = _vendor(dpo.organization, name="Hosting GmbH", country="Germany")
    activity = _activity(
        dpo.organization,
        data_categories=[NOTES],
        special_categories=[{"name": "Befunde", "category": "health"}],
        security_measures=[DOOR],
        vendors=[hosting],
    )

    dpa = resolve_register_inputs(
        organization_id=dpo.organization.pk,
        document_type="DATA_PROCESSING_AGREEMENT",
        body={"companyName": "Muster GmbH", "vendorId": str(hosting.pk)},
    ).inputs
    policy = resolve_register_inputs(
        organization_id=dpo.organization.pk,
        document_type="PRIVACY_POLICY",
        body={"companyName": "Muster GmbH", "processingActivityIds": [str(activity.pk)]},
    ).inputs

    assert dpa["dataCategories"] == [NOTES]
    assert dpa["sensitiveData"] == "Befunde"
    assert dpa["securityMeasures"] == [DOOR]
    assert policy["dataCategories"] == [NOTES]
    assert policy["processingPurposes"] == [] or all(
        row.get("dataCategories") == [NOTES] for row in policy["processingPurposes"]
    )


def test_the_report_reads_the_code_of_a_category(dpo):
    _activity(dpo.organization, data_categories=[NOTES])
    _activity(
        dpo.organization,
        name="Musikschule",
        data_categories=[{"name": "Xylophon", "category": "education-and-skills"}],
    )

    items = register_report(organization_id=dpo.organization.pk, now=timezone.now())

    flagged = {(item.kind, item.objects[0].name) for item in items}
    assert ("special-category-without-condition", "Beratung") in flagged
    assert not [i for i in items if i.kind == "data-category-needs-classification"]


# --- 3. an adequacy decision is the mechanism, in documents as in the report --------------------
def test_a_vendor_in_switzerland_with_no_mechanism_is_covered_by_adequacy_in_the_record(dpo):
    swiss = _vendor(dpo.organization, name="Lohncloud AG", country="Schweiz")
    activity = _activity(
        dpo.organization,
        vendors=[swiss],
        recipients=[{"name": "UK desk", "country": "United Kingdom"}],
    )

    inputs = _record_inputs(dpo.organization, activity)

    assert {"name": "Lohncloud AG", "role": "processor", "country": "Schweiz",
            "safeguard": "adequacy-decision"} in inputs["recipients"]  # fmt: skip
    assert {"name": "UK desk", "country": "United Kingdom",
            "safeguard": "adequacy-decision"} in inputs["recipients"]  # fmt: skip
    assert {t.get("safeguard") for t in inputs["thirdCountryTransfers"]} == {"adequacy-decision"}
    assessment = assess(document_type="RECORD_OF_PROCESSING", inputs=inputs)
    assert assessment["transfers"] and not any(t["needsSafeguard"] for t in assessment["transfers"])
    assert "transfer-without-mechanism" not in _kinds(dpo.organization)
    document = _create(dpo, "RECORD_OF_PROCESSING", processingActivityIds=[str(activity.pk)])
    assert SAFEGUARD_GAP not in document.content_text
    assert SAFEGUARDS_GAP not in document.content_text


def test_a_dpa_with_a_uk_processor_with_no_mechanism_names_the_adequacy_decision(dpo):
    london = _vendor(dpo.organization, name="London Ltd", country="GB")
    _activity(dpo.organization, vendors=[london])

    inputs = resolve_register_inputs(
        organization_id=dpo.organization.pk,
        document_type="DATA_PROCESSING_AGREEMENT",
        body={"companyName": "Muster GmbH", "vendorId": str(london.pk)},
    ).inputs

    assert {t.get("safeguard") for t in inputs["thirdCountryTransfers"]} == {"adequacy-decision"}


def test_a_us_vendor_with_no_mechanism_still_needs_one_in_the_document_and_the_report(dpo):
    # The US decision covers certified recipients only: it is no mechanism by itself.
    cloud = _vendor(dpo.organization, name="CloudPay Inc.", country="US")
    activity = _activity(dpo.organization, vendors=[cloud])

    inputs = _record_inputs(dpo.organization, activity)

    assert all("safeguard" not in t for t in inputs["thirdCountryTransfers"])
    assessment = assess(document_type="RECORD_OF_PROCESSING", inputs=inputs)
    assert any(t["needsSafeguard"] for t in assessment["transfers"])
    assert "transfer-without-mechanism" in _kinds(dpo.organization)


# --- 2. the admin offers the codes and shows what each entry is recognised as -----------------
def _staff_client(caller) -> Client:  # type: ignore[no-untyped-def]
    admin_access_grant(membership=caller.membership, actor=ACTOR)
    client = Client()
    verified_login(client, caller.membership.user)
    return client


def _visible(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", "", html)).split())


def test_the_admin_form_lists_the_codes_with_their_labels_and_the_object_form(dpo):
    client = _staff_client(dpo)

    html = client.get(reverse("admin:register_processingactivity_add")).content.decode()

    text = _visible(html)
    assert "health: data concerning health" in text
    assert "criminal-convictions-and-offences: criminal convictions and offences" in text
    assert "access-control: Access control" in text
    assert "human-review: human review" in text  # a rights-measure family
    assert '{"name": "Gesundheitsdaten", "category": "health"}' in text
    assert '{"name": "Zutrittskontrolle", "family": "access-control"}' in text


def test_the_admin_form_lists_the_labels_in_the_dpos_language(dpo):
    client = _staff_client(dpo)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"

    html = client.get(reverse("admin:register_processingactivity_add")).content.decode()

    assert "health: Gesundheitsdaten" in _visible(html)


def test_the_change_form_shows_what_each_entry_is_recognised_as(dpo):
    activity = _activity(
        dpo.organization,
        data_categories=["Gesundheitsdaten", "Xylophon", NOTES, "E-Mail-Adresse"],
        special_categories=["Sonstiges"],
        security_measures=["Verschlüsselung", DOOR, "Kaffeemaschine"],
    )
    client = _staff_client(dpo)

    html = client.get(
        reverse("admin:register_processingactivity_change", args=[activity.pk])
    ).content.decode()

    text = _visible(html)
    for shown in (
        "Gesundheitsdaten → health (Art. 9(1))",
        "Xylophon → needs classification",
        "Notizen → health (Art. 9(1))",
        "E-Mail-Adresse → contact",
        "Sonstiges → special category (Art. 9(1)), concept not recognised",
        "Verschlüsselung → encryption",
        "Zutrittsschutz → access-control",
        "Kaffeemaschine → no family recognised",
    ):
        assert shown in text, shown


def test_the_admin_saves_an_entry_naming_its_concept(dpo):
    client = _staff_client(dpo)
    form = {
        "name": "Beratung", "reference": "", "description": "", "owner": "", "role": "controller",
        "consent_withdrawal": "", "next_review_date": "", "purposes": '["Beratung"]',
        "legal_bases": '["Art. 6(1)(b)"]', "data_subjects": "[]",
        "data_categories": json.dumps([NOTES]), "special_categories": "[]",
        "art9_conditions": "[]", "retention": "[]", "security_measures": json.dumps([DOOR]),
        "systems": "[]", "recipients": "[]", "joint_controllers": "[]", "dpia_screening": "{}",
    }  # fmt: skip

    refused = client.post(
        reverse("admin:register_processingactivity_add"),
        {**form, "data_categories": json.dumps([{"name": "Notizen", "category": "gesund"}])},
    )
    saved = client.post(reverse("admin:register_processingactivity_add"), form)

    assert refused.status_code == 200 and "gesund" in refused.content.decode()
    assert saved.status_code == 302, saved.content.decode()[:2000]
    activity = ProcessingActivity.objects.get(name="Beratung")
    assert (activity.data_categories, activity.security_measures) == ([NOTES], [DOOR])
