"""The register import in the admin: upload -> the plan (a dry run) -> confirm -> applied.

The same service as the API (register.importing.import_register). Between the preview and
the confirmation the uploaded bytes wait in the cache under a random token bound to the
staff user (PREVIEW_SECONDS), so the confirmation applies exactly the file that was
previewed; the plan is made again when applying, from the register as it is then.
Served at admin/register/processingactivity/import/ (config/urls.py), linked from the
ProcessingActivity changelist (templates/admin/register/processingactivity/change_list.html).
"""

from __future__ import annotations

import secrets
from typing import Any

from django import forms
from django.contrib import admin
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from common.domain import DomainError
from organizations.admin_scoping import admin_actor, admin_membership
from register.importing import MAX_FILE_BYTES, ImportPlan, import_register
from register.models import ProcessingActivity

PREVIEW_SECONDS = 30 * 60
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
        widget=forms.ClearableFileInput(attrs={"accept": ".xlsx,.csv,text/csv"}),
    )


def _cache_key(request: HttpRequest, token: str) -> str:
    return f"register-import:{request.user.pk}:{token}"


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
    """GET: the upload form. POST file: the preview. POST token: apply the previewed file."""
    membership = admin_membership(request)
    if membership is None or not membership.can_write:
        raise PermissionDenied(gettext("Only members who may write can import a register."))
    context: dict[str, Any] = {
        **admin.site.each_context(request),
        "opts": ProcessingActivity._meta,
        "title": gettext("Import a register of processing activities"),
        "max_bytes": MAX_FILE_BYTES,
        "changelist_url": _changelist_url(),
    }
    form = RegisterUploadForm()
    if request.method == "POST" and request.POST.get("token"):
        context.update(_apply(request, request.POST["token"]))
    elif request.method == "POST":
        form = RegisterUploadForm(request.POST, request.FILES)
        if form.is_valid():
            context.update(_preview(request, form.cleaned_data["file"]))
    context["form"] = form
    return TemplateResponse(request, TEMPLATE, context)


def _run(
    request: HttpRequest, *, content: bytes, file_name: str, dry_run: bool
) -> ImportPlan | dict[str, Any]:
    membership = admin_membership(request)
    assert membership is not None  # checked by the view
    try:
        return import_register(
            organization=membership.organization,
            content=content,
            file_name=file_name,
            actor=admin_actor(request),
            dry_run=dry_run,
        )
    except DomainError as failure:
        return {"error": failure.message, "error_details": failure.details}


def _plan_context(plan: ImportPlan) -> dict[str, Any]:
    rows = [row.as_dict() for row in plan.rows]
    for row in rows:
        row["link"] = _entry_link(row)
        row["entity_label"] = ENTITY_LABELS.get(row["entity"], row["entity"])
        row["action_label"] = ACTION_LABELS.get(row["action"], row["action"])
    sheets = [layout.as_dict() for layout in plan.layouts]
    for sheet in sheets:
        sheet["kind_label"] = SHEET_KIND_LABELS.get(str(sheet["kind"]), sheet["kind"])
    return {
        "rows": rows,
        "totals": plan.totals(),
        "sheets": sheets,
        "ignored_sheets": plan.ignored_sheets,
    }


def _preview(request: HttpRequest, uploaded: Any) -> dict[str, Any]:
    if uploaded.size > MAX_FILE_BYTES:
        return {
            "error": gettext("A register import takes at most %(max_bytes)s bytes.")
            % {"max_bytes": f"{MAX_FILE_BYTES:,}"}
        }
    content = uploaded.read()
    file_name = uploaded.name or "register"
    result = _run(request, content=content, file_name=file_name, dry_run=True)
    if isinstance(result, dict):
        return result
    token = secrets.token_urlsafe(24)
    cache.set(_cache_key(request, token), (file_name, content), PREVIEW_SECONDS)
    return {
        **_plan_context(result),
        "stage": "preview",
        "token": token,
        "file_name": file_name,
        "writes": result.writes,
    }


def _apply(request: HttpRequest, token: str) -> dict[str, Any]:
    stored = cache.get(_cache_key(request, token))
    if stored is None:
        return {
            "error": gettext(
                "The preview has expired or was already applied: upload the file again."
            )
        }
    cache.delete(_cache_key(request, token))
    file_name, content = stored
    result = _run(request, content=content, file_name=file_name, dry_run=False)
    if isinstance(result, dict):
        return result
    return {**_plan_context(result), "stage": "applied", "file_name": file_name}
