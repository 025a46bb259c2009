"""Admin of legal documents: the DPO's flow, history with simple-history's diff, exports.

Everything is scoped to the staff user's organization (superusers see all). Content is never
edited through a model form: a change made that way would bypass the version chain, so the
document's fields are view-only, history "revert" is disabled, versions and packages are
read-only, and every change goes through the flow services (`admin/flow.py`).
"""

from __future__ import annotations

import io
import zipfile
from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, QuerySet
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext, gettext_lazy, ngettext
from simple_history.admin import SimpleHistoryAdmin

from audit.services import record_event
from common.admin_errors import report_domain_error
from common.admin_readonly import ReadOnlyAdminMixin
from common.domain import DomainError
from gdpr.doctypes.registry import DOCUMENT_TYPES
from legal_documents.admin.assets import asset_search_view
from legal_documents.admin.closing import ClockClosingAdminMixin
from legal_documents.admin.flow import DocumentFlowAdminMixin
from legal_documents.admin.forms import QuestionnaireForm
from legal_documents.admin.risk_map import document_risk_map
from legal_documents.exports import formats_for
from legal_documents.models import DocumentationPackage, DocumentVersion, LegalDocument
from legal_documents.naming import document_name, document_type_label, short_id
from legal_documents.packages import services as packages
from legal_documents.services.exporting import legal_document_export
from legal_documents.versioning import verify_document_chain
from organizations.admin_scoping import OrganizationScopedAdmin, admin_actor, is_auditor

PREVIEW_CHARACTERS = 20_000
BULK_EXPORT_FORMATS = ("md", "pdf")
CONTENT_FIELDS = ("content_markdown", "content_html", "content_text")


def audit_admin_event(
    request: HttpRequest, document: LegalDocument, action: str, **details: Any
) -> None:
    """An allowed read or export through the admin, in the organization's audit chain."""
    record_event(
        organization=document.organization,
        actor=admin_actor(request),
        action=f"document.{action}",
        object_type="document",
        object_id=document.pk,
        details={"via": "admin", **details},
    )


def named_with_short_id(document: LegalDocument) -> str:
    """The document's name, its short id after it in grey (two of one subject differ by it)."""
    return format_html(
        '{} <span class="quiet document-id">{}</span>', document_name(document), short_id(document)
    )


class DocumentTypeFilter(admin.SimpleListFilter):
    """The types by their names in the user's language, not their codes (DATA_PROCESSING_…)."""

    title = gettext_lazy("document type")
    parameter_name = "document_type__exact"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(name, document_type_label(name)) for name in DOCUMENT_TYPES]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value():
            return queryset.filter(document_type=self.value())
        return queryset


class StaleFilter(admin.SimpleListFilter):
    """Documents whose register entries changed since they were written (refresh them)."""

    title = gettext_lazy("stale (register changed)")
    parameter_name = "stale"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", gettext_lazy("Stale")), ("no", gettext_lazy("Up to date"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() in ("yes", "no"):
            return queryset.filter(stale_since__isnull=self.value() == "no")
        return queryset


