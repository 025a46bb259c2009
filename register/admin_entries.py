"""The register in the admin: activities and vendors a DPO keeps, transfers read-only.

Saves and deletes go through `register.services` (revision, audit, the change announced,
transfers kept in step), never through a plain model save. The list fields are edited as
JSON and validated by the API's own fields, so the admin stores the same shapes the API
does. History (simple-history) is shown but never reverted: a revert would bypass the
services.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import Count, JSONField, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers as drf
from simple_history.admin import SimpleHistoryAdmin

from common.admin_errors import report_domain_error
from common.admin_readonly import ReadOnlyAdminMixin
from common.domain import DomainError
from gdpr.composition.recognition import TRANSFER_SAFEGUARDS, is_in_eea, recognise_safeguard
from organizations.admin_scoping import OrganizationScopedAdmin, admin_actor, admin_organization
from register import services
from register.concept_help import (
    category_recognised,
    data_category_help,
    measure_help,
    measure_recognised,
)
from register.models import ProcessingActivity, Transfer, Vendor
from register.selectors import dpia_screening, wording
from register.serializers import ProcessingActivitySerializer, VendorSerializer


class RegisterEntryForm(forms.ModelForm):
    """Checks the JSON fields with the API serializer's fields and the name's uniqueness."""

    api_serializer: type[drf.Serializer]
    organization: Any = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The entry's own organization, for superusers too: the service refuses any other
        # organization's vendor (ForeignVendor), which save_model could only answer with a 500.
        if "vendors" in self.fields:
            field = self.fields["vendors"]
            field.queryset = field.queryset.filter(organization=self.organization)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        serializer = self.api_serializer(context={"organization": self.organization})
        for field in serializer.fields.values():
            name = field.source
            if field.read_only or name not in cleaned or name == "*":
                continue
            model_field = self._meta.model._meta.get_field(name)
            if not isinstance(model_field, JSONField):
                continue
            if cleaned[name] is None:  # an emptied box: the field's empty list (or object)
                cleaned[name] = model_field.get_default()
            try:
                cleaned[name] = field.run_validation(cleaned[name])
            except drf.ValidationError as error:
                self.add_error(name, str(error.detail))
        organization = self.organization or getattr(self.instance, "organization", None)
        if organization is None:  # a superuser without a membership adds an entry
            self.add_error(None, gettext("Add the entry as a member of its organization."))
        name = cleaned.get("name")
        if name and organization is not None:
            others = self._meta.model.objects.filter(organization=organization, name=name)
            if others.exclude(pk=self.instance.pk).exists():
                self.add_error("name", gettext("This name is already used in your register."))
        return cleaned


class ActivityForm(RegisterEntryForm):
    api_serializer = ProcessingActivitySerializer

    class Meta:
        model = ProcessingActivity
        fields = sorted(services.ACTIVITY_FIELDS)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The codes an entry may name, in the user's language (built per request).
        for name, help_text in (
            ("data_categories", data_category_help()),
            ("special_categories", data_category_help()),
            ("security_measures", measure_help()),
        ):
            if name in self.fields:
                self.fields[name].help_text = help_text


class VendorForm(RegisterEntryForm):
    api_serializer = VendorSerializer

    transfer_mechanism = forms.ChoiceField(
        choices=[
            ("", _("— recognised from the wording —")),
            *((c, c) for c in TRANSFER_SAFEGUARDS),
        ],
        required=False,
        label=_("transfer mechanism"),
        help_text=_(
            "Leave blank to recognise it from the wording (e.g. 'Standard Contractual"
            " Clauses', 'adequacy decision')."
        ),
    )

    class Meta:
        model = Vendor
        fields = sorted(services.VENDOR_FIELDS)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        wording_given = (cleaned.get("transfer_mechanism_wording") or "").strip()
        if wording_given and not cleaned.get("transfer_mechanism"):
            code = recognise_safeguard(wording_given)
            if code is None:
                self.add_error(
                    "transfer_mechanism_wording",
                    gettext(
                        "No transfer mechanism is recognised in this wording; choose its code."
                    ),
                )
            cleaned["transfer_mechanism"] = code or ""
        return cleaned


# The review's report page in the admin (reviews/admin.py), named by URL, not imported:
# the register does not depend on the reviews app.
DPA_REVIEW_PAGE = "admin:reviews_review_report"


def _links(rows: Any, url_name: str) -> str:
    items = [(reverse(url_name, args=[row.pk]), str(row)) for row in rows]
    if not items:
        return "—"
    return format_html("<ul class='register-links'>{}</ul>", format_html_join(
        "", "<li><a href='{}'>{}</a></li>", items
    ))  # fmt: skip


def _lines(texts: list[str]) -> str:
    if not texts:
        return "—"
    return format_html("<ul class='register-concepts'>{}</ul>", format_html_join(
        "", "<li>{}</li>", ((text,) for text in texts)
    ))  # fmt: skip


class RegisterEntryAdmin(OrganizationScopedAdmin, SimpleHistoryAdmin):
    """What the activity and vendor admins share: scoping, saving through the services."""

    form: type[RegisterEntryForm]
    readonly_fields: Any = ["revision", "created_at", "updated_at"]

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        form = super().get_form(request, obj, change=change, **kwargs)
        form.organization = obj.organization if obj is not None else admin_organization(request)
        return form

    def revert_disabled(self, request: HttpRequest, obj: Any = None) -> bool:
        return True

    def _data(self, form: forms.ModelForm) -> dict[str, Any]:
        # Every field: the service compares with the stored row and records what changed
        # (a form's changed_data misses values its clean() derives, e.g. a mechanism code).
        allowed = self.service_fields
        return {name: value for name, value in form.cleaned_data.items() if name in allowed}

    def _scoped_or_404(self, request: HttpRequest, object_id: str) -> None:
        # simple-history shows the historical rows of any id, even outside the queryset.
        if not self.get_queryset(request).filter(pk=object_id).exists():
            raise Http404(gettext("No such entry in your organization's register."))

    def history_view(
        self, request: HttpRequest, object_id: str, extra_context: dict | None = None
    ) -> HttpResponse:
        self._scoped_or_404(request, object_id)
        return super().history_view(request, object_id, extra_context)

    def history_form_view(
        self,
        request: HttpRequest,
        object_id: str,
        version_id: str,
        extra_context: dict | None = None,
    ) -> HttpResponse:
        self._scoped_or_404(request, object_id)
        if request.method != "GET":
            raise PermissionDenied(gettext("History is read-only."))
        return super().history_form_view(request, object_id, version_id, extra_context)

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        data = self._data(form)
        try:
            if change:
                saved = self.update(entry=obj, actor=admin_actor(request), data=data)
            else:  # the form refused an add without an organization (RegisterEntryForm)
                saved = self.create(
                    organization=form.organization, actor=admin_actor(request), data=data
                )
        except DomainError as error:
            report_domain_error(request, error)
            raise
        obj.pk, obj.organization_id, obj.revision = saved.pk, saved.organization_id, saved.revision

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        """Links were saved by the service (inside its transaction)."""

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        self.delete(entry=obj, actor=admin_actor(request))

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet) -> None:
        for entry in queryset:
            self.delete_model(request, entry)


@admin.register(ProcessingActivity)
class ProcessingActivityAdmin(RegisterEntryAdmin):
    form = ActivityForm
    service_fields = services.ACTIVITY_FIELDS
    list_display = [
        "name", "reference", "role", "owner", "legal_bases_display", "vendor_count",
        "dpia_required", "next_review_date", "revision", "updated_at",
    ]  # fmt: skip
    list_filter = ["role", "next_review_date", ("vendors", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["name", "reference", "description", "owner"]
    date_hierarchy = "next_review_date"
    list_per_page = 50
    filter_horizontal = ["vendors"]
    readonly_fields = [
        "revision", "vendor_links", "transfer_links", "category_concepts", "measure_concepts",
        "created_at", "updated_at",
    ]  # fmt: skip
    history_list_display = ["revision"]
    fieldsets = [
        (None, {"fields": ["name", "reference", "description", "owner", "role", "revision"]}),
        (_("Purposes and legal bases"), {"fields": [
            "purposes", "legal_bases", "consent_withdrawal",
        ]}),
        (_("Data"), {"fields": [
            "data_subjects", "data_categories", "special_categories", "category_concepts",
            "art9_conditions", "retention",
        ]}),
        (_("Recipients and vendors"), {"fields": [
            "vendors", "vendor_links", "recipients", "transfer_links", "joint_controllers",
        ]}),
        (_("Security, DPIA and review"), {"fields": [
            "security_measures", "measure_concepts", "systems", "dpia_screening",
            "next_review_date", "created_at", "updated_at",
        ]}),
    ]  # fmt: skip

    create = staticmethod(lambda **kw: services.activity_create(**kw))

    @staticmethod
    def update(*, entry: ProcessingActivity, **kwargs: Any) -> ProcessingActivity:
        return services.activity_update(activity=entry, **kwargs)

    @staticmethod
    def delete(*, entry: ProcessingActivity, **kwargs: Any) -> None:
        services.activity_delete(activity=entry, **kwargs)

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).annotate(vendor_total=Count("vendors", distinct=True))

    @admin.display(description=_("Legal bases"))
    def legal_bases_display(self, activity: ProcessingActivity) -> str:
        return "; ".join(wording(entry) for entry in activity.legal_bases) or "—"

    @admin.display(description=_("Vendors"), ordering="vendor_total")
    def vendor_count(self, activity: ProcessingActivity) -> int:
        return getattr(activity, "vendor_total", 0)

    @admin.display(description=_("DPIA required"), boolean=True)
    def dpia_required(self, activity: ProcessingActivity) -> bool:
        return dpia_screening(activity).required

    @admin.display(description=_("Data categories recognised as"))
    def category_concepts(self, activity: ProcessingActivity) -> str:
        shown = [
            *(category_recognised(entry) for entry in activity.data_categories or []),
            *(
                category_recognised(entry, declared_special=True)
                for entry in activity.special_categories or []
            ),
        ]
        return _lines(shown)

    @admin.display(description=_("Measures recognised as"))
    def measure_concepts(self, activity: ProcessingActivity) -> str:
        return _lines([measure_recognised(entry) for entry in activity.security_measures or []])

    @admin.display(description=_("Vendor pages"))
    def vendor_links(self, activity: ProcessingActivity) -> str:
        return _links(activity.vendors.all(), "admin:register_vendor_change")

    @admin.display(description=_("Transfers outside the EEA"))
    def transfer_links(self, activity: ProcessingActivity) -> str:
        return _links(activity.transfers.all(), "admin:register_transfer_change")


@admin.register(Vendor)
class VendorAdmin(RegisterEntryAdmin):
    form = VendorForm
    service_fields = services.VENDOR_FIELDS
    list_display = [
        "name", "reference", "country", "outside_eea", "role", "dpa_status", "dpa_signed_on",
        "transfer_mechanism", "dpa_review_result", "activity_count", "revision", "updated_at",
    ]  # fmt: skip
    list_filter = ["role", "dpa_status", "transfer_mechanism", "dpa_review_has_gaps", "country"]
    search_fields = ["name", "reference", "services", "address", "country"]
    list_per_page = 50
    readonly_fields = [
        "revision", "activity_links", "transfer_links", "dpa_review_result", "created_at",
        "updated_at",
    ]  # fmt: skip
    history_list_display = ["revision", "country", "dpa_status"]
    fields = [
        "name", "reference", "role", "services", "address", "country", "dpa_status",
        "dpa_signed_on", "dpa_review_result", "transfer_mechanism", "transfer_mechanism_wording",
        "sub_processors", "activity_links", "transfer_links", "revision", "created_at",
        "updated_at",
    ]  # fmt: skip

    create = staticmethod(lambda **kw: services.vendor_create(**kw))

    @staticmethod
    def update(*, entry: Vendor, **kwargs: Any) -> Vendor:
        return services.vendor_update(vendor=entry, **kwargs)

    @staticmethod
    def delete(*, entry: Vendor, **kwargs: Any) -> None:
        services.vendor_delete(vendor=entry, **kwargs)

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return (
            super()
            .get_queryset(request)
            .annotate(activity_total=Count("activities", distinct=True))
        )

    @admin.display(description=_("Outside the EEA"), boolean=True)
    def outside_eea(self, vendor: Vendor) -> bool:
        return bool(vendor.country) and not is_in_eea(vendor.country)

    @admin.display(description=_("Activities"), ordering="activity_total")
    def activity_count(self, vendor: Vendor) -> int:
        return getattr(vendor, "activity_total", 0)

    @admin.display(description=_("DPA review"), ordering="dpa_reviewed_at")
    def dpa_review_result(self, vendor: Vendor) -> str:
        """The last review of the vendor's DPA: gaps or none, the missing items, a link."""
        if vendor.dpa_review_id is None or vendor.dpa_reviewed_at is None:
            return "—"
        if not vendor.dpa_review_has_gaps:
            verdict = gettext("no gaps")
        elif vendor.dpa_review_missing_items:
            verdict = gettext("gaps; missing: %(items)s") % {
                "items": ", ".join(vendor.dpa_review_missing_items)
            }
        else:
            verdict = gettext("gaps (weak items)")
        try:
            url = reverse(DPA_REVIEW_PAGE, args=[vendor.dpa_review_id])
        except NoReverseMatch:  # the reviews app is not installed
            return verdict
        return format_html(
            '<a class="dpa-review" href="{}">{}</a> ({})',
            url,
            verdict,
            vendor.dpa_reviewed_at.strftime("%Y-%m-%d"),
        )

    @admin.display(description=_("Activity pages"))
    def activity_links(self, vendor: Vendor) -> str:
        return _links(vendor.activities.all(), "admin:register_processingactivity_change")

    @admin.display(description=_("Transfers outside the EEA"))
    def transfer_links(self, vendor: Vendor) -> str:
        return _links(vendor.transfers.all(), "admin:register_transfer_change")


@admin.register(Transfer)
class TransferAdmin(ReadOnlyAdminMixin, OrganizationScopedAdmin):
    """Read-only: the services derive transfers from vendors and recipients."""

    list_display = ["recipient", "country", "mechanism", "mechanism_wording", "activity", "vendor"]
    list_filter = ["mechanism", "country"]
    search_fields = ["recipient", "country", "mechanism_wording"]
    list_select_related = ["activity", "vendor"]
    readonly_fields = [field.name for field in Transfer._meta.fields]
