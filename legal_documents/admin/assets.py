"""Asset search in the admin: the organization's uploaded sources, found by meaning.

Uploading is the Asset admin's own add form (assets/admin.py); this page searches with the
API's selector (`asset_search`), which never returns another organization's chunks, and is
audited like the API's search (`asset.search`). The API's limits hold here too: the same
query length, the first SEARCH_MAX_TERMS words and the statement timeout (in the selector),
and the member's search budget (RATE_LIMIT_SEARCH, shared with the API).
"""

from __future__ import annotations

from typing import Any

import redis.exceptions
from django import forms
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext, gettext_lazy

from assets.selectors import MAX_QUERY_CHARACTERS, asset_search
from audit.services import record_event
from common.admin_errors import admin_message
from common.domain import DomainError
from common.errors import describe
from common.throttling import search_hit
from organizations.admin_scoping import admin_actor, admin_organization

RESULTS = 10


class AssetSearchForm(forms.Form):
    q = forms.CharField(
        max_length=MAX_QUERY_CHARACTERS, label=gettext_lazy("Search your assets"), strip=True
    )


def asset_search_view(model_admin: Any, request: HttpRequest) -> HttpResponse:
    """GET ?q=...: the closest chunks of the member's organization's processed assets."""
    organization = admin_organization(request)
    if organization is None or not request.user.has_perm("assets.view_asset"):
        raise PermissionDenied
    form = AssetSearchForm(request.GET or None)
    hits: list[Any] = []
    error = ""
    status = 200
    if form.is_valid():
        error, status = _refusal(request)
    if form.is_valid() and not error:
        try:
            hits = asset_search(organization=organization, query=form.cleaned_data["q"], k=RESULTS)
        except DomainError as failure:
            error, status = admin_message(failure), describe(failure).status
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
    return TemplateResponse(
        request, "admin/legal_documents/asset_search.html", context, status=status
    )


def _refusal(request: HttpRequest) -> tuple[str, int]:
    """Why the member may not search now, with the page's status; ("", 200) if they may."""
    try:
        allowed, wait = search_hit(user_id=request.user.pk)
    except redis.exceptions.RedisError:
        # As the API's throttles: no budget can be counted, so none is granted.
        return gettext("A service is unavailable; retry shortly"), 503
    if allowed:
        return "", 200
    message = gettext("Too many searches for now; retry in %(seconds)s s.")
    return message % {"seconds": wait}, 429
