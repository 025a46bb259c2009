"""The create body of DPIA, validated at the app's edge (DRF)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from gdpr.composition.assessments.controller_ratings import RISK_KEYS
from legal_documents.inputs.fields import (
    MAX_LIST_LENGTH,
    ProcessingDescriptionSerializer,
    TextField,
    data_category_list,
    flag,
    security_measure_list,
    text_list,
)
from register.gdpr_inputs import DpiaScreeningFields


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


class RiskRatingSerializer(serializers.Serializer):
    """The controller's own rating of one risk (Art. 35(7)(c)), on the CNIL 1-4 scale.

    Residual values are optional: without them the measures lower the controller's values as
    much as they lowered the engine's proposal.
    """

    risk = serializers.ChoiceField(choices=RISK_KEYS)
    severity = serializers.IntegerField(min_value=1, max_value=4)
    likelihood = serializers.IntegerField(min_value=1, max_value=4)
    residualSeverity = serializers.IntegerField(min_value=1, max_value=4, required=False)  # noqa: N815
    residualLikelihood = serializers.IntegerField(min_value=1, max_value=4, required=False)  # noqa: N815
    reason = TextField(allow_blank=False, required=True, help_text="Why the controller rates so.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        for residual, inherent in (
            ("residualSeverity", "severity"),
            ("residualLikelihood", "likelihood"),
        ):
            if attrs.get(residual) is not None and attrs[residual] > attrs[inherent]:
                raise serializers.ValidationError(
                    {
                        residual: [
                            f"Measures cannot raise the {inherent}: at most {attrs[inherent]}."
                        ]
                    }
                )
        return attrs


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
    # The controller's ratings, replacing the engine's proposal for the risks named.
    riskRatings = RiskRatingSerializer(many=True, required=False, max_length=len(RISK_KEYS))  # noqa: N815
    # Art. 13/14 and Art. 5(1)(b), stated by the controller: never assumed in the text.
    dataSubjectsInformation = TextField()  # noqa: N815
    furtherProcessing = flag()  # noqa: N815
    furtherPurposes = TextField()  # noqa: N815
    # Also questionnaire questions; the create body may already answer them (Art. 35(9)).
    dataSubjectsConsulted = flag()  # noqa: N815
    consultationSummary = TextField()  # noqa: N815
    consultationNotSoughtReason = TextField()  # noqa: N815

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs = super().validate(attrs)
        rated = [rating["risk"] for rating in attrs.get("riskRatings") or []]
        if len(rated) != len(set(rated)):
            raise serializers.ValidationError({"riskRatings": ["Rate each risk once."]})
        if len(attrs.get("processingActivityIds") or []) > 1:
            raise serializers.ValidationError(
                {"processingActivityIds": ["A DPIA describes one processing activity."]}
            )
        return attrs
