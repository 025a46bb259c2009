"""The create body of PRIVACY_POLICY, validated at the app's edge (DRF)."""

from __future__ import annotations

from rest_framework import serializers

from gdpr.composition.writers.privacy_policy import ART_14_EXEMPTIONS
from legal_documents.inputs.fields import (
    MAX_LIST_LENGTH,
    ProcessingDescriptionSerializer,
    TextField,
    data_category_list,
    flag,
    legal_bases,
    text_list,
)


class ProcessingPurposeSerializer(serializers.Serializer):
    """One purpose with its own facts: the privacy notice shows a table per purpose."""

    purpose = TextField(allow_blank=False, required=True)
    dataCategories = data_category_list()  # noqa: N815
    legalBasis = legal_bases()  # noqa: N815
    legitimateInterest = TextField()  # noqa: N815
    retention = TextField()
    recipients = text_list()
    source = TextField()


class PrivacyPolicyInputSerializer(ProcessingDescriptionSerializer):
    """Create-body fields of a privacy notice."""

    processingPurposes = ProcessingPurposeSerializer(  # noqa: N815
        many=True, required=False, max_length=MAX_LIST_LENGTH
    )
    legitimateInterests = TextField()  # noqa: N815
    representative = TextField()
    contactEmail = TextField()  # noqa: N815
    dataCollectedFromSubject = flag()  # noqa: N815
    dataSources = text_list()  # noqa: N815
    statutoryRequirement = TextField()  # noqa: N815
    automatedDecisions = flag()  # noqa: N815
    automatedDecisionLogic = TextField()  # noqa: N815
    supervisoryAuthority = TextField()  # noqa: N815
    directMarketing = flag()  # noqa: N815
    processedByAutomatedMeans = flag()  # noqa: N815
    consentWithdrawalMethod = TextField()  # noqa: N815
    afterWithdrawal = TextField()  # noqa: N815
    art14Exemptions = serializers.ListField(  # noqa: N815
        child=serializers.ChoiceField(choices=tuple(ART_14_EXEMPTIONS)), required=False
    )
    art14ExemptionDetails = TextField()  # noqa: N815
