"""Admin of assets: list, inspect, upload and delete, scoped to the staff user's organization.

Uploads through the admin go through the same service as the API (type check, dedupe,
storage, processing); processed fields are read-only. Chunks are read-only.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponseRedirect
from django.urls import reverse, reverse_lazy
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext, gettext_lazy, ngettext

from assets import services
from assets.models import Asset, AssetChunk
from assets.progress import asset_progress
from common.admin_errors import admin_message
from common.admin_readonly import ReadOnlyAdminMixin
from common.domain import DomainError
from organizations.admin_scoping import OrganizationScopedAdmin, is_auditor

READ_ONLY_FIELDS = (
    "id", "progress_bar", "original_file_name", "original_file", "converted_file", "file_size",
    "converted_size", "sha256", "media_type", "status", "error_code", "error_message",
    "error_details", "chunk_count", "embedding_provider", "ocr_summary", "uploader", "created_at",
    "updated_at", "processing_started_at", "completed_at",
)  # fmt: skip
# "Review this document" (the reviews app's admin add page, reviews/admin.py).
REVIEW_REQUEST_PAGE = "admin:reviews_review_add"
# The ingestion's stages (assets/progress.py), as the admin names them.
STAGE_LABELS = {
    "extracting": gettext_lazy("extracting"),
    "chunking": gettext_lazy("chunking"),
    "embedding": gettext_lazy("embedding"),
    "indexing": gettext_lazy("indexing"),
}


class AssetUploadForm(forms.ModelForm):
    """Add form: the upload runs in ``clean`` so that a refused file is a form error."""

    upload = forms.FileField(
        help_text=gettext_lazy("PDF, DOCX, XLSX, PPTX, CSV, TXT, MD or HTML; 100 MiB at most.")
    )
    uploader: Any = None

    class Meta:
        model = Asset
        fields = ["organization"]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        organization, uploaded = cleaned.get("organization"), cleaned.get("upload")
        if organization is not None and uploaded is not None:
            try:
                self.result = services.asset_upload(
                    organization=organization, uploader=self.uploader, uploaded=uploaded
                )
            except DomainError as error:
                raise forms.ValidationError({"upload": admin_message(error)}) from error
        return cleaned


@admin.register(Asset)
class AssetAdmin(OrganizationScopedAdmin):
    list_display = (
        "original_file_name", "status", "media_type", "file_size", "chunk_count",
        "organization", "created_at",
    )  # fmt: skip
    list_filter = ("status", "media_type")
    search_fields = ("original_file_name", "sha256")
    date_hierarchy = "created_at"
    ordering = ("-created_at",)
    actions = ["review_document"]

    class Media:
        # Polls the find response with the session while the asset is processed; its texts
        # come from Django's JavaScript catalog.
        js = (reverse_lazy("javascript-catalog"), "assets/admin/asset_progress.js")

    @admin.display(description=gettext_lazy("Progress"))
    def progress_bar(self, obj: Asset) -> SafeString:
        progress = asset_progress(obj)
        percent = progress["percent"] if progress else None
        if progress:
            done = progress["chunksDone"]
            label = ngettext("%(stage)s: %(count)d chunk", "%(stage)s: %(count)d chunks", done) % {
                "stage": STAGE_LABELS.get(progress["stage"], progress["stage"]),
                "count": done,
            }
        else:
            label = obj.get_status_display()
        return format_html(
            '<div id="asset-progress" data-url="{}" data-status="{}">'
            '<progress max="100"{}></progress> <span class="asset-progress-label">{}</span></div>',
            reverse("asset-detail", kwargs={"pk": obj.pk}),
            obj.status,
            format_html(' value="{}"', percent) if percent is not None else "",
            label,
        )

    @admin.display(description=gettext_lazy("Text recognition (OCR)"))
    def ocr_summary(self, obj: Asset) -> str:
        # assets/processing/ocr.py: set only when pages of a scanned PDF were recognised.
        if not obj.ocr or not obj.ocr.get("applied"):
            return gettext("Not applied")
        pages = int(obj.ocr.get("pages") or 0)
        confidence = obj.ocr.get("confidence")
        return ngettext(
            "%(pages)d page recognised, mean confidence %(confidence)s (%(languages)s)",
            "%(pages)d pages recognised, mean confidence %(confidence)s (%(languages)s)",
            pages,
        ) % {
            "pages": pages,
            "confidence": "—" if confidence is None else f"{round(confidence * 100)} %",
            "languages": ", ".join(obj.ocr.get("languages") or []),
        }

    @admin.display(description=gettext_lazy("Review"))
    def review_button(self, obj: Asset) -> SafeString:
        # The reviews app's form (reviews/admin.py), by URL name: assets does not import it.
        return format_html(
            '<a class="button review-document" href="{}?asset={}">{}</a>',
            reverse(REVIEW_REQUEST_PAGE),
            obj.pk,
            gettext("Review this document"),
        )

    def _review_fields(self, request: HttpRequest) -> tuple[str, ...]:
        # Only for who may start a review: a button that answers 403 is no help.
        return ("review_button",) if self.has_review_permission(request) else ()

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        if obj is None:
            return ()
        return (*READ_ONLY_FIELDS, "organization", *self._review_fields(request))

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return (
            ("organization", *self._review_fields(request), *READ_ONLY_FIELDS)
            if obj is not None
            else ["organization", "upload"]
        )

    # A redirect, not a change: the review's own form asks what the document is.
    def has_review_permission(self, request: HttpRequest) -> bool:
        return not is_auditor(request) and request.user.has_perm("reviews.add_review")

    @admin.action(
        description=gettext_lazy("Review this document (DPA or privacy notice)"),
        permissions=["review"],
    )
    def review_document(
        self, request: HttpRequest, queryset: QuerySet[Asset]
    ) -> HttpResponseRedirect | None:
        chosen = list(queryset.values_list("pk", flat=True)[:2])
        if len(chosen) != 1:
            self.message_user(
                request, gettext("Select one document to review at a time."), messages.WARNING
            )
            return None
        return HttpResponseRedirect(f"{reverse(REVIEW_REQUEST_PAGE)}?asset={chosen[0]}")

    def get_form(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        if obj is not None:
            return super().get_form(request, obj, **kwargs)
        kwargs["form"] = AssetUploadForm
        kwargs["fields"] = ["organization"]
        form = super().get_form(request, obj, **kwargs)
        form.uploader = request.user
        return form

    def save_model(self, request: HttpRequest, obj: Asset, form: Any, change: bool) -> None:
        if change:  # every field of a stored asset is read-only
            return
        # The form stored the file already; the admin then redirects to the saved asset.
        result = form.result
        obj.pk = result.asset.pk
        obj.refresh_from_db()
        if result.duplicate:
            self.message_user(
                request, gettext("Same content already uploaded: showing it."), messages.INFO
            )

    def delete_model(self, request: HttpRequest, obj: Asset) -> None:
        services.asset_delete(asset=obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Asset]) -> None:
        for asset in queryset:
            services.asset_delete(asset=asset)


@admin.register(AssetChunk)
class AssetChunkAdmin(ReadOnlyAdminMixin, OrganizationScopedAdmin):
    # Written by ingestion only; an admin may still delete a chunk (as before the mixin).
    deletable = True
    list_display = ("asset", "index", "location", "short_text")
    list_select_related = ("asset",)
    search_fields = ("text", "asset__original_file_name")
    readonly_fields = ("asset", "organization", "index", "location", "text")
    exclude = ("embedding",)

    @admin.display(description=gettext_lazy("Text"))
    def short_text(self, obj: AssetChunk) -> str:
        return obj.text[:120]
