"""The admin's action that closes a document's clock: a breach notified, a request answered.

Its own mixin beside the flow's, so that the document admin gains the action without its
action list changing (legal_documents.services.closing says what closing means).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext, gettext_lazy, ngettext

from legal_documents.services.closing import CLOSING_INPUTS, legal_document_close_clock
from organizations.admin_scoping import admin_actor, is_auditor


@admin.action(
    description=gettext_lazy(
        "Mark as done: breach notified to the authority, request answered (stops reminders)"
    ),
    permissions=["close_clock"],
)
def close_clocks(model_admin: Any, request: HttpRequest, queryset: QuerySet) -> None:
    closed = 0
    # Ids only: the list's queryset selects related rows that a narrowed query cannot load.
    selected = list(queryset.values_list("pk", "organization_id", "document_type"))
    for document_id, organization_id, document_type in selected:
        if document_type not in CLOSING_INPUTS:
            continue
        legal_document_close_clock(
            document_id=document_id, organization_id=organization_id, actor=admin_actor(request)
        )
        closed += 1
    skipped = len(selected) - closed
    if closed:
        model_admin.message_user(
            request,
            ngettext(
                "%(count)d document marked as done.", "%(count)d documents marked as done.", closed
            )
            % {"count": closed},
        )
    if skipped:
        model_admin.message_user(
            request,
            gettext(
                "Only breach notifications and data subject request forms can be marked as done."
            ),
            level=messages.WARNING,
        )


class ClockClosingAdminMixin:
    """Adds `close_clocks` to the document admin's actions, for members who may write."""

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)  # type: ignore[misc]
        if self.has_close_clock_permission(request):
            actions["close_clocks"] = (close_clocks, "close_clocks", close_clocks.short_description)
        return actions

    def has_close_clock_permission(self, request: HttpRequest) -> bool:
        return not is_auditor(request) and request.user.has_perm(
            "legal_documents.change_legaldocument"
        )
