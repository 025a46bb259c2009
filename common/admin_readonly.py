"""The read-only admin: rows that services write (audit events, deliveries, transfers,
versions, packages, chunks) are looked at in the admin, never added, changed or deleted there.

Put it before the admin base in the bases (`class X(ReadOnlyAdminMixin, OrganizationScopedAdmin)`)
so that its answers win over the base's permission checks.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest


class ReadOnlyAdminMixin:
    """Viewing only. `deletable = True` keeps the base's delete permission (for rows that may
    be removed by hand but never written)."""

    deletable = False

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if self.deletable:
            return bool(super().has_delete_permission(request, obj))  # type: ignore[misc]
        return False
