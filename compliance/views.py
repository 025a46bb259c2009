"""The consistency report over the API: read by every member (auditors included), audited."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from compliance.report import narrowed, severity_counts
from compliance.report_cache import cached_register_report
from compliance.serializers import RegisterReportSerializer, ReportFiltersSerializer
from organizations.viewsets import OrganizationScopedViewSet

EXAMPLE = {
    "items": [
        {
            "kind": "processor-without-dpa",
            "severity": "high",
            "article": "Art. 28(3)",
            "objects": [{"type": "vendor", "id": "0b9a…", "name": "CloudPay Inc."}],
            "message": "CloudPay Inc. processes personal data on your behalf with no DPA on file.",
            "suggestedAction": "Sign a data processing agreement with the Art. 28(3) terms"
            " (create a DATA_PROCESSING_AGREEMENT for the vendor) and record its date.",
        }
    ],
    "totalCount": 1,
    "counts": {"high": 1, "medium": 0, "low": 0},
    "generatedAt": "2026-11-23T14:00:00Z",
}


@extend_schema(tags=["compliance"])
class RegisterReportViewSet(OrganizationScopedViewSet):
    audit_object_type = "register_report"
    pagination_class = None

    @extend_schema(
        parameters=[ReportFiltersSerializer],
        responses=RegisterReportSerializer,
        examples=[OpenApiExample("A processor with no DPA", value=EXAMPLE, response_only=True)],
        description="Contradictions and gaps across the processing register and the documents"
        " (kinds: processor without DPA, a vendor's reviewed DPA with missing items, transfer"
        " without mechanism, privacy-policy retention"
        " differing from the register, DPIA missing or past review, special categories without"
        " an Art. 9(2) condition, a data category needing classification (one no concept"
        " names: it may be Art. 9 data), consent without withdrawal, breach open past 72"
        " hours), most"
        " severe first, each with the article, the objects involved and a suggested action.",
    )
    def report(self, request: Request) -> Response:
        filters = ReportFiltersSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        now = timezone.now()
        items = cached_register_report(organization_id=self.organization.pk, now=now)
        counts = severity_counts(items=items)
        wanted = filters.validated_data
        items = narrowed(items=items, severity=wanted.get("severity"), kind=wanted.get("kind"))
        self.audit(action="read", details={"items": len(items), **counts})
        return Response(
            {
                "items": [item.as_dict() for item in items],
                "totalCount": len(items),
                "counts": counts,
                "generatedAt": now,
            }
        )
