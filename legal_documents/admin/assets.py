"""Asset search in the admin: the organization's uploaded sources, found by meaning.

Uploading is the Asset admin's own add form (assets/admin.py); this page searches with the
API's selector (`asset_search`), which never returns another organization's chunks, and is
audited like the API's search (`asset.search`).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext, gettext_lazy

from assets.selectors import asset_search
from audit.services import record_event
from common.admin_errors import admin_message
from common.domain import DomainError
from organizations.admin_scoping import admin_actor, admin_organization

RESULTS = 10


class AssetSearchForm(forms.Form):
    q = forms.CharField(max_length=2000, label=gettext_lazy("Search your assets"), strip=True)


def asset_search_view(model_admin: Any, request: HttpRequest) -> HttpResponse:
    """GET ?q=...: the closest chunks of the member's organization's processed assets."""
    organization = admin_organization(request)
    if organization is None or not request.user.has_perm("assets.view_asset"):
        raise PermissionDenied
    form = AssetSearchForm(request.GET or None)
    hits: list[Any] = []
    error = ""
    if form.is_valid():
        try:
            hits = asset_search(organization=organization, query=form.cleaned_data["q"], k=RESULTS)
        except DomainError as failure:
            error = admin_message(failure)
        record_event(
            organization=organization,
            actor=admin_actor(request),
            action="asset.search",
            object_type="asset",
            details={"k": RESULTS, "results": len(hits), "via": "admin"},
        )
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.model._meta,
        "title": gettext("Search assets"),
        "form": form,
        "hits": hits,
        "error": error,
    }
    return TemplateResponse(request, "admin/legal_documents/asset_search.html", context)
