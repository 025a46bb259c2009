"""One realistic create body per document type, using the structured forms.

Shown as the OpenAPI examples of `POST /api/v1/legal-documents` and posted by the tests
(tests/legal_documents/test_structured_inputs.py), so an example can never drift from what
the API accepts. The company is a fictitious logistics firm.
"""

from __future__ import annotations

from typing import Any

COMPANY: dict[str, Any] = {
    "companyName": "Nordwind Logistik GmbH",
    "companyDetails": {
        "address": "Speicherstadt 5, 20457 Hamburg, Germany",
        "email": "privacy@nordwind.example",
        "phone": "+49 40 1234 5678",
        "website": "https://nordwind.example",
        "registrationNumber": "HRB 123456 (Amtsgericht Hamburg)",
        "vatId": "DE123456789",
        "dpo": {
            "name": "Dr. Lena Vogt",
            "email": "dpo@nordwind.example",
            "phone": "+49 40 1234 5600",
        },
        "employees": 420,
        "fleetSize": 140,
        "industry": "road freight",
    },
}

_RECIPIENTS: list[Any] = [
    {"name": "FleetTrack Telematics GmbH", "role": "processor", "country": "Germany"},
    {
        "name": "RouteAI Inc.",
        "role": "processor",
        "country": "United States",
        "safeguard": "Standard Contractual Clauses",
    },
    {"name": "Works council", "role": "internal"},
    {"name": "Hamburg Police", "role": "public-authority", "country": "DE"},
    "Insurance broker",
]
_TRANSFER = {
    "country": "India",
    "recipient": "Offshore Support Pvt Ltd",
    "mechanism": "Standard Contractual Clauses",
    "safeguardDetails": "SCC module 3, transfer impact assessment of 2026-01-15",
}
_RETENTION: list[Any] = [
    {
        "category": "Raw GPS positions",
        "period": "30 days",
        "criteria": "until the route is settled and the complaint window has closed",
    },
    {
        "category": "Driving behaviour reports",
        "period": "12 months",
        "criteria": "from the date of the report (annual safety review)",
    },
    "Driver master data: end of employment plus 3 years",
]
_ACTIVITY = {
    "name": "Telematics of the delivery fleet",
    "description": "On-board units record position, speed and driving events of each van.",
    "purposes": ["Route planning", "Driver safety coaching"],
}
_LEGAL_BASIS = [
    "Art. 6(1)(b) employment contract",
    "legitimate interest in fleet safety",
    "Art. 9(2)(b) employment law obligations",
]

