"""The reminders in the admin: each member's own preferences, and the organization's outbox.

Every member, whatever the role (auditors too: a reminder only tells), sees and edits their
own preferences and nobody else's, and reads the reminders sent in their organization. So
these pages answer to a membership, not to the role groups' model permissions.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.forms import ModelForm
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import get_language

from organizations.admin_scoping import (
    OrganizationScopedAdmin,
    admin_membership,
)
from reminders.models import REMINDER_LANGUAGES, ReminderPreference, SentReminder

ADMIN_LANGUAGES = {code for code, _name in REMINDER_LANGUAGES}


def _is_member(request: HttpRequest) -> bool:
    return request.user.is_active and (
        request.user.is_superuser or admin_membership(request) is not None
    )


@admin.register(ReminderPreference)
class ReminderPreferenceAdmin(admin.ModelAdmin):
    """The member's own preferences: one row, opened directly from the list's link."""

    fields = ["breach", "request", "dpia_review", "stale_documents", "vendor_dpas", "language"]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).filter(user=request.user)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return _is_member(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _is_member(request) and (obj is None or obj.user_id == request.user.pk)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return (
            _is_member(request)
            and not ReminderPreference.objects.filter(user=request.user).exists()
        )

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_view_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        # A member's first preferences start in the language they use the admin in.
        language = (get_language() or "en").split("-")[0]
        return {"language": language if language in ADMIN_LANGUAGES else "en"}

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> HttpResponse:
        """Straight to the member's own preferences (the add form the first time)."""
        if request.method != "GET" or not _is_member(request):
            return super().changelist_view(request, extra_context)
        own = ReminderPreference.objects.filter(user=request.user).first()
        if own is None:
            return HttpResponseRedirect(reverse("admin:reminders_reminderpreference_add"))
        return HttpResponseRedirect(
            reverse("admin:reminders_reminderpreference_change", args=[own.pk])
        )

    def save_model(self, request: HttpRequest, obj: Any, form: ModelForm, change: bool) -> None:
        obj.user = request.user
        super().save_model(request, obj, form, change)

    def response_post_save_add(self, request: HttpRequest, obj: Any) -> HttpResponseRedirect:
        return HttpResponseRedirect(reverse("admin:index"))

    def response_post_save_change(self, request: HttpRequest, obj: Any) -> HttpResponseRedirect:
        return HttpResponseRedirect(reverse("admin:index"))


@admin.register(SentReminder)
class SentReminderAdmin(OrganizationScopedAdmin):
    """The organization's outbox: every reminder as it was mailed (read only)."""

    list_display = ["sent_at", "kind", "recipient", "subject", "deadline", "due_date", "language"]
    list_filter = ["kind", "language"]
    search_fields = ["subject", "recipient"]
    date_hierarchy = "sent_at"
    fields = [
        "sent_at", "kind", "recipient", "language", "deadline", "due_date", "subject", "body",
        "subject_id", "occurrence",
    ]  # fmt: skip
    readonly_fields = fields

    def has_module_permission(self, request: HttpRequest) -> bool:
        return _is_member(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _is_member(request)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
