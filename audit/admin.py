from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from audit.models import AuditEvent
from organizations.admin_scoping import OrganizationScopedAdmin


@admin.register(AuditEvent)
class AuditEventAdmin(OrganizationScopedAdmin):
    """Read-only for everybody, superusers included: the trail is append-only."""

    list_display = ["at", "actor", "action", "object_type", "object_id", "outcome", "ip"]
    list_filter = ["outcome", "action", "object_type"]
    search_fields = ["actor", "object_id", "action"]
    date_hierarchy = "at"
    list_select_related = ["organization"]
    readonly_fields = [field.name for field in AuditEvent._meta.fields]

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
