"""BREACH_NOTIFICATION: notification to the authority and communication to subjects (33, 34)."""

from __future__ import annotations

from rest_framework import serializers

from gdpr.composition.writers import breach_notification as writers
from gdpr.doctypes.base import ChecklistItem, DocumentType, Question, Section
from legal_documents.inputs.fields import DocumentInputSerializer, TextField, flag, text_list

BREACH_TYPES = ("confidentiality", "integrity", "availability")


class BreachSerializer(serializers.Serializer):
    """The breach as one object; each key stands for a flat field (flat fields win)."""

    discoveredAt = serializers.DateTimeField(required=False)  # noqa: N815
    occurredAt = serializers.DateTimeField(required=False)  # noqa: N815
    nature = TextField()
    dataSubjectsAffected = serializers.IntegerField(required=False, min_value=0)  # noqa: N815
    recordsAffected = serializers.IntegerField(required=False, min_value=0)  # noqa: N815
    categories = text_list()
    likelyConsequences = TextField()  # noqa: N815
    measuresTaken = text_list()  # noqa: N815


class BreachNotificationInputSerializer(DocumentInputSerializer):
    """Create-body fields of a breach notification; `discoveredAt` starts the 72 hours.

    The facts come as flat fields or as a `breach` object (`inputs.BREACH_FIELDS` maps them).
    """

    breach = BreachSerializer(required=False)
    discoveredAt = serializers.DateTimeField(required=False)  # noqa: N815
    occurredAt = serializers.DateTimeField(required=False)  # noqa: N815
    breachNature = TextField()  # noqa: N815
    breachTypes = serializers.ListField(  # noqa: N815
        child=serializers.ChoiceField(choices=BREACH_TYPES), required=False
    )
    dataCategories = text_list()  # noqa: N815
    specialCategories = flag()  # noqa: N815
    vulnerableSubjects = flag()  # noqa: N815
    approximateSubjects = serializers.IntegerField(required=False, min_value=0)  # noqa: N815
    approximateRecords = serializers.IntegerField(required=False, min_value=0)  # noqa: N815
    likelyConsequences = TextField()  # noqa: N815
    measuresTaken = text_list()  # noqa: N815
    measuresProposed = text_list()  # noqa: N815
    encrypted = flag()
    keyCompromised = flag()  # noqa: N815
    subsequentMeasuresRemoveRisk = flag()  # noqa: N815
    disproportionateEffort = flag()  # noqa: N815
    highRisk = flag()  # noqa: N815
    delayReasons = TextField()  # noqa: N815
    dpoContact = TextField()  # noqa: N815
    actingAsProcessor = flag()  # noqa: N815
    controllerName = TextField()  # noqa: N815
    supervisoryAuthority = TextField()  # noqa: N815


SECTIONS = (
    Section("notification", "Notification and deadline", "Art. 33(1)-(2)"),
    Section("content", "Content of the notification", "Art. 33(3)"),
    Section("record", "Information in phases and documentation", "Art. 33(4)-(5)"),
    Section("subjects", "Communication to data subjects", "Art. 34"),
)

CHECKLIST = (
    ChecklistItem("deadline", "Art. 33(1)", "Notify the supervisory authority without undue"
                  " delay and where feasible within 72 hours of becoming aware, with reasons for"
                  " any delay", "notification", "Deadline for notification"),
    ChecklistItem("processor-notification", "Art. 33(2)", "Processors notify the controller"
                  " without undue delay", "notification", "Processor's notification"),
    ChecklistItem("a-nature", "Art. 33(3)(a)", "Nature of the breach, categories and"
                  " approximate numbers of data subjects and records", "content",
                  "Nature of the breach"),
    ChecklistItem("b-contact", "Art. 33(3)(b)", "Name and contact details of the DPO or other"
                  " contact point", "content", "Contact point"),
    ChecklistItem("c-consequences", "Art. 33(3)(c)", "Likely consequences of the breach",
                  "content", "Likely consequences"),
    ChecklistItem("d-measures", "Art. 33(3)(d)", "Measures taken or proposed, including"
                  " mitigation", "content", "Measures taken or proposed"),
    ChecklistItem("phased-information", "Art. 33(4)", "Information provided in phases where"
                  " not available at once", "record", "Information in phases"),
    ChecklistItem("documentation", "Art. 33(5)", "Documentation of the breach: facts, effects"
                  " and remedial action", "record", "Internal documentation"),
    ChecklistItem("data-subject-communication", "Art. 34", "Communication to data subjects"
                  " when high risk, in clear and plain language, unless an Art. 34(3) exception"
                  " applies", "subjects", "Communication to data subjects"),
)  # fmt: skip

QUESTIONS = (
    Question("howDiscovered", "How was the breach discovered?", "Helps date awareness.",
             "Art. 33(1)", True, "choice", "a-nature",
             options=("Internal detection", "Reported by a processor",
                      "Reported by a data subject", "Reported by a third party",
                      "Media or public source")),
    Question("breachOngoing", "Is the breach still ongoing?", "Containment status.",
             "Art. 33(3)(d)", True, "boolean", "d-measures"),
    Question("containedOn", "When was the breach contained?", "Date of containment.",
             "Art. 33(3)(d)", False, "date", "d-measures", condition=("breachOngoing", False)),
    Question("crossBorder", "Does the breach affect data subjects in several Member States?",
             "Notify the lead supervisory authority (Art. 56).", "Art. 56", False, "boolean",
             "deadline"),
    Question("informationComplete", "Is all the Art. 33(3) information available now?",
             "Otherwise provide it in phases.", "Art. 33(4)", True, "boolean",
             "phased-information"),
    Question("pendingInformation", "Which information is still being gathered, and when will"
             " it follow?", "Name the items and an expected date.", "Art. 33(4)", True, "text",
             "phased-information", condition=("informationComplete", False)),
    Question("communicationChannels", "How will data subjects be told?",
             "Direct messages unless disproportionate.", "Art. 34(2)", False, "multiChoice",
             "data-subject-communication",
             options=("E-mail", "Letter", "SMS", "Website notice", "Press release")),
)  # fmt: skip

DOCUMENT_TYPE = DocumentType(
    name="BREACH_NOTIFICATION",
    title="Personal Data Breach Notification",
    ruleset_version="breach-2026.1",
    description=(
        "Notification of a personal data breach to the supervisory authority (Art. 33 GDPR)"
        " and decision on communication to the data subjects (Art. 34), following EDPB"
        " Guidelines 9/2022."
    ),
    input_serializer=BreachNotificationInputSerializer,
    questions=QUESTIONS,
    sections=SECTIONS,
    checklist=CHECKLIST,
    writers=writers.WRITERS,
    assess=writers.assess,
)
