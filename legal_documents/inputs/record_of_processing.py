"""The create body of RECORD_OF_PROCESSING, validated at the app's edge (DRF)."""

from __future__ import annotations

from rest_framework import serializers

from legal_documents.inputs.fields import (
    ProcessingDescriptionSerializer,
    TextField,
    flag,
    text_list,
)


class RecordOfProcessingInputSerializer(ProcessingDescriptionSerializer):
    """Create-body fields of one processing activity's record entry."""

    securityMeasures = text_list()  # noqa: N815
    jointControllers = text_list()  # noqa: N815
    representative = TextField()
    actsAsProcessor = flag()  # noqa: N815
    controllersServed = text_list()  # noqa: N815
    processingCategoriesPerController = text_list()  # noqa: N815
    employeeCount = serializers.IntegerField(required=False, min_value=0)  # noqa: N815
