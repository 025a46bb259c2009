"""Roles: every member reads; admins and DPOs write; auditors never write."""

from __future__ import annotations

from django.conf import settings
from rest_framework import exceptions, permissions
from rest_framework.request import Request

from audit.models import Outcome
from audit.services import record_event
from common import throttling
from organizations.access import request_actor, request_membership
from organizations.models import Role


class IsOrganizationMember(permissions.BasePermission):
    """Authenticated, member of an organization, and allowed to write when writing."""

    def has_permission(self, request: Request, view: object) -> bool:
        if request.user is None or not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        membership = request_membership(request)
        if membership is None:
            raise exceptions.PermissionDenied("Your account is not a member of an organization.")
        allowed_roles = getattr(view, "allowed_roles", None)
        if allowed_roles is not None and membership.role not in allowed_roles:
            self._deny(request, view, f"role {membership.role} may not use this endpoint")
        if request.method not in permissions.SAFE_METHODS and not membership.can_write:
            self._deny(request, view, "auditors have read-only access")
        return True

    @staticmethod
    def _deny(request: Request, view: object, reason: str) -> None:
        """Audit the denial and answer 403; past PERMISSION_DENIALS_PER_MINUTE denials of
        one user, 429 without auditing (permissions are checked before the view's throttles,
        so a denied request would otherwise cost an audit append with no limit)."""
        _refuse_repeated_denials(request)
        membership = request_membership(request)
        record_event(
            organization=membership.organization if membership else None,
            actor=request_actor(request),
            action=f"{getattr(view, 'audit_object_type', 'api') or 'api'}.{request.method.lower()}",
            outcome=Outcome.DENIED,
            object_type=getattr(view, "audit_object_type", "") or "",
            object_id=(getattr(view, "kwargs", {}) or {}).get("pk", ""),
            details={"reason": reason, "path": request.path},
        )
        raise exceptions.PermissionDenied(f"Permission denied: {reason}.")


def _refuse_repeated_denials(request: Request) -> None:
    try:
        allowed, wait = throttling.hit(
            name=f"permission-denials:{request.user.pk}",
            rate=f"{settings.PERMISSION_DENIALS_PER_MINUTE}/min",
        )
    except Exception:  # the view's own throttles report an unavailable cache
        return
    if not allowed:
        raise exceptions.Throttled(wait=wait, detail="Too many refused requests.")


ADMIN_AND_AUDITOR = frozenset({Role.ADMIN, Role.AUDITOR})
ADMIN_ONLY = frozenset({Role.ADMIN})
