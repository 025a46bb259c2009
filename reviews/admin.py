"""Reviews in the admin: upload -> "Review this document" -> the report page.

The Review admin lists the organization's reviews (organizations.admin_scoping); its add page
is the "Review this document" form the asset's page links to (document type, the report's
language, the vendor), which starts a review through the API's own service
(`reviews.services.review_create`: the same checks, audit and queue). The report page shows
each item with its status, its finding, each quote in a block quote with its location, and
the suggested clause; its export links answer the files of reviews.exports. Reads and exports
are audited like the API's. Nothing of a review is edited here: the review task writes it.
"""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext, gettext_lazy

from assets.models import Asset
from audit.services import record_event
from common.admin_errors import admin_message, report_domain_error
from common.admin_readonly import ReadOnlyAdminMixin
from common.domain import DomainError, InvalidInput
from gdpr.i18n import COMPLETE_LANGUAGES, LANGUAGE_NAMES
from gdpr.review.engine import REVIEWABLE_TYPES
from organizations.admin_scoping import (
    OrganizationScopedAdmin,
    admin_actor,
    admin_membership,
    admin_organization,
    is_auditor,
)
from register.models import Vendor
from reviews.admin_labels import (
    DOCUMENT_TYPE_LABELS,
    ITEM_STATUS_LABELS,
    document_type_label,
    verdict_label,
)
from reviews.exports import REVIEW_EXPORT_FORMATS, export_review
from reviews.models import Review, ReviewStatus
from reviews.services import review_create


def counts_summary(counts: dict[str, Any] | None) -> str:
    """ "present 9 · weak 1 · missing 2" in the user's language, the empty counts left out."""
    counts = counts or {}
    return " · ".join(
        f"{label} {counts[status]}"
        for status, label in ITEM_STATUS_LABELS.items()
        if counts.get(status)
    )


def report_url(review: Review) -> str:
    return reverse("admin:reviews_review_report", args=[review.pk])


def audit_admin_read(request: HttpRequest, review: Review, action: str, **details: Any) -> None:
    record_event(
        organization=review.organization,
        actor=admin_actor(request),
        action=f"review.{action}",
        object_type="review",
        object_id=review.pk,
        details={"via": "admin", **details},
    )


