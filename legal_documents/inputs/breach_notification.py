"""The create body of BREACH_NOTIFICATION, validated at the app's edge (DRF)."""

from __future__ import annotations

from rest_framework import serializers

from gdpr.doctypes.breach_notification import BREACH_TYPES
from legal_documents.inputs.fields import (
    DocumentInputSerializer,
    TextField,
    data_category_list,
    flag,
    text_list,
)


class BreachSerializer(serializers.Serializer):
    """The breach as one object; each key stands for a flat field (flat fields win)."""

    discoveredAt = serializers.DateTimeField(required=False)  # noqa: N815
    occurredAt = serializers.DateTimeField(required=False)  # noqa: N815
    nature = TextField()
    dataSubjectsAffected = serializers.IntegerField(required=False, min_value=0)  # noqa: N815
    recordsAffected = serializers.IntegerField(required=False, min_value=0)  # noqa: N815
    categories = data_category_list()
    likelyConsequences = TextField()  # noqa: N815
    measuresTaken = text_list()  # noqa: N815


class BreachNotificationInputSerializer(DocumentInputSerializer):
    """Create-body fields of a breach notification; `discoveredAt` starts the 72 hours.

    The facts come as flat fields or as a `breach` object (`inputs.BREACH_FIELDS` maps them).
    """

    breach = BreachSerializer(required=False)
    discoveredAt = serializers.DateTimeField(required=False)  # noqa: N815
    occurredAt = serializers.DateTimeField(required=False)  # noqa: N815
    occurredUnknown = flag(help_text="True while the time of the breach is being established.")  # noqa: N815
    awareAt = serializers.DateTimeField(  # noqa: N815
        required=False, help_text="When the controller became aware; defaults to discoveredAt."
    )
    notifiedAt = serializers.DateTimeField(required=False)  # noqa: N815
    dataSubjects = text_list()  # noqa: N815
    pendingInformationDate = TextField()  # noqa: N815
    breachNature = TextField()  # noqa: N815
    breachTypes = serializers.ListField(  # noqa: N815
        child=serializers.ChoiceField(choices=BREACH_TYPES), required=False
    )
    dataCategories = data_category_list()  # noqa: N815
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
    # Without supervisoryAuthority these name the competent one (gdpr/authorities.py);
    # companyDetails' country/address serves when they are absent.
    country = TextField(help_text="Country of the controller's establishment (EEA name or code).")
    region = TextField(help_text="Region: in Germany the Land, whose authority is competent.")
