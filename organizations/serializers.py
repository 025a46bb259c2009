from rest_framework import serializers

from common.fields import BoundedTextField
from organizations.fields import company_details_field
from organizations.models import ClientCompany


class ClientCompanySerializer(serializers.ModelSerializer):
    name = BoundedTextField(max_length=200)
    details = company_details_field(required=False, allow_null=False, default=dict)
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)  # noqa: N815

    class Meta:
        model = ClientCompany
        fields = ["id", "name", "details", "createdAt"]
        read_only_fields = ["id"]
