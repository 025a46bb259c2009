"""The create body of DATA_PROCESSING_AGREEMENT, validated at the app's edge (DRF)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from gdpr.doctypes.data_processing_agreement import (
    SUBPROCESSOR_AUTHORISATIONS,
    TRANSFER_FREQUENCIES,
)
from legal_documents.inputs.fields import (
    DocumentInputSerializer,
    TextField,
    data_category_list,
    flag,
    register_ids,
    security_measure_list,
    string_or_object_list,
    text_list,
    transfers,
)
from register.gdpr_inputs import SubProcessorSerializer


class ProcessorSerializer(serializers.Serializer):
    """The processor as one object (beside `processorName` / `processorDetails`)."""

    name = TextField(allow_blank=False, required=True)
    address = TextField()
    contact = TextField()
    country = TextField(help_text="Where it processes; outside the EEA = a transfer.")


class DataProcessingAgreementInputSerializer(DocumentInputSerializer):
    """Create-body fields of a DPA; the company is the controller.

    `subProcessors` is a synonym of `subprocessors` (both lists are kept).
    """

    vendorId = serializers.UUIDField(  # noqa: N815
        required=False,
        help_text="A vendor of your register as the processor: its name, address, country,"
        " services, sub-processors and transfer mechanism, and what its linked activities"
        " process (subject matter, data, data subjects).",
    )
    processingActivityIds = register_ids(  # noqa: N815
        help_text="With vendorId: only these activities (default: every activity linked to it)."
    )
    processor = ProcessorSerializer(required=False)
    processorName = TextField()  # noqa: N815
    processorDetails = TextField()  # noqa: N815
    subjectMatter = TextField()  # noqa: N815
    duration = TextField()
    processingNature = TextField()  # noqa: N815
    purposes = text_list()
    dataCategories = data_category_list()  # noqa: N815
    dataSubjects = text_list()  # noqa: N815
    securityMeasures = security_measure_list()  # noqa: N815
    subprocessors = string_or_object_list(
        SubProcessorSerializer, help_text="Texts, or {name, country, service}."
    )
    subProcessors = string_or_object_list(  # noqa: N815
        SubProcessorSerializer, help_text="Synonym of subprocessors."
    )
    subprocessorAuthorisation = serializers.ChoiceField(  # noqa: N815
        choices=SUBPROCESSOR_AUTHORISATIONS, required=False
    )
    objectionPeriodDays = serializers.IntegerField(required=False, min_value=1, max_value=365)  # noqa: N815
    breachNotificationHours = serializers.IntegerField(  # noqa: N815
        required=False, min_value=1, max_value=72
    )
    deletionPeriodDays = serializers.IntegerField(required=False, min_value=0, max_value=365)  # noqa: N815
    thirdCountryTransfers = transfers()  # noqa: N815
    governingLaw = TextField(  # noqa: N815
        help_text='A Member State ("the law of Germany", "DE"): written in the document\'s'
        " language; a longer text is quoted as given."
    )
    jurisdiction = TextField()
    # Without a governing law naming a Member State, the controller's country gives the law of
    # the standard contractual clauses (Clauses 17-18) and their supervisory authority (13).
    country = TextField(help_text="Country of the controller's establishment (EEA name or code).")
    region = TextField(help_text="Region: in Germany the Land, whose authority is competent.")
    transferFrequency = serializers.ChoiceField(  # noqa: N815
        choices=TRANSFER_FREQUENCIES,
        required=False,
        help_text="Processor outside the EEA: Annex I.B of the standard contractual clauses.",
    )
    retentionPeriod = TextField(  # noqa: N815
        help_text="Processor outside the EEA: how long the data is retained (Annex I.B of the"
        " standard contractual clauses)."
    )
    processorCountry = TextField()  # noqa: N815
    actsAsProcessor = flag(help_text="The company is itself a processor (sub-processing).")  # noqa: N815
    transferImpactAssessment = TextField()  # noqa: N815
    sensitiveData = TextField()  # noqa: N815
    controllerSignatory = TextField()  # noqa: N815
    processorSignatory = TextField()  # noqa: N815

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs = super().validate(attrs)
        if attrs.get("processingActivityIds") and not attrs.get("vendorId"):
            raise serializers.ValidationError(
                {"processingActivityIds": ["Give vendorId too: a DPA is written for one vendor."]}
            )
        return attrs
