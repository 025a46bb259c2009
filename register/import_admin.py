"""The register import in the admin: upload -> the plan (a dry run) -> confirm -> applied.

The same jobs as the API (register.importing.jobs), with the same limits: the upload is a
dry-run import run by a worker (the page shows it running and refreshes itself until it is
done), its plan is the preview, stored on the import row (bounded, and pruned like every
import). Its file waits in the storage for the confirmation (REGISTER_IMPORT_PREVIEW_
SECONDS); confirming starts a second import of exactly that file, for the staff member who
previewed it only, and the plan is made again from the register as it is then.
Served at admin/register/processingactivity/import/ (config/urls.py), linked from the
ProcessingActivity changelist (templates/admin/register/processingactivity/change_list.html).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from common.domain import DomainError
from organizations.admin_scoping import admin_actor, admin_membership
from register.importing import jobs
from register.models import ImportStatus, ProcessingActivity, RegisterImport

# Seconds between two looks of the page while the import runs (a meta refresh: no script).
REFRESH_SECONDS = 2
TEMPLATE = "admin/register/processingactivity/import.html"
# The plan's codes (the API's words) as the admin shows them, in the user's language.
ENTITY_LABELS = {"activity": _("processing activity"), "vendor": _("vendor")}
SHEET_KIND_LABELS = {"activities": _("processing activities"), "vendors": _("vendors")}
ACTION_LABELS = {
    "created": pgettext_lazy("register import row", "created"),
    "updated": pgettext_lazy("register import row", "updated"),
    "unchanged": pgettext_lazy("register import row", "unchanged"),
    "skipped": pgettext_lazy("register import row", "skipped"),
}


class RegisterUploadForm(forms.Form):
    file = forms.FileField(
        label=_("Register (XLSX or CSV)"),
        help_text=_("Columns are recognised by their headers in English, German or French."),
        widget=forms.ClearableFileInput(attrs={"accept": ".xlsx,.ods,.csv,text/csv"}),
    )


def _entry_link(row: dict[str, Any]) -> str:
    if not row["id"]:
        return ""
    model = "processingactivity" if row["entity"] == "activity" else "vendor"
    try:
        return reverse(f"admin:register_{model}_change", args=[row["id"]])
    except NoReverseMatch:  # the model has no admin page
        return ""


def _changelist_url() -> str:
    try:
        return reverse("admin:register_processingactivity_changelist")
    except NoReverseMatch:  # no ModelAdmin for activities
        return ""


def register_import_admin_view(request: HttpRequest) -> HttpResponse:
    """GET: the upload form, or an import (`?import=ID`). POST file: start the preview.
    POST confirm: apply the previewed file."""
    membership = admin_membership(request)
    if membership is None or not membership.can_write:
        raise PermissionDenied(gettext("Only members who may write can import a register."))
    context: dict[str, Any] = {
        **admin.site.each_context(request),
        "opts": ProcessingActivity._meta,
        "title": gettext("Import a register of processing activities"),
        "max_bytes": settings.REGISTER_IMPORT_MAX_BYTES,
        "changelist_url": _changelist_url(),
    }
    form = RegisterUploadForm()
    if request.method == "POST" and request.POST.get("confirm"):
        outcome = _confirm(request, request.POST["confirm"])
        if isinstance(outcome, RegisterImport):
            return _show(outcome)
        context.update(outcome)
    elif request.method == "POST":
        form = RegisterUploadForm(request.POST, request.FILES)
        if form.is_valid():
            outcome = _preview(request, form.cleaned_data["file"])
            if isinstance(outcome, RegisterImport):
                return _show(outcome)
            context.update(outcome)
    elif request.GET.get("import"):
        context.update(_import_context(request, request.GET["import"]))
    context["form"] = form
    return TemplateResponse(request, TEMPLATE, context)


def _show(register_import: RegisterImport) -> HttpResponse:
    return HttpResponseRedirect(f"?import={register_import.pk}")


def _own_import(request: HttpRequest, import_id: str) -> RegisterImport | None:
    """The import if the staff member started it in their organization (else None)."""
    membership = admin_membership(request)
    assert membership is not None  # checked by the view
    try:
        return RegisterImport.objects.filter(
            pk=import_id, organization=membership.organization, user_id=request.user.pk
        ).first()
    except (ValueError, DjangoValidationError):  # not an id
        return None


def _preview(request: HttpRequest, uploaded: Any) -> RegisterImport | dict[str, Any]:
    limit = settings.REGISTER_IMPORT_MAX_BYTES
    if uploaded.size > limit:
        return {
            "error": gettext("A register import takes at most %(max_bytes)s bytes.")
            % {"max_bytes": f"{limit:,}"}
        }
    membership = admin_membership(request)
    assert membership is not None  # checked by the view
    try:
        return jobs.start_import(
            organization=membership.organization,
            actor=admin_actor(request),
            file_name=uploaded.name or "register",
            content=uploaded,
            file_size=uploaded.size,
            dry_run=True,
            via="admin",
            keep_file=True,
        )
    except DomainError as refusal:
        return {"error": refusal.message}


def _confirm(request: HttpRequest, import_id: str) -> RegisterImport | dict[str, Any]:
    preview = _own_import(request, import_id)
    try:
        applied = (
            jobs.confirm_preview(preview=preview, actor=admin_actor(request)) if preview else None
        )
    except DomainError as refusal:
        return {"error": refusal.message}
    if applied is None:
        return {
            "error": gettext(
                "The preview has expired or was already applied: upload the file again."
            )
        }
    return applied


def _import_context(request: HttpRequest, import_id: str) -> dict[str, Any]:
    register_import = _own_import(request, import_id)
    if register_import is None:
        return {
            "error": gettext(
                "The preview has expired or was already applied: upload the file again."
            )
        }
    context: dict[str, Any] = {"file_name": register_import.file_name}
    if not register_import.finished:
        return {**context, "stage": "running", "refresh_seconds": REFRESH_SECONDS}
    if register_import.status == ImportStatus.FAILED:
        return {
            **context,
            "error": register_import.error_message,
            "error_details": register_import.error_details or {},
        }
    result = register_import.result or {}
    context.update(_plan_context(result))
    if not register_import.dry_run:
        return {**context, "stage": "applied"}
    totals = result.get("totals") or {}
    return {
        **context,
        "stage": "preview",
        "token": str(register_import.pk),
        "writes": bool(totals.get("created") or totals.get("updated")),
    }


def _plan_context(result: dict[str, Any]) -> dict[str, Any]:
    rows = [dict(row) for row in result.get("rows") or []]
    for row in rows:
        row["link"] = _entry_link(row)
        row["entity_label"] = ENTITY_LABELS.get(row["entity"], row["entity"])
        row["action_label"] = ACTION_LABELS.get(row["action"], row["action"])
    sheets = [dict(sheet) for sheet in result.get("sheets") or []]
    for sheet in sheets:
        sheet["kind_label"] = SHEET_KIND_LABELS.get(str(sheet["kind"]), sheet["kind"])
    return {
        "rows": rows,
        "omitted_rows": result.get("omittedRows") or 0,
        "totals": result.get("totals") or {},
        "sheets": sheets,
        "ignored_sheets": result.get("ignoredSheets") or [],
    }
