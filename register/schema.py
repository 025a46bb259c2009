"""OpenAPI examples of the register's endpoints (request bodies as a DPO writes them)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample

ACTIVITY_EXAMPLE = {
    "name": "Payroll",
    "reference": "PA-007",
    "description": "Monthly salary payments and payslips for employees.",
    "purposes": [
        "Salary payment",
        {"purpose": "Tax and social security reporting", "legalBasis": "Art. 6(1)(c)"},
    ],
    "legalBases": ["Art. 6(1)(b) employment contract", {"code": "legal-obligation"}],
    "dataSubjects": ["Employees"],
    "dataCategories": ["Bank details", "Salary", "Tax ID", "Sick leave days"],
    "specialCategories": ["Health data (sick leave)"],
    "art9Conditions": ["Art. 9(2)(b) employment and social security law"],
    "retention": [
        {"category": "Payslips", "period": "10 years", "criteria": "§ 147 AO"},
        "Bank details: until the end of employment",
    ],
    "securityMeasures": ["Role-based access", "Encryption at rest"],
    "systems": ["DATEV"],
    "recipients": [
        {"name": "Tax office", "role": "public-authority", "country": "DE"},
        {
            "name": "Payroll support desk",
            "role": "processor",
            "country": "India",
            "safeguard": "Standard Contractual Clauses",
        },
    ],
    "owner": "Head of HR",
    "role": "controller",
    "dpiaScreening": {"vulnerableSubjects": True, "largeScale": False},
    "nextReviewDate": "2027-03-31",
    "vendorIds": ["3f1c9a4e-4f53-4c1e-9d7e-2b7f1f7f2a10"],
}
VENDOR_EXAMPLE = {
    "name": "CloudPay Inc.",
    "reference": "V-12",
    "address": "1 Market Street, San Francisco, CA, USA",
    "country": "US",
    "role": "processor",
    "services": "Payroll software (SaaS)",
    "dpaStatus": "signed",
    "dpaSignedOn": "2025-06-01",
    "subProcessors": [{"name": "AWS EMEA SARL", "country": "Luxembourg", "service": "Hosting"}],
    "transferMechanism": "EU-US Data Privacy Framework (adequacy)",
}


def activity_examples() -> list[OpenApiExample]:
    return [
        OpenApiExample("A processing activity", value=ACTIVITY_EXAMPLE, request_only=True),
        OpenApiExample(
            "Change the next review date",
            value={"nextReviewDate": "2027-09-30"},
            request_only=True,
        ),
    ]


def vendor_examples() -> list[OpenApiExample]:
    return [
        OpenApiExample("A processor in a third country", value=VENDOR_EXAMPLE, request_only=True),
        OpenApiExample(
            "The DPA is signed",
            value={"dpaStatus": "signed", "dpaSignedOn": "2026-11-01"},
            request_only=True,
        ),
    ]
