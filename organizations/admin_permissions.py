"""The admin's permissions come from the member's current role, read when they are checked.

The admin groups (organizations/auditors.py) say what each role may do; which of them apply
to a user is decided here, from `Membership.role`, on every request, not from the groups the
user was put in when admin access was granted. A role changed by any path (the admin's
membership page, `create_api_key --role`, a shell, a later API) therefore takes effect on the
user's next admin request, as it does in the API: a demoted organization admin no longer
mints or revokes keys or manages webhook endpoints, a promoted member gets them.

Staff status is still the grant (`grant_admin_access`; revoking removes it and the admin is
closed to the user). Groups other than the admin groups (made by hand by a superuser) keep
their usual meaning; superusers keep every permission.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import Group, Permission
from django.db.models import Q, QuerySet

from organizations.admin_access import ADMIN_GROUPS, ROLE_GROUPS
from organizations.models import Membership


def role_groups(*, user: Any) -> tuple[str, ...]:
    """The admin groups of the user's current role; none without staff status or membership."""
    if not user.is_staff:
        return ()
    role = Membership.objects.filter(user=user).values_list("role", flat=True).first()
    return ROLE_GROUPS.get(role, ()) if role else ()


class RolePermissionBackend(ModelBackend):
    """Django's model backend, with the admin groups taken from the role instead of the user.

    Django caches the result on the user object, which lives for one request.
    """

    def _get_group_permissions(self, user_obj: Any) -> QuerySet[Permission]:
        groups = Group.objects.filter(
            (Q(user=user_obj) & ~Q(name__in=ADMIN_GROUPS)) | Q(name__in=role_groups(user=user_obj))
        )
        return Permission.objects.filter(group__in=groups)
