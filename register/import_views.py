"""POST /api/v1/processing-activities/import: a register spreadsheet into the register.

The file comes as the multipart part `file`, or as `assetId`, an XLSX/CSV asset the
organization uploaded before (another organization's asset is 404, and the attempt is
recorded in both trails like every object route). The work is register.importing's.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.parsers import JSONParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from assets.models import Asset
from assets.selectors import asset_original_file
from common.errors import ApiError
from organizations.access import request_actor
from organizations.viewsets import OrganizationScopedViewSet
from register.importing import MAX_FILE_BYTES, ImportPlan, import_register


class RegisterImportSerializer(serializers.Serializer):
    file = serializers.FileField(
        required=False, help_text="The register as XLSX or CSV (multipart/form-data)."
    )
    assetId = serializers.UUIDField(  # noqa: N815 - the API's field name
        required=False, help_text="An uploaded XLSX or CSV asset of your organization."
    )
    dryRun = serializers.BooleanField(  # noqa: N815
        default=False, help_text="Show the plan without writing anything."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if bool(attrs.get("file")) == bool(attrs.get("assetId")):
            raise serializers.ValidationError(
                {"file": ["Give either the multipart part `file` or `assetId`, not both."]}
            )
        return attrs


class ImportRowSerializer(serializers.Serializer):
    sheet = serializers.CharField()
    row = serializers.IntegerField(help_text="The row number in the sheet (1-based).")
    entity = serializers.ChoiceField(choices=["activity", "vendor"])
    action = serializers.ChoiceField(choices=["created", "updated", "unchanged", "skipped"])
    id = serializers.UUIDField(
        allow_null=True, help_text="The entry's id; null for a row the dry run would create."
    )
    name = serializers.CharField()
    reference = serializers.CharField(help_text="The row's ID column, '' when none.")
    changedFields = serializers.ListField(child=serializers.CharField())  # noqa: N815
    problems = serializers.ListField(
        child=serializers.CharField(),
        help_text="What could not be read or looks wrong; the rest of the row is imported.",
    )


class ImportCountsSerializer(serializers.Serializer):
    created = serializers.IntegerField()
    updated = serializers.IntegerField()
    unchanged = serializers.IntegerField()
    skipped = serializers.IntegerField()


class ImportTotalsSerializer(ImportCountsSerializer):
    activities = ImportCountsSerializer()
    vendors = ImportCountsSerializer()


class ImportSheetSerializer(serializers.Serializer):
    sheet = serializers.CharField()
    kind = serializers.ChoiceField(choices=["activities", "vendors"])
    headerRow = serializers.IntegerField()  # noqa: N815
    columns = serializers.DictField(
        child=serializers.CharField(), help_text="Header as written -> the field it fills."
    )
    ignoredColumns = serializers.ListField(child=serializers.CharField())  # noqa: N815


class RegisterImportResponseSerializer(serializers.Serializer):
    dryRun = serializers.BooleanField()  # noqa: N815
    fileName = serializers.CharField()  # noqa: N815
    sheets = ImportSheetSerializer(many=True)
    ignoredSheets = serializers.ListField(  # noqa: N815
        child=serializers.CharField(), help_text="Sheets with no register header row."
    )
    rows = ImportRowSerializer(many=True)
    totals = ImportTotalsSerializer()


def import_response(*, plan: ImportPlan, dry_run: bool, file_name: str) -> dict[str, Any]:
    return {
        "dryRun": dry_run,
        "fileName": file_name,
        "sheets": [layout.as_dict() for layout in plan.layouts],
        "ignoredSheets": plan.ignored_sheets,
        "rows": [row.as_dict() for row in plan.rows],
        "totals": plan.totals(),
    }


class RegisterImportViewSet(OrganizationScopedViewSet):
    audit_object_type = "processing_activity"
    parser_classes = [MultiPartParser, JSONParser]
    serializer_class = RegisterImportSerializer

    @extend_schema(
        operation_id="processing_activities_import",
        request={
            "multipart/form-data": RegisterImportSerializer,
            "application/json": RegisterImportSerializer,
        },
        responses={200: RegisterImportResponseSerializer},
        examples=[
            OpenApiExample(
                "An uploaded asset, dry run",
                value={"assetId": "7d0c3f5e-2f5a-4a43-9a2e-1f0b9b8e8a11", "dryRun": True},
                request_only=True,
            )
        ],
    )
    def create(self, request: Request) -> Response:
        """Import a register of processing activities (XLSX or CSV), or plan it (`dryRun`).

        Columns are mapped by their headers (English, German and French names of the CNIL,
        DSK/Bitkom and ICO templates); a sheet whose headers name vendors (DPA status,
        sub-processors...) fills the vendors, and an activity's recipients that name a
        vendor link the activity to it. Rows match existing entries by `reference` (the ID
        column), else by name (case-insensitive). Importing the same file again gives only
        `unchanged` rows and writes nothing. All writes happen in one transaction.
        Writers only (auditors get 403). A file that is not a readable register is 400
        `VALIDATION_ERROR` (no recognised header row: `details.headersFound` and
        `details.expectedHeaders`), 413 `FILE_TOO_LARGE` or 415 `INVALID_FILE_TYPE`.
        """
        query = RegisterImportSerializer(data=request.data)
        query.is_valid(raise_exception=True)
        dry_run = query.validated_data["dryRun"]
        if query.validated_data.get("file") is not None:
            uploaded = query.validated_data["file"]
            if uploaded.size > MAX_FILE_BYTES:
                raise ApiError(
                    "FILE_TOO_LARGE",
                    f"A register import takes at most {MAX_FILE_BYTES:,} bytes.",
                    status_code=413,
                )
            file_name, content = uploaded.name or "register", uploaded.read()
        else:
            file_name, content = self._asset_file(query.validated_data["assetId"])
        plan = import_register(
            organization=self.organization,
            content=content,
            file_name=file_name,
            actor=request_actor(request),
            dry_run=dry_run,
        )
        return Response(import_response(plan=plan, dry_run=dry_run, file_name=file_name))

    def _asset_file(self, asset_id: Any) -> tuple[str, bytes]:
        found = asset_original_file(
            organization_id=self.organization.pk, asset_id=asset_id, max_bytes=MAX_FILE_BYTES
        )
        if found is not None:
            return found
        self.record_foreign_reference(
            queryset=Asset.objects.all(),
            lookup={"pk": asset_id},
            object_id=asset_id,
            action="import",
            foreign_action="asset.read",
            object_type="asset",
        )
        raise ApiError("NOT_FOUND", "No such asset in your organization.", status_code=404)