@admin.register(LegalDocument)
class LegalDocumentAdmin(
    ClockClosingAdminMixin,
    DocumentFlowAdminMixin,
    ReadOnlyAdminMixin,
    OrganizationScopedAdmin,
    SimpleHistoryAdmin,
):
    change_form_template = "admin/legal_documents/legaldocument/document_change_form.html"
    list_display = [
        "name", "client_company", "status", "stage", "version", "stale_flag",
        "iteration_count", "creator", "organization", "updated_at",
    ]  # fmt: skip
    list_filter = [
        DocumentTypeFilter, "status", "stage", StaleFilter,
        ("client_company", admin.RelatedOnlyFieldListFilter),
        ("creator", admin.RelatedOnlyFieldListFilter),
    ]  # fmt: skip
    search_fields = ["id", "document_type", "content_sha256", "creator__email", "content_text"]
    date_hierarchy = "created_at"
    list_select_related = ["organization", "creator", "client_company"]
    list_per_page = 50
    actions = ["export_selected"]
    history_list_display = ["version", "status", "stage"]
    fields = [
        "id", "organization", "creator", "client_company", "document_type", "ruleset_version",
        "status", "stage", "version", "stale_since", "content_sha256", "chain_check",
        "export_links",
        "content_preview", "error_code", "error_message", "created_at", "updated_at",
        "completed_at",
    ]  # fmt: skip
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        # Ordered explicitly: a grouped (annotated) query drops the model's default ordering.
        queryset = (
            super()
            .get_queryset(request)
            .annotate(iteration_total=Count("iterations"))
            .order_by("-created_at")
        )
        match = request.resolver_match
        if match and match.url_name == "legal_documents_legaldocument_changelist":
            # A list page never shows the content; rows of a long document stay small.
            queryset = queryset.defer(*CONTENT_FIELDS)
        return queryset

    # -- read-only fields ----------------------------------------------------------------

    @admin.display(description=gettext_lazy("Document"), ordering="document_type")
    def name(self, document: LegalDocument) -> str:
        return named_with_short_id(document)

    @admin.display(description=gettext_lazy("Stale"), boolean=True, ordering="stale_since")
    def stale_flag(self, document: LegalDocument) -> bool:
        return document.stale_since is not None

    @admin.display(description=gettext_lazy("Iterations"), ordering="iteration_total")
    def iteration_count(self, document: LegalDocument) -> int:
        return getattr(document, "iteration_total", 0)

    @admin.display(description=gettext_lazy("Hash chain"))
    def chain_check(self, document: LegalDocument) -> str:
        check = verify_document_chain(document)
        if check.valid:
            return ngettext(
                "valid (%(count)d version)", "valid (%(count)d versions)", check.versions
            ) % {"count": check.versions}
        return gettext("BROKEN at version %(version)s: %(reason)s") % {
            "version": check.broken_at,
            "reason": check.reason,
        }

    @admin.display(description=gettext_lazy("Export"))
    def export_links(self, document: LegalDocument) -> str:
        if not document.has_content:
            return gettext("no content yet")
        return format_html_join(
            " ",
            '<a class="button export-link" href="{}" data-format="{}">{}</a>',
            (
                (
                    reverse("admin:legal_documents_legaldocument_export", args=[document.pk, fmt]),
                    fmt,
                    fmt.upper(),
                )
                for fmt in formats_for(document.document_type)
            ),
        )

    @admin.display(description=gettext_lazy("Content (Markdown)"))
    def content_preview(self, document: LegalDocument) -> str:
        text = document.content_markdown
        if len(text) > PREVIEW_CHARACTERS:
            text = (
                text[:PREVIEW_CHARACTERS]
                + "\n… "
                + gettext("(export the document for the full text)")
            )
        return format_html('<pre class="content-preview">{}</pre>', text)

    # -- the change page: panels, audited reads, refused saves -------------------------------

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict | None = None,
    ) -> HttpResponse:
        if object_id is None:
            return self.add_view(request, form_url, extra_context)
        document = self.get_queryset(request).filter(pk=object_id).first()
        if document is None or not self.has_view_permission(request, document):
            # Django's own answer for a row outside the queryset: back to the index.
            return super().changeform_view(request, object_id, form_url, extra_context)
        if request.method == "POST":
            self._refuse(request, document, "update")
        audit_admin_event(request, document, "read")
        questionnaire: QuestionnaireForm | None = (extra_context or {}).get("questionnaire")
        context = {**(extra_context or {}), **self.flow_context(request, document, questionnaire)}
        context["title"] = f"{document_name(document)} ({document.get_status_display()})"
        context["risk_map"] = document_risk_map(document)
        return super().changeform_view(request, object_id, form_url, context)

    # -- history: scoped, audited, never reverted ------------------------------------------------

    def revert_disabled(self, request: HttpRequest, obj: Any = None) -> bool:
        return True

    def _scoped_or_404(self, request: HttpRequest, object_id: str) -> LegalDocument:
        return self._scoped(request, object_id)

    def history_view(
        self, request: HttpRequest, object_id: str, extra_context: dict | None = None
    ) -> HttpResponse:
        # simple-history falls back to the historical rows of objects outside the queryset.
        document = self._scoped_or_404(request, object_id)
        audit_admin_event(request, document, "read", view="history")
        return super().history_view(request, object_id, extra_context)

    def history_form_view(
        self,
        request: HttpRequest,
        object_id: str,
        version_id: str,
        extra_context: dict | None = None,
    ) -> HttpResponse:
        document = self._scoped_or_404(request, object_id)
        if request.method != "GET":
            raise PermissionDenied(gettext("History is read-only."))
        audit_admin_event(request, document, "read", view="history", historyId=version_id)
        return super().history_form_view(request, object_id, version_id, extra_context)

    # -- export buttons and the bulk export --------------------------------------------------

    def get_urls(self) -> list[URLPattern]:
        export = path(
            "<uuid:object_id>/export/<str:fmt>/",
            self.admin_site.admin_view(self.export_view),
            name="legal_documents_legaldocument_export",
        )
        search = path(
            "asset-search/",
            self.admin_site.admin_view(lambda request: asset_search_view(self, request)),
            name="legal_documents_asset_search",
        )
        return [export, search, *self.flow_urls(), *super().get_urls()]

    def export_view(self, request: HttpRequest, object_id: str, fmt: str) -> HttpResponse:
        """The file as an attachment, audit-logged like the API's export."""
        document = self._scoped_or_404(request, object_id)
        if not self.has_view_permission(request, document):
            raise PermissionDenied
        try:
            exported = legal_document_export(document=document, fmt=fmt)
        except DomainError as error:
            report_domain_error(request, error)
            change_url = reverse("admin:legal_documents_legaldocument_change", args=[object_id])
            return HttpResponseRedirect(change_url)
        audit_admin_event(request, document, "export", format=fmt, version=document.version)
        response = HttpResponse(exported.content, content_type=exported.content_type)
        response["Content-Disposition"] = f'attachment; filename="{exported.filename}"'
        return response

    # A read (like the export buttons): every role that views documents, auditors included.
    @admin.action(
        description=gettext_lazy("Export selected documents (ZIP of Markdown and PDF)"),
        permissions=["view"],
    )
    def export_selected(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        buffer = io.BytesIO()
        exported_count = 0
        with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            for document in queryset.select_related("organization").defer(None):
                if not document.has_content:
                    continue
                for fmt in BULK_EXPORT_FORMATS:
                    exported = legal_document_export(document=document, fmt=fmt)
                    archive.writestr(f"{document.pk}/{exported.filename}", exported.content)
                audit_admin_event(
                    request, document, "export", format="+".join(BULK_EXPORT_FORMATS),
                    version=document.version, bulk=True,
                )  # fmt: skip
                exported_count += 1
        if not exported_count:
            self.message_user(request, gettext("None of the selected documents has content yet."))
            return None
        response = HttpResponse(buffer.getvalue(), content_type="application/zip")
        response["Content-Disposition"] = 'attachment; filename="legal-documents.zip"'
        return response


@admin.register(DocumentVersion)
class DocumentVersionAdmin(ReadOnlyAdminMixin, OrganizationScopedAdmin):
    organization_field = "document__organization"
    list_display = ["document_named", "number", "stage", "author", "change_reason", "created_at"]
    list_filter = ["stage"]
    search_fields = ["document__id", "content_sha256", "change_reason", "author__email"]
    date_hierarchy = "created_at"
    list_select_related = ["document", "author"]
    readonly_fields = [field.name for field in DocumentVersion._meta.fields]

    @admin.display(description=gettext_lazy("Document"), ordering="document")
    def document_named(self, version: DocumentVersion) -> str:
        return named_with_short_id(version.document)

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        heavy = ["content_markdown", *(f"document__{name}" for name in CONTENT_FIELDS)]
        return super().get_queryset(request).defer(*heavy)


@admin.register(DocumentationPackage)
class DocumentationPackageAdmin(ReadOnlyAdminMixin, OrganizationScopedAdmin):
    list_display = [
        "id", "organization", "status", "document_count", "size_bytes", "created_at",
        "completed_at", "download_link",
    ]  # fmt: skip
    list_filter = ["status"]
    date_hierarchy = "created_at"
    list_select_related = ["organization"]
    actions = ["rebuild_selected"]
    readonly_fields = [
        *(field.name for field in DocumentationPackage._meta.fields),
        "download_link",
    ]

    def has_rebuild_permission(self, request: HttpRequest) -> bool:
        return not is_auditor(request) and request.user.has_perm(
            "legal_documents.add_documentationpackage"
        )

    @admin.display(description=gettext_lazy("File"))
    def download_link(self, package: DocumentationPackage) -> str:
        if package.status != "completed":
            return "—"
        url = reverse("admin:legal_documents_documentationpackage_download", args=[package.pk])
        return format_html('<a class="button" href="{}">{}</a>', url, gettext("Download ZIP"))

    def get_urls(self) -> list[URLPattern]:
        download = path(
            "<uuid:object_id>/download/",
            self.admin_site.admin_view(self.download_view),
            name="legal_documents_documentationpackage_download",
        )
        return [download, *super().get_urls()]

    def download_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The package's ZIP (streamed), audit-logged like the API's download."""
        package = self.get_queryset(request).filter(pk=object_id).first()
        if package is None:
            raise Http404(gettext("No such package in your organization."))
        if not self.has_view_permission(request, package):
            raise PermissionDenied
        try:
            stream = packages.documentation_package_open(package)
        except DomainError as error:
            report_domain_error(request, error)
            return HttpResponseRedirect(
                reverse("admin:legal_documents_documentationpackage_changelist")
            )
        record_event(
            organization=package.organization,
            actor=admin_actor(request),
            action="package.download",
            object_type="package",
            object_id=package.pk,
            details={"sha256": package.sha256, "via": "admin"},
        )
        filename = f"inspection-package-{package.created_at:%Y%m%d}-{str(package.pk)[:8]}.zip"
        return FileResponse(
            stream, as_attachment=True, filename=filename, content_type="application/zip"
        )

    @admin.action(
        description=gettext_lazy("Rebuild selected packages (same filters)"),
        permissions=["rebuild"],
    )
    def rebuild_selected(self, request: HttpRequest, queryset: QuerySet) -> None:
        for package in queryset.select_related("organization"):
            try:
                packages.documentation_package_request(
                    organization=package.organization,
                    actor=admin_actor(request),
                    filters=dict(package.filters or {}),
                    rebuild_of=package.pk,
                )
            except DomainError as error:  # PACKAGE_LIMIT: the organization builds enough now
                report_domain_error(request, error, level=messages.WARNING)
                break
        self.message_user(request, gettext("Packages requested; they are built in the background."))
