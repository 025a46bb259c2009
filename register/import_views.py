"""POST /api/v1/processing-activities/import and GET /api/v1/processing-activities/imports/{id}.

The file comes as the multipart part `file`, or as `assetId`, an XLSX/CSV asset the
organization uploaded before (another organization's asset is 404, and the attempt is
recorded in both trails like every object route). The POST only stores the file and
queues the import (202, the import with its id); a worker reads, plans and writes it
(register.importing.jobs), and the GET shows its status, progress, plan or error.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import JSONParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from assets.models import Asset
from assets.selectors import asset_original_file
from common.errors import ApiError
from organizations.access import request_actor
from organizations.viewsets import OrganizationScopedViewSet
from register.import_events import error_of, progress_of
from register.importing import jobs
from register.models import ImportStatus, RegisterImport


class RegisterImportSerializer(serializers.Serializer):
    file = serializers.FileField(
        required=False, help_text="The register as XLSX, ODS or CSV (multipart/form-data)."
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


class RegisterImportResultSerializer(serializers.Serializer):
    dryRun = serializers.BooleanField()  # noqa: N815
    fileName = serializers.CharField()  # noqa: N815
    sheets = ImportSheetSerializer(many=True)
    ignoredSheets = serializers.ListField(  # noqa: N815
        child=serializers.CharField(), help_text="Sheets with no register header row."
    )
    rows = ImportRowSerializer(many=True)
    omittedRows = serializers.IntegerField(  # noqa: N815
        help_text="Rows counted in the totals but not listed: the plan is kept to"
        " REGISTER_IMPORT_RESULT_MAX_BYTES of JSON."
    )
    totals = ImportTotalsSerializer()


class ImportProgressSerializer(serializers.Serializer):
    stage = serializers.ChoiceField(
        choices=["reading", "planning", "writing"], allow_null=True,
        help_text="Where a running import is; null while queued and once finished.",
    )  # fmt: skip
    attempts = serializers.IntegerField(help_text="Attempts started (a lost worker: another).")


class ImportErrorSerializer(serializers.Serializer):
    code = serializers.CharField(
        help_text="VALIDATION_ERROR, INVALID_FILE_TYPE, FILE_TOO_LARGE, CONFLICT,"
        " IMPORT_TIMEOUT, IMPORT_TOO_LARGE, IMPORT_INTERRUPTED, SERVICE_UNAVAILABLE,"
        " INTERNAL_ERROR"
    )
    message = serializers.CharField()
    details = serializers.JSONField(allow_null=True)


class RegisterImportStatusSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=ImportStatus.choices)
    dryRun = serializers.BooleanField()  # noqa: N815
    fileName = serializers.CharField()  # noqa: N815
    fileSize = serializers.IntegerField()  # noqa: N815
    progress = ImportProgressSerializer()
    result = RegisterImportResultSerializer(
        allow_null=True, help_text="The plan (dry run) or what was done; null until completed."
    )
    error = ImportErrorSerializer(allow_null=True, help_text="Why it failed; null otherwise.")
    createdAt = serializers.DateTimeField()  # noqa: N815
    startedAt = serializers.DateTimeField(allow_null=True)  # noqa: N815
    completedAt = serializers.DateTimeField(allow_null=True)  # noqa: N815


def _timestamp(value: Any) -> str | None:
    return value.isoformat().replace("+00:00", "Z") if value is not None else None


def import_status(register_import: RegisterImport) -> dict[str, Any]:
    return {
        "id": str(register_import.pk),
        "status": register_import.status,
        "dryRun": register_import.dry_run,
        "fileName": register_import.file_name,
        "fileSize": register_import.file_size,
        "progress": progress_of(register_import),
        "result": register_import.result if register_import.status == "completed" else None,
        "error": error_of(register_import),
        "createdAt": _timestamp(register_import.created_at),
        "startedAt": _timestamp(register_import.started_at),
        "completedAt": _timestamp(register_import.completed_at),
    }


def _too_large(size: int) -> ApiError:
    limit = settings.REGISTER_IMPORT_MAX_BYTES
    return ApiError(
        "FILE_TOO_LARGE",
        f"The file is {size:,} bytes; a register import takes at most {limit:,}.",
        status_code=413,
        details={"maxBytes": limit},
    )


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
        responses={202: RegisterImportStatusSerializer},
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

        Answers 202 with the import (`status: queued`); a worker reads, plans and writes it,
        and `GET /api/v1/processing-activities/imports/{id}` shows its `status` (`queued`,
        `processing`, `completed`, `failed`), `progress`, the plan (`result`, once completed)
        or the `error` (once failed); the organization's `/ws/assets/` socket gets
        `register-import-status` frames, its webhooks `register_import.completed` /
        `register_import.failed`. The file is at most REGISTER_IMPORT_MAX_BYTES (10 MiB;
        413 `FILE_TOO_LARGE` past it, as the route's body limit); an import runs within
        REGISTER_IMPORT_TIMEOUT_SECONDS and REGISTER_IMPORT_MEMORY_LIMIT_MB (then it fails
        with `IMPORT_TIMEOUT` / `IMPORT_TOO_LARGE`); at most REGISTER_IMPORT_MAX_RUNNING
        imports per organization are queued or running (429 `IMPORT_LIMIT`).

        Columns are mapped by their headers (English, German and French names of the CNIL,
        DSK/Bitkom and ICO templates); a sheet whose headers name vendors (DPA status,
        sub-processors...) fills the vendors, and an activity's recipients that name a
        vendor link the activity to it. Rows match existing entries by `reference` (the ID
        column), else by name (case-insensitive). Importing the same file again gives only
        `unchanged` rows and writes nothing. All writes happen in one transaction.
        Writers only (auditors get 403). A file that is not a readable register fails the
        import with `VALIDATION_ERROR` (no recognised header row: `details.headersFound`
        and `details.expectedHeaders`) or `INVALID_FILE_TYPE`.
        """
        query = RegisterImportSerializer(data=request.data)
        query.is_valid(raise_exception=True)
        dry_run = query.validated_data["dryRun"]
        limit = settings.REGISTER_IMPORT_MAX_BYTES
        if query.validated_data.get("file") is not None:
            uploaded = query.validated_data["file"]
            if uploaded.size > limit:
                raise _too_large(uploaded.size)
            file_name, content, size = uploaded.name or "register", uploaded, uploaded.size
        else:
            file_name, data = self._asset_file(query.validated_data["assetId"])
            content, size = data, len(data)
            if size > limit:
                raise _too_large(size)
        register_import = jobs.start_import(
            organization=self.organization,
            actor=request_actor(request),
            file_name=file_name,
            content=content,
            file_size=size,
            dry_run=dry_run,
        )
        register_import.refresh_from_db()  # a broker refusal has failed it meanwhile
        return Response(import_status(register_import), status=status.HTTP_202_ACCEPTED)

    def _asset_file(self, asset_id: Any) -> tuple[str, bytes]:
        found = asset_original_file(
            organization_id=self.organization.pk,
            asset_id=asset_id,
            max_bytes=settings.REGISTER_IMPORT_MAX_BYTES,
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


class RegisterImportStatusViewSet(OrganizationScopedViewSet):
    """GET /api/v1/processing-activities/imports/{id}: one import of the organization."""

    audit_object_type = "register_import"
    queryset = RegisterImport.objects.all()
    serializer_class = RegisterImportStatusSerializer

    @extend_schema(operation_id="processing_activities_import_status")
    def retrieve(self, request: Request, pk: str | None = None) -> Response:
        """An import: its status, progress, and then its plan (`result`) or its `error`.

        Every role of the organization may read it; another organization's import is 404
        (the attempt is recorded in both trails, as on every object route).
        """
        return Response(import_status(self.get_object()))
