"""A document is named by what it is about (its activity, vendor or breach) and its type, in
the admin user's language; its id stays available but is not its name."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from django.utils import translation

from legal_documents.models import LegalDocument
from legal_documents.naming import document_name, short_id

DOCUMENT_ID = uuid.UUID("8d3a8bb8-2841-4e0c-9b1e-0123456789ab")


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    """English unless a test says otherwise (an earlier request may leave another active)."""
    with translation.override("en"):
        yield


def document(document_type: str, **inputs: object) -> LegalDocument:
    return LegalDocument(id=DOCUMENT_ID, document_type=document_type, inputs=inputs, version=1)


@pytest.mark.parametrize(
    ("built", "name"),
    [
        (document("DPIA", companyName="Acme", processingActivity="Customer churn scoring"),
         "DPIA \u2013 Customer churn scoring"),
        (document("DPIA", processingActivity={"name": "CCTV", "description": "Gates"}),
         "DPIA \u2013 CCTV"),
        (document("DATA_PROCESSING_AGREEMENT", processor={"name": "Acme Cloud Ltd"}),
         "DPA \u2013 Acme Cloud Ltd"),
        (document("DATA_PROCESSING_AGREEMENT", companyName="Us", processorName="Acme Cloud Ltd"),
         "DPA \u2013 Acme Cloud Ltd"),
        (document("BREACH_NOTIFICATION", companyName="Acme", discoveredAt="2026-11-03T08:15:00Z",
                  breachNature="Mailbox compromise"),
         "Breach notification \u2013 2026-11-03 Mailbox compromise"),
        (document("BREACH_NOTIFICATION", breach={"discoveredAt": "2026-11-03T08:15:00Z",
                                                  "nature": "Stolen laptop"}),
         "Breach notification \u2013 2026-11-03 Stolen laptop"),
        (document("PRIVACY_POLICY", companyName="Acme", processingActivity="Newsletter"),
         "Privacy notice \u2013 Newsletter"),
        (document("RECORD_OF_PROCESSING", companyName="Acme GmbH",
                  registerActivities=[{"processingActivity": {"name": "Payroll"}}]),
         "Record of processing \u2013 Acme GmbH"),
        (document("DATA_SUBJECT_REQUEST_FORM", companyName="Acme", requesterName="Jane Roe"),
         "Data subject request \u2013 Jane Roe"),
        (document("DPIA", companyName="Acme GmbH"), "DPIA \u2013 Acme GmbH"),
    ],
)  # fmt: skip
def test_it_names_a_document_by_its_type_and_what_it_is_about(built, name):
    assert document_name(built) == name
    assert str(built) == name


def test_it_never_names_a_document_by_its_uuid_but_keeps_a_short_id():
    described = document("DPIA", processingActivity="Customer churn scoring")
    assert str(DOCUMENT_ID) not in str(described)
    assert short_id(described) == "8d3a8bb8"
    # A document that says nothing about itself is still told apart by its short id.
    assert document_name(document("DPIA")) == "DPIA \u2013 8d3a8bb8"


def test_it_shortens_a_long_description_to_a_title():
    long = "Video surveillance of the warehouse, the loading bays and the car park " * 3
    name = document_name(document("DPIA", processingActivity=long + "\nSecond line"))
    assert name.startswith("DPIA \u2013 Video surveillance of the warehouse")
    assert name.endswith("…") and len(name) <= 80 and "Second line" not in name


def test_it_names_the_type_in_the_admin_users_language():
    dpia = document("DPIA", processingActivity="Kundenabwanderung")
    breach = document("BREACH_NOTIFICATION", discoveredAt="2026-11-03T08:15:00Z")
    with translation.override("de"):
        assert document_name(dpia) == "DSFA \u2013 Kundenabwanderung"
        assert document_name(breach) == "Meldung einer Datenpanne \u2013 2026-11-03"
    with translation.override("fr"):
        assert document_name(dpia) == "AIPD \u2013 Kundenabwanderung"