EXAMPLES: dict[str, dict[str, Any]] = {
    "RECORD_OF_PROCESSING": {
        **COMPANY,
        "processingActivity": _ACTIVITY,
        "purposes": ["Proof of delivery"],
        "legalBasis": _LEGAL_BASIS,
        "purposeLegalBases": [
            {"purpose": "Route planning", "legalBasis": "legitimate interest in fleet safety"},
            {
                "purpose": "Driver safety coaching",
                "legalBasis": "legitimate interest in fleet safety",
            },
            {"purpose": "Proof of delivery", "legalBasis": "Art. 6(1)(b) employment contract"},
        ],
        "dataSubjects": ["Drivers"],
        "dataCategories": ["GPS position", "Driving behaviour events", "Driver ID"],
        "recipients": _RECIPIENTS,
        "thirdCountryTransfers": [_TRANSFER],
        "retentionPeriods": _RETENTION,
        "securityMeasures": ["Encryption at rest", "Role-based access control"],
        "actsAsProcessor": False,
    },
    "DPIA": {
        **COMPANY,
        "processingActivity": _ACTIVITY,
        "legalBasis": _LEGAL_BASIS,
        "country": "DE",
        "legitimateInterests": "Preventing accidents and proving delivery times.",
        "balancingTest": "Interest: road safety and proof of delivery. Necessity: no other"
        " source shows dangerous driving in time. Balance: drivers expect telematics at work;"
        " reports are seen only by the safety coach and the driver, GPS is kept 30 days.",
        "necessityJustification": "Manual logbooks cannot show dangerous driving in time.",
        "purposeNecessity": [
            {
                "purpose": "Route planning",
                "necessity": "Live positions are needed to assign deliveries.",
                "lessIntrusiveMeans": "Phone check-ins: too slow; positions off-duty are"
                " not recorded.",
            },
            {
                "purpose": "Driver safety coaching",
                "necessity": "Harsh braking events show where coaching is needed.",
                "lessIntrusiveMeans": "Accident statistics only: come too late to prevent.",
            },
        ],
        "dataSubjects": ["Drivers"],
        "dataCategories": ["GPS position", "Driving behaviour events"],
        "approximateSubjects": 160,
        "systematicMonitoring": True,
        "vulnerableSubjects": True,
        "largeScale": False,
        "profiling": True,
        "automatedDecisions": False,
        "innovativeTechnology": False,
        "datasetMatching": False,
        "preventsRightOrService": False,
        "publicAreaMonitoring": False,
        "recipients": _RECIPIENTS,
        "thirdCountryTransfers": [_TRANSFER],
        "retentionPeriods": _RETENTION,
        "securityMeasures": ["AES-256 encryption at rest", "Multi-factor authentication"],
        "dpoAdvice": "Proceed once drivers can see their own reports.",
        "actionPlan": [
            {
                "measure": "Driver self-service access to own reports",
                "owner": "Head of fleet",
                "dueDate": "2026-05-01",
                "origin": "DPO's advice",
            }
        ],
        "controllerDecision": "Processing may start once the action plan is implemented",
        "validatedBy": "Katrin Nord, Managing Director",
        "validationDate": "2026-03-02",
        "dataSubjectsConsulted": True,
        "consultationSummary": "Works council consulted on 2026-02-01.",
    },
    "PRIVACY_POLICY": {
        **COMPANY,
        "processingActivity": {
            "name": "Shipment tracking for recipients",
            "description": "Recipients follow their parcel and choose a delivery slot.",
            "purposes": ["Parcel tracking"],
        },
        "purposes": ["Delivery slot booking"],
        "legalBasis": ["Art. 6(1)(b) delivery contract", "consent"],
        # One table per purpose in the notice: which basis serves which purpose.
        "processingPurposes": [
            {"purpose": "Parcel tracking", "legalBasis": ["Art. 6(1)(b) delivery contract"]},
            {"purpose": "Delivery slot booking", "legalBasis": ["consent"]},
        ],
        "consentWithdrawalMethod": "The link in the slot booking SMS, or an e-mail to us.",
        "afterWithdrawal": "Only the record of your consent and its withdrawal (Art. 7(1)).",
        "dataCategories": ["Name", "Delivery address", "Phone number"],
        "recipients": _RECIPIENTS,
        "thirdCountryTransfers": [_TRANSFER],
        "retentionPeriods": _RETENTION,
        "contactEmail": "privacy@nordwind.example",
        "dataCollectedFromSubject": True,
        "statutoryRequirement": "The delivery address is needed to deliver the parcel.",
        "automatedDecisions": False,
        "supervisoryAuthority": "the Hamburg Commissioner for Data Protection",
    },
    "DATA_PROCESSING_AGREEMENT": {
        **COMPANY,
        "processor": {
            "name": "FleetTrack Telematics GmbH",
            "address": "Torstrasse 20, 10119 Berlin, Germany",
            "contact": "privacy@fleettrack.example",
        },
        "subjectMatter": "Operation of the telematics platform",
        "duration": "For the term of the telematics services agreement",
        "processingNature": "Collection, storage and analysis of vehicle data",
        "purposes": ["Route planning", "Driver safety coaching"],
        "dataCategories": ["GPS position", "Driving behaviour events"],
        "dataSubjects": ["Drivers"],
        "securityMeasures": ["ISO/IEC 27001 certified hosting", "Encryption in transit"],
        "subProcessors": [
            {"name": "CloudHost SE", "country": "Ireland", "service": "hosting"},
            {"name": "MapData Ltd", "country": "United Kingdom", "service": "map matching"},
            "SupportDesk GmbH (Germany), ticketing",
        ],
        "subprocessorAuthorisation": "general",
        "objectionPeriodDays": 30,
        "thirdCountryTransfers": [
            {
                "country": "United Kingdom",
                "recipient": "MapData Ltd",
                "mechanism": "adequacy decision",
            }
        ],
    },
    "BREACH_NOTIFICATION": {
        **COMPANY,
        "breach": {
            "discoveredAt": "2026-03-01T08:30:00Z",
            "occurredAt": "2026-02-28T22:10:00Z",
            "nature": "A misconfigured export exposed driver reports on a public link.",
            "dataSubjectsAffected": 160,
            "recordsAffected": 4800,
            "categories": ["Driver ID", "Driving behaviour events"],
            "likelyConsequences": "Drivers could face unfair judgement of their driving.",
            "measuresTaken": ["Public link revoked", "Access logs reviewed"],
        },
        "breachTypes": ["confidentiality"],
        "encrypted": False,
        "delayReasons": "The exposure was confirmed only after the log review.",
    },
    "DATA_SUBJECT_REQUEST_FORM": {
        **COMPANY,
        "requesterName": "Jonas Weber",
        "requesterContact": "jonas.weber@mail.example",
        "receivedAt": "2026-03-02",
        "rightsInvoked": ["access"],
        "identityVerification": "We compare the e-mail address with the driver record.",
    },
}
