"""Granting and revoking access to the admin back-office (services; see `grant_admin_access`).

Members are created without admin access (`member_create`, `create_api_key --create`): the
API needs none. Access is granted on purpose: staff status plus the group of the member's
role, whose permissions decide the models and buttons they get. Which groups' permissions
apply is read from the member's current role at check time (organizations/admin_permissions.py),
so a role changed later takes effect in the admin at once; the user's groups only mirror it.
"""

from __future__ import annotations

from django.contrib.auth.models import Group
from django.db import transaction

from audit.services import Actor, record_event
from organizations.auditors import (
    AUDITORS_GROUP,
    DPOS_GROUP,
    ORGANIZATION_ADMINS_GROUP,
    sync_admin_groups,
)
from organizations.models import Membership, Role

ROLE_GROUPS: dict[str, tuple[str, ...]] = {
    Role.AUDITOR: (AUDITORS_GROUP,),
    Role.DPO: (DPOS_GROUP,),
    Role.ADMIN: (DPOS_GROUP, ORGANIZATION_ADMINS_GROUP),
}
ADMIN_GROUPS = (AUDITORS_GROUP, DPOS_GROUP, ORGANIZATION_ADMINS_GROUP)


def _set_admin_groups(membership: Membership, names: tuple[str, ...]) -> None:
    user = membership.user
    user.groups.remove(*Group.objects.filter(name__in=ADMIN_GROUPS).exclude(name__in=names))
    user.groups.add(*Group.objects.filter(name__in=names))


@transaction.atomic
def admin_access_grant(*, membership: Membership, actor: Actor) -> tuple[str, ...]:
    """Make the member staff, in exactly the admin group(s) of their role; returns the groups.

    Re-running it after a role change moves the member to the new role's groups. Audited as
    `member.admin_access` in the member's organization.
    """
    if Group.objects.filter(name__in=ADMIN_GROUPS).count() != len(ADMIN_GROUPS):
        sync_admin_groups()
    names = ROLE_GROUPS[membership.role]
    user = membership.user
    if not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])
    _set_admin_groups(membership, names)
    record_event(
        organization=membership.organization,
        actor=actor,
        action="member.admin_access",
        object_type="membership",
        object_id=membership.pk,
        details={"granted": True, "groups": list(names), "member": user.email},
    )
    return names


@transaction.atomic
def admin_access_revoke(*, membership: Membership, actor: Actor) -> None:
    """Remove staff status and the admin groups (the API key access is left as it is)."""
    user = membership.user
    user.is_staff = False
    user.save(update_fields=["is_staff"])
    _set_admin_groups(membership, ())
    record_event(
        organization=membership.organization,
        actor=actor,
        action="member.admin_access",
        object_type="membership",
        object_id=membership.pk,
        details={"granted": False, "groups": [], "member": user.email},
    )
