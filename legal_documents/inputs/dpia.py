"""The create body of DPIA, validated at the app's edge (DRF)."""

from __future__ import annotations

from rest_framework import serializers

from legal_documents.inputs.fields import (
    ProcessingDescriptionSerializer,
    TextField,
    flag,
    text_list,
)


class DpiaInputSerializer(ProcessingDescriptionSerializer):
    """Create-body fields of a DPIA (all optional: what is missing is marked in the text)."""

    dataFlow = TextField()  # noqa: N815
    legitimateInterests = TextField()  # noqa: N815
    necessityJustification = TextField()  # noqa: N815
    specialCategories = text_list()  # noqa: N815
    highlyPersonalData = flag()  # noqa: N815
    approximateSubjects = serializers.IntegerField(required=False, min_value=0)  # noqa: N815
    vulnerableSubjects = flag()  # noqa: N815
    largeScale = flag()  # noqa: N815
    systematicMonitoring = flag()  # noqa: N815
    publicAreaMonitoring = flag()  # noqa: N815
    profiling = flag()
    automatedDecisions = flag()  # noqa: N815
    innovativeTechnology = flag()  # noqa: N815
    datasetMatching = flag()  # noqa: N815
    preventsRightOrService = flag()  # noqa: N815
    securityMeasures = text_list()  # noqa: N815
    plannedMeasures = text_list()  # noqa: N815
    dpoAdvice = TextField()  # noqa: N815
    # Also questionnaire questions; the create body may already answer them (Art. 35(9)).
    dataSubjectsConsulted = flag()  # noqa: N815
    consultationSummary = TextField()  # noqa: N815
    consultationNotSoughtReason = TextField()  # noqa: N815
