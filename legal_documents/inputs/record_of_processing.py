"""The create body of RECORD_OF_PROCESSING, validated at the app's edge (DRF)."""

from __future__ import annotations

from rest_framework import serializers

from legal_documents.inputs.fields import (
    MAX_LIST_LENGTH,
    LegalBasisField,
    ProcessingDescriptionSerializer,
    TextField,
    flag,
    security_measure_list,
    text_list,
)


class PurposeBasisSerializer(serializers.Serializer):
    """One purpose and its Art. 6(1) legal basis."""

    purpose = TextField(allow_blank=False, required=True)
    legalBasis = LegalBasisField(required=True)  # noqa: N815


class RecordOfProcessingInputSerializer(ProcessingDescriptionSerializer):
    """Create-body fields of one processing activity's record entry."""

    purposeLegalBases = PurposeBasisSerializer(  # noqa: N815
        many=True, required=False, max_length=MAX_LIST_LENGTH
    )
    art10Basis = TextField(help_text="Art. 10 basis for criminal offence data.")  # noqa: N815

    securityMeasures = security_measure_list()  # noqa: N815
    jointControllers = text_list()  # noqa: N815
    representative = TextField()
    actsAsProcessor = flag()  # noqa: N815
    controllersServed = text_list()  # noqa: N815
    processingCategoriesPerController = text_list()  # noqa: N815
    employeeCount = serializers.IntegerField(required=False, min_value=0)  # noqa: N815
