from rest_framework import serializers

from audit.models import AuditEvent


class AuditEventSerializer(serializers.ModelSerializer):
    organizationId = serializers.UUIDField(source="organization_id", read_only=True)  # noqa: N815
    objectType = serializers.CharField(source="object_type")  # noqa: N815
    objectId = serializers.CharField(source="object_id")  # noqa: N815
    previousHash = serializers.CharField(source="previous_hash")  # noqa: N815

    class Meta:
        model = AuditEvent
        fields = [
            "id", "at", "actor", "organizationId", "action", "objectType", "objectId",
            "outcome", "ip", "hash", "previousHash",
        ]  # fmt: skip
        read_only_fields = fields
