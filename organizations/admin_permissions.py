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
from django.db.models import Exists, Q, QuerySet

from organizations.admin_access import ADMIN_GROUPS, ROLE_GROUPS
from organizations.models import Membership


def role_groups(*, user: Any) -> Q:
    """The admin groups of the user's current role, as a condition on groups (one lazy query,
    no database access here); none without staff status."""
    if not user.is_staff:
        return Q(pk__in=[])
    of_role = Q(pk__in=[])
    for role, names in ROLE_GROUPS.items():
        member_in_role = Exists(Membership.objects.filter(user=user, role=role))
        of_role |= Q(name__in=names) & Q(member_in_role)
    return of_role


class RolePermissionBackend(ModelBackend):
    """Django's model backend, with the admin groups taken from the role instead of the user.

    Django caches the result on the user object, which lives for one request.
    """

    def _get_group_permissions(self, user_obj: Any) -> QuerySet[Permission]:
        groups = Group.objects.filter(
            (Q(user=user_obj) & ~Q(name__in=ADMIN_GROUPS)) | role_groups(user=user_obj)
        )
        return Permission.objects.filter(group__in=groups)
