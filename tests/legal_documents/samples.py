"""Complete inputs and questionnaire answers per document type, shared by tests and bench."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

FIXED_NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)

_COMMON: dict[str, Any] = {
    "companyName": "Acme Analytics GmbH",
    "companyDetails": "Hauptstrasse 1, 10115 Berlin, privacy@acme.example",
    "dpoContact": "Jane Roe, dpo@acme.example",
}
_TRANSFER = {
    "country": "United States",
    "recipient": "CloudCo Inc.",
    "safeguard": "standard-contractual-clauses",
    "safeguardDetails": "SCC module 2, transfer impact assessment of 2026-01-10",
}

FULL_INPUTS: dict[str, dict[str, Any]] = {
    "RECORD_OF_PROCESSING": {
        **_COMMON,
        "processingActivity": "Customer relationship management",
        "purposes": ["Contract management", "Customer support", "Prospect follow-up"],
        "legalBasis": ["contract", "legitimate-interests"],
        # Art. 6(1)(b) does not cover prospects: each purpose names its own basis.
        "purposeLegalBases": [
            {"purpose": "Contract management", "legalBasis": "contract"},
            {"purpose": "Customer support", "legalBasis": "contract"},
            {"purpose": "Prospect follow-up", "legalBasis": "legitimate-interests"},
        ],
        "dataSubjects": ["Customers", "Prospects"],
        "dataCategories": ["Identification data", "Contact data", "Order history"],
        "recipients": ["Customer support staff", "CRM hosting provider"],
        "thirdCountryTransfers": [_TRANSFER],
        # Art. 30(1)(f): a limit per data category, with the event it runs from.
        "retentionPeriods": [
            "Identification data: 3 years after the last contact",
            "Contact data: 3 years after the last contact",
            "Order history: 10 years after the end of the financial year",
        ],
        "securityMeasures": ["Encryption at rest", "Role-based access control"],
        "actsAsProcessor": False,
        "employeeCount": 420,
    },
    "DPIA": {
        **_COMMON,
        "processingActivity": "Video analytics of visitors in shopping centres",
        "dataFlow": "Cameras stream to an on-premise server; aggregates go to the cloud.",
        "purposes": ["Footfall measurement", "Security of premises"],
        "country": "DE",
        # Art. 9(2): biometric data needs a condition besides the Art. 6(1) basis.
        "legalBasis": ["legitimate-interests", "Art. 9(2)(a) explicit consent of enrolled staff"],
        "legitimateInterests": "Securing premises and planning staff.",
        "balancingTest": "Interest: security and staffing. Necessary: no less intrusive means"
        " counts by zone. Balance: visitors expect cameras at entrances; faces are blurred and"
        " video kept 72 hours, which tips the balance.",
        "necessityJustification": "Counting by sensors alone cannot distinguish incidents.",
        "purposeNecessity": [
            {
                "purpose": "Footfall measurement",
                "necessity": "Staff planning needs counts per zone and hour.",
                "lessIntrusiveMeans": "Infrared counters: cannot separate zones in crowds.",
            },
            {
                "purpose": "Security of premises",
                "necessity": "Incidents must be detected and evidenced.",
                "lessIntrusiveMeans": "Guards alone: cannot cover all zones at night.",
            },
        ],
        "dataCategories": ["Video images", "Movement patterns"],
        "specialCategories": ["Biometric data"],
        "dataSubjects": ["Visitors", "Employees"],
        "approximateSubjects": 250_000,
        "vulnerableSubjects": True,
        "largeScale": True,
        "systematicMonitoring": True,
        "publicAreaMonitoring": True,
        "profiling": False,
        "automatedDecisions": False,
        "innovativeTechnology": True,
        "datasetMatching": False,
        "preventsRightOrService": False,
        "recipients": ["Security contractor"],
        "thirdCountryTransfers": [_TRANSFER],
        "retentionPeriods": ["Video: 72 hours", "Aggregates: 2 years"],
        "securityMeasures": [
            "AES-256 encryption at rest",
            "Multi-factor authentication",
            "Access logs reviewed weekly",
            "Nightly backups",
        ],
        "dpoAdvice": "Proceed once the blurring of faces is deployed.",
        "actionPlan": [
            {
                "measure": "Deploy blurring of faces",
                "owner": "Head of security",
                "dueDate": "2026-04-01",
                "origin": "DPO's reservation",
            }
        ],
        "dataSubjectsInformation": "Signs at every entrance and a notice on the website.",
        "furtherProcessing": False,
        "dataSubjectsConsulted": True,
        "consultationSummary": "Staff representatives consulted on 2026-02-01.",
        # A high residual risk remains (Art. 36(1)): the DPIA goes to the authority.
        "controllerDecision": "Processing may start only after prior consultation of the"
        " supervisory authority (Art. 36)",
        "validatedBy": "Max Mustermann, Managing Director",
        "validationDate": "2026-03-02",
    },
    "PRIVACY_POLICY": {
        **_COMMON,
        "purposes": ["Running the newsletter", "Improving the website"],
        "legalBasis": ["consent", "legitimate-interests"],
        "processingPurposes": [
            {
                "purpose": "Running the newsletter",
                "dataCategories": ["E-mail address"],
                "legalBasis": ["consent"],
                "retention": "Until you unsubscribe",
                "recipients": ["Newsletter service provider"],
                "source": "Partner marketing lists",
            },
            {
                "purpose": "Improving the website",
                "dataCategories": ["Browsing data"],
                "legalBasis": ["legitimate-interests"],
                "legitimateInterest": "Measuring website audience to improve content.",
                "retention": "13 months",
                "recipients": ["No one outside Acme"],
                "source": "Your browser, when you visit the website",
            },
        ],
        "directMarketing": True,
        "processedByAutomatedMeans": True,
        "consentWithdrawalMethod": "The unsubscribe link in every newsletter, or an e-mail.",
        "afterWithdrawal": "Your e-mail address on a suppression list, so that we do not write"
        " to you again, and the record of your consent (Art. 7(1)).",
        "legitimateInterests": "Measuring website audience to improve content.",
        "dataCategories": ["E-mail address", "Browsing data"],
        "recipients": ["Newsletter service provider"],
        "thirdCountryTransfers": [_TRANSFER],
        "retentionPeriods": ["Until you unsubscribe", "Browsing data: 13 months"],
        "contactEmail": "privacy@acme.example",
        "dataCollectedFromSubject": False,
        "dataSources": ["Partner marketing lists"],
        "statutoryRequirement": "Providing your e-mail is needed to receive the newsletter.",
        "automatedDecisions": False,
        "supervisoryAuthority": "the Berlin Commissioner for Data Protection",
    },
    "DATA_PROCESSING_AGREEMENT": {
        "companyName": _COMMON["companyName"],
        "companyDetails": _COMMON["companyDetails"],
        "processorName": "CloudCo Inc.",
        "processorDetails": "1 Market St, San Francisco",
        "subjectMatter": "Hosting of the CRM",
        "duration": "For the term of the main services agreement",
        "processingNature": "Storage, backup and technical support",
        "purposes": ["Provision of the CRM service"],
        "dataCategories": ["Contact data", "Order history"],
        # Annex II states "no sensitive data" only on the controller's word.
        "sensitiveData": "None",
        "dataSubjects": ["Customers"],
        "processorCountry": "United States",
        "securityMeasures": [
            "AES-256 encryption at rest and TLS 1.3 in transit",
            "Role-based access control with multi-factor authentication",
            "Daily encrypted backups with tested restoration",
            "Yearly penetration tests",
            "ISO 27001 certified data centres",
        ],
        "subprocessors": [
            {
                "name": "BackupCo SAS",
                "address": "12 rue de Paris, 75001 Paris",
                "country": "France",
                "service": "backups",
            }
        ],
        "subprocessorAuthorisation": "general",
        "objectionPeriodDays": 30,
        "thirdCountryTransfers": [_TRANSFER],
        "governingLaw": "the law of Germany",
        "jurisdiction": "the courts of Berlin",
        # The controller's Member State and Land: the SCCs' supervisory authority (Clause 13).
        "country": "DE",
        "region": "Berlin",
        "transferFrequency": "continuous",
        "retentionPeriod": "For the term of the main services agreement, then deleted within"
        " 30 days",
        "controllerSignatory": "Max Mustermann, Managing Director",
        "processorSignatory": "Pat Smith, General Counsel",
    },
    "BREACH_NOTIFICATION": {
        **_COMMON,
        "occurredAt": "2026-02-28T22:00:00Z",
        "discoveredAt": "2026-03-01T08:30:00Z",
        "breachNature": "A laptop with customer exports was stolen.",
        "breachTypes": ["confidentiality"],
        "dataSubjects": ["Customers"],
        "dataCategories": ["Contact data", "Bank account numbers"],
        "specialCategories": False,
        "approximateSubjects": 1200,
        "approximateRecords": 1500,
        "likelyConsequences": "Phishing and fraud attempts against customers.",
        "measuresTaken": ["Remote wipe requested", "Passwords reset"],
        "measuresProposed": ["Full-disk encryption on all laptops"],
        "encrypted": False,
    },
    "DATA_SUBJECT_REQUEST_FORM": {
        **_COMMON,
        "requesterName": "John Doe",
        "requesterContact": "john@example.org",
        "receivedAt": "2026-01-31",
        "rightsInvoked": ["access", "erasure"],
        "identityVerification": "We match the e-mail address to the customer account.",
        "supervisoryAuthority": "the Berlin Commissioner for Data Protection",
        "country": "DE",
        "region": "Berlin",
    },
}

FULL_ANSWERS: dict[str, dict[str, Any]] = {
    "RECORD_OF_PROCESSING": {"hasJointControllers": False, "recordFormat": "Electronic"},
    "DPIA": {
        "dataMinimisation": True,
        "dpoOpinion": "Favourable with reservations",
        "dataSubjectsConsulted": True,
        "consultationSummary": "Works council consulted on 2026-02-01; no objection.",
        "controllerDecision": "Processing may start only after prior consultation of the"
        " supervisory authority (Art. 36)",
        "nextReviewDate": "2027-03-01",
    },
    "PRIVACY_POLICY": {"rightsRequestChannel": "E-mail"},
    "DATA_PROCESSING_AGREEMENT": {
        "processorInEu": False,
        "transferMechanism": "Standard contractual clauses",
    },
    "BREACH_NOTIFICATION": {"informationComplete": True},
    "DATA_SUBJECT_REQUEST_FORM": {"actingOnBehalf": False},
}
