from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status
from rest_framework.request import Request
from rest_framework.response import Response

from common.pagination import envelope_pagination
from organizations import services
from organizations.models import ClientCompany
from organizations.serializers import ClientCompanySerializer
from organizations.viewsets import OrganizationScopedViewSet


@extend_schema(tags=["client companies"])
class ClientCompanyViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, OrganizationScopedViewSet
):
    queryset = ClientCompany.objects.all()
    serializer_class = ClientCompanySerializer
    pagination_class = envelope_pagination("clientCompanies")
    audit_object_type = "client_company"

    def create(self, request: Request) -> Response:
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        company = services.client_company_create(
            organization=self.organization, **serializer.validated_data
        )
        self.audit(action="create", obj=company)
        return Response(self.get_serializer(company).data, status=status.HTTP_201_CREATED)
