"""API shapes of the consistency report."""

from __future__ import annotations

from rest_framework import serializers

from compliance.report import KINDS, SEVERITIES


class ReportObjectSerializer(serializers.Serializer):
    type = serializers.ChoiceField(
        choices=["processing_activity", "vendor", "transfer", "document", "review"]
    )
    id = serializers.CharField()
    name = serializers.CharField()


class ReportItemSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=KINDS)
    severity = serializers.ChoiceField(choices=SEVERITIES)
    article = serializers.CharField(help_text='e.g. "Art. 28(3)"')
    objects = ReportObjectSerializer(many=True)
    message = serializers.CharField()
    suggestedAction = serializers.CharField()  # noqa: N815


class SeverityCountsSerializer(serializers.Serializer):
    high = serializers.IntegerField()
    medium = serializers.IntegerField()
    low = serializers.IntegerField()


class RegisterReportSerializer(serializers.Serializer):
    items = ReportItemSerializer(many=True)
    totalCount = serializers.IntegerField()  # noqa: N815
    counts = SeverityCountsSerializer(help_text="Items by severity.")
    generatedAt = serializers.DateTimeField()  # noqa: N815


class ReportFiltersSerializer(serializers.Serializer):
    severity = serializers.ChoiceField(choices=SEVERITIES, required=False)
    kind = serializers.ChoiceField(choices=KINDS, required=False)
