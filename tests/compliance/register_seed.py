"""A clean register (nothing to report) and one defect of each kind to add to it."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from audit.services import Actor
from organizations.models import Organization
from register import services
from register.models import ProcessingActivity, Vendor
from tests.factories import LegalDocumentFactory

ACTOR = Actor(label="seed")


def clean_register(organization: Organization) -> dict:
    """Vendors with DPAs and mechanisms, activities with every condition, documents agreeing."""
    local = services.vendor_create(
        organization=organization, actor=ACTOR,
        data={"name": "Hosting GmbH", "country": "Germany", "role": "processor",
              "dpa_status": "signed"},
    )  # fmt: skip
    cloud = services.vendor_create(
        organization=organization, actor=ACTOR,
        data={"name": "CloudPay Inc.", "country": "US", "role": "processor",
              "dpa_status": "signed", "transfer_mechanism": "standard-contractual-clauses",
              "transfer_mechanism_wording": "SCC 2021/914, module 2"},
    )  # fmt: skip
    payroll = services.activity_create(
        organization=organization, actor=ACTOR,
        data={
            "name": "Payroll",
            "legal_bases": [{"code": "contract", "wording": "Art. 6(1)(b) employment contract"}],
            "data_categories": ["Bank details", "Sick leave days"],
            "special_categories": ["Health data (sick leave)"],
            "art9_conditions": [{"code": "art-9-2-b", "wording": "Art. 9(2)(b) employment law"}],
            "retention": [{"category": "Payslips", "period": "10 years"}],
            "recipients": [{"name": "Payroll desk", "country": "India",
                            "safeguard": "Standard Contractual Clauses"}],
            "vendors": [local, cloud],
            "next_review_date": timezone.now().date() + timedelta(days=200),
        },
    )  # fmt: skip
    newsletter = services.activity_create(
        organization=organization, actor=ACTOR,
        data={
            "name": "Newsletter",
            "legal_bases": ["Art. 6(1)(a) consent"],
            "consent_withdrawal": "Unsubscribe link in every e-mail",
            "retention": ["Until consent is withdrawn"],
        },
    )  # fmt: skip
    cctv = services.activity_create(
        organization=organization, actor=ACTOR,
        data={
            "name": "CCTV",
            "legal_bases": ["legitimate interest in the safety of the premises"],
            "dpia_screening": {"systematicMonitoring": True, "largeScale": True},
            "next_review_date": timezone.now().date() + timedelta(days=100),
        },
    )  # fmt: skip
    policy = LegalDocumentFactory(
        organization=organization, document_type="PRIVACY_POLICY",
        register_sources={"activities": {str(payroll.pk): payroll.revision,
                                          str(newsletter.pk): newsletter.revision}},
        content_markdown="# Privacy policy\n\nPayslips are kept for 10 years. Newsletter data"
        " is kept until consent is withdrawn.\n",
    )  # fmt: skip
    dpia = LegalDocumentFactory(
        organization=organization, document_type="DPIA", status="completed",
        register_sources={"activities": {str(cctv.pk): cctv.revision}},
    )  # fmt: skip
    breach = LegalDocumentFactory(
        organization=organization, document_type="BREACH_NOTIFICATION", stage="draft",
        inputs={"companyName": "Acme",
                "discoveredAt": (timezone.now() - timedelta(hours=10)).isoformat()},
    )  # fmt: skip
    return {"vendors": [local, cloud], "activities": [payroll, newsletter, cctv],
            "policy": policy, "dpia": dpia, "breach": breach}  # fmt: skip


def activity(organization: Organization, name: str) -> ProcessingActivity:
    return ProcessingActivity.objects.get(organization=organization, name=name)


def vendor(organization: Organization, name: str) -> Vendor:
    return Vendor.objects.get(organization=organization, name=name)
