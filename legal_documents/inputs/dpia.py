"""The create body of DPIA, validated at the app's edge (DRF)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from common.gdpr_inputs import DpiaScreeningFields
from legal_documents.inputs.fields import (
    MAX_LIST_LENGTH,
    ProcessingDescriptionSerializer,
    TextField,
    data_category_list,
    flag,
    security_measure_list,
    text_list,
)


class PurposeNecessitySerializer(serializers.Serializer):
    """Why one purpose needs the processing and which less intrusive means were weighed."""

    purpose = TextField(allow_blank=False, required=True)
    necessity = TextField()
    lessIntrusiveMeans = TextField()  # noqa: N815


class ActionSerializer(serializers.Serializer):
    """One line of the action plan (CNIL PIA): measure, owner, due date, origin."""

    measure = TextField(allow_blank=False, required=True)
    owner = TextField()
    dueDate = serializers.DateField(required=False)  # noqa: N815
    origin = TextField(help_text="E.g. 'DPO's reservation'.")


class _DpiaDescriptionSerializer(ProcessingDescriptionSerializer):
    # The fields that come before the screening facts: DRF orders a class's fields after its
    # bases', and the admin form and the schema show them in this order.
    dataFlow = TextField()  # noqa: N815
    legitimateInterests = TextField()  # noqa: N815
    balancingTest = TextField(help_text="Art. 6(1)(f) balancing test.")  # noqa: N815
    necessityJustification = TextField()  # noqa: N815
    purposeNecessity = PurposeNecessitySerializer(  # noqa: N815
        many=True, required=False, max_length=MAX_LIST_LENGTH
    )
    country = TextField(help_text="Country of the main establishment (Art. 35(4) list).")
    art10Basis = TextField(help_text="Art. 10 basis for criminal offence data.")  # noqa: N815
    automatedMeans = flag()  # noqa: N815
    # The controller's validation (CNIL PIA); the decision itself is a questionnaire answer.
    controllerDecision = TextField()  # noqa: N815
    validatedBy = TextField(help_text="Name and role of the person validating.")  # noqa: N815
    validationDate = serializers.DateField(required=False)  # noqa: N815
    specialCategories = data_category_list()  # noqa: N815


class DpiaInputSerializer(_DpiaDescriptionSerializer, DpiaScreeningFields):
    """Create-body fields of a DPIA (all optional: what is missing is marked in the text)."""

    securityMeasures = security_measure_list()  # noqa: N815
    plannedMeasures = text_list()  # noqa: N815
    actionPlan = ActionSerializer(many=True, required=False, max_length=MAX_LIST_LENGTH)  # noqa: N815
    dpoAdvice = TextField()  # noqa: N815
    # Also questionnaire questions; the create body may already answer them (Art. 35(9)).
    dataSubjectsConsulted = flag()  # noqa: N815
    consultationSummary = TextField()  # noqa: N815
    consultationNotSoughtReason = TextField()  # noqa: N815

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs = super().validate(attrs)
        if len(attrs.get("processingActivityIds") or []) > 1:
            raise serializers.ValidationError(
                {"processingActivityIds": ["A DPIA describes one processing activity."]}
            )
        return attrs