class ReviewRequestForm(forms.Form):
    """What a review needs besides the asset: what the document is, the report's language,
    and (for a DPA) the vendor whose contract it is."""

    document_type = forms.ChoiceField(
        label=gettext_lazy("The document is"),
        choices=[(name, DOCUMENT_TYPE_LABELS.get(name, name)) for name in REVIEWABLE_TYPES],
    )
    language = forms.ChoiceField(
        label=gettext_lazy("Language of the report"),
        required=False,
        choices=[
            ("", gettext_lazy("the organization's")),
            *((code, LANGUAGE_NAMES.get(code, code)) for code in COMPLETE_LANGUAGES),
        ],
    )
    vendor = forms.ModelChoiceField(
        label=gettext_lazy("Vendor"),
        queryset=Vendor.objects.none(),
        required=False,
        help_text=gettext_lazy(
            "The vendor whose DPA this is: its result is kept on the vendor and in the"
            " consistency report."
        ),
    )

    def __init__(self, *args: Any, organization: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        vendor_field = self.fields["vendor"]
        assert isinstance(vendor_field, forms.ModelChoiceField)
        vendor_field.queryset = Vendor.objects.filter(organization=organization).order_by("name")


@admin.register(Review)
class ReviewAdmin(ReadOnlyAdminMixin, OrganizationScopedAdmin):
    list_display = [
        "file_name", "vendor", "document_type_display", "verdict_display", "counts_display",
        "status", "created_at", "report_link",
    ]  # fmt: skip
    list_filter = [
        "status", "verdict", "document_type", "language",
        ("vendor", admin.RelatedOnlyFieldListFilter),
    ]  # fmt: skip
    search_fields = ["asset__original_file_name", "vendor__name"]
    list_select_related = ["asset", "vendor"]
    date_hierarchy = "created_at"
    list_per_page = 50
    fields = [
        "id", "organization", "asset", "vendor", "document_type", "language",
        "document_language", "status", "stage", "verdict_display", "counts_display",
        "report_link", "export_links", "ruleset", "method", "error_code", "error_message",
        "requested_by", "created_at", "completed_at",
    ]  # fmt: skip
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        queryset = super().get_queryset(request)
        match = request.resolver_match
        if match and match.url_name == "reviews_review_changelist":
            queryset = queryset.defer("items")  # a list never shows the items
        return queryset

    # -- columns ---------------------------------------------------------------------------
    @admin.display(description=gettext_lazy("Document"), ordering="asset__original_file_name")
    def file_name(self, review: Review) -> str:
        return review.asset.original_file_name

    @admin.display(description=gettext_lazy("Type"), ordering="document_type")
    def document_type_display(self, review: Review) -> str:
        return document_type_label(review.document_type)

    @admin.display(description=gettext_lazy("Verdict"), ordering="verdict")
    def verdict_display(self, review: Review) -> str:
        if not review.verdict:
            return "—"
        return format_html(
            '<span class="review-verdict review-verdict-{}">{}</span>',
            review.verdict,
            verdict_label(review.verdict),
        )

    @admin.display(description=gettext_lazy("Items"))
    def counts_display(self, review: Review) -> str:
        return counts_summary(review.counts) or "—"

    @admin.display(description=gettext_lazy("Report"))
    def report_link(self, review: Review) -> str:
        return format_html('<a href="{}">{}</a>', report_url(review), gettext("Report"))

    @admin.display(description=gettext_lazy("Export"))
    def export_links(self, review: Review) -> str:
        return format_html_join(
            " ",
            '<a class="button export-link" href="{}" data-format="{}">{}</a>',
            (
                (
                    reverse("admin:reviews_review_export", args=[review.pk, fmt]),
                    fmt,
                    fmt.upper(),
                )
                for fmt in REVIEW_EXPORT_FORMATS
            ),
        )

    # -- who may start a review ------------------------------------------------------------
    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        # A review belongs to the member's organization: a membership is needed.
        return (
            admin_membership(request) is not None
            and not is_auditor(request)
            and request.user.has_perm("reviews.add_review")
        )

    # -- pages -----------------------------------------------------------------------------
    def get_urls(self) -> list[URLPattern]:
        wrap = self.admin_site.admin_view
        return [
            path(
                "<uuid:object_id>/report/",
                wrap(self.report_view),
                name="reviews_review_report",
            ),
            path(
                "<uuid:object_id>/export/<str:fmt>/",
                wrap(self.export_view),
                name="reviews_review_export",
            ),
            *super().get_urls(),
        ]

    def _scoped(self, request: HttpRequest, object_id: Any) -> Review:
        review = (
            self.get_queryset(request)
            .select_related("asset", "vendor", "organization")
            .filter(pk=object_id)
            .first()
        )
        if review is None or not self.has_view_permission(request, review):
            raise Http404(gettext("No such review in your organization."))
        return review

    def report_view(self, request: HttpRequest, object_id: Any) -> HttpResponse:
        """Each item: status (coloured), finding, each quote with its location, suggestion."""
        review = self._scoped(request, object_id)
        audit_admin_read(request, review, "read")
        items = [
            {
                **item,
                "status_label": ITEM_STATUS_LABELS.get(item.get("status"), item.get("status")),
                "citations": [c for c in item.get("citations") or [] if isinstance(c, dict)],
            }
            for item in review.items or []
            if isinstance(item, dict)
        ]
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": gettext("Review of %(file)s") % {"file": review.asset.original_file_name},
            "review": review,
            "document_type": document_type_label(review.document_type),
            "verdict": verdict_label(review.verdict),
            "counts": [
                {"status": status, "label": label, "count": (review.counts or {}).get(status, 0)}
                for status, label in ITEM_STATUS_LABELS.items()
            ],
            "items": items,
            "is_processing": review.status == ReviewStatus.PROCESSING,
            "is_failed": review.status == ReviewStatus.FAILED,
            "exports": [
                (fmt.upper(), reverse("admin:reviews_review_export", args=[review.pk, fmt]))
                for fmt in REVIEW_EXPORT_FORMATS
            ],
            "asset_url": reverse("admin:assets_asset_change", args=[review.asset_id]),
            "vendor_url": (
                reverse("admin:register_vendor_change", args=[review.vendor_id])
                if review.vendor_id
                else ""
            ),
        }
        return TemplateResponse(request, "admin/reviews/review/report.html", context)

    def export_view(self, request: HttpRequest, object_id: Any, fmt: str) -> HttpResponse:
        """The report as a file (md, html, pdf, docx), audited like the API's export."""
        review = self._scoped(request, object_id)
        try:
            content, content_type, filename = export_review(review, fmt)
        except (ValueError, RuntimeError) as error:  # UnsupportedExportFormat, ExportRenderError
            raise Http404(str(error)) from error
        audit_admin_read(request, review, "export", format=fmt.strip().lower())
        response = HttpResponse(content, content_type=content_type)
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response

    def add_view(
        self, request: HttpRequest, form_url: str = "", extra_context: dict | None = None
    ) -> HttpResponse:
        """ "Review this document": the asset comes from `?asset=`; POST starts the review."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        organization = admin_organization(request)
        asset_id = request.POST.get("asset") or request.GET.get("asset")
        asset = _own_asset(organization, asset_id)
        if asset is None:
            raise Http404(gettext("Choose the document to review on its asset page."))
        form = ReviewRequestForm(
            request.POST if request.method == "POST" else None, organization=organization
        )
        if request.method == "POST" and form.is_valid():
            review = self._start(request, form, asset)
            if review is not None:
                self.message_user(
                    request, gettext("The review has started; this page shows its report.")
                )
                return HttpResponseRedirect(report_url(review))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": gettext("Review this document"),
            "asset": asset,
            "form": form,
            "asset_url": reverse("admin:assets_asset_change", args=[asset.pk]),
        }
        return TemplateResponse(request, "admin/reviews/review/request.html", context)

    def _start(self, request: HttpRequest, form: ReviewRequestForm, asset: Asset) -> Review | None:
        vendor = form.cleaned_data.get("vendor")
        try:
            return review_create(
                organization=asset.organization,
                actor=admin_actor(request),
                asset_id=asset.pk,
                document_type=form.cleaned_data["document_type"],
                language=form.cleaned_data.get("language") or None,
                vendor_id=vendor.pk if vendor is not None else None,
                requested_by=request.user,
            )
        except InvalidInput as error:
            form.add_error(None, admin_message(error))
            for messages_of_field in (error.details or {}).values():
                for message in messages_of_field:
                    form.add_error(None, str(message))
            return None
        except DomainError as error:
            report_domain_error(request, error)
            return None


def _own_asset(organization: Any, asset_id: Any) -> Asset | None:
    if organization is None or not asset_id:
        return None
    try:
        key = uuid.UUID(str(asset_id))
    except ValueError:  # a malformed id names no asset
        return None
    return Asset.objects.filter(organization=organization, pk=key).first()
