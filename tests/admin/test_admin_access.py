"""Admin access is granted on purpose, by role; the groups carry the right permissions."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from audit.models import AuditEvent
from organizations.auditors import AUDITORS_GROUP, DPOS_GROUP, ORGANIZATION_ADMINS_GROUP
from organizations.models import Role
from organizations.services import member_create
from tests.factories import OrganizationFactory

pytestmark = pytest.mark.django_db


def test_a_new_member_has_no_admin_access_until_granted(db):
    membership = member_create(organization=OrganizationFactory(), email="new@example.com")
    assert not membership.user.is_staff
    assert not membership.user.groups.exists()


@pytest.mark.parametrize(
    ("role", "groups"),
    [
        (Role.DPO, {DPOS_GROUP}),
        (Role.ADMIN, {DPOS_GROUP, ORGANIZATION_ADMINS_GROUP}),
        (Role.AUDITOR, {AUDITORS_GROUP}),
    ],
)
def test_grant_admin_access_makes_the_member_staff_in_the_groups_of_their_role(role, groups):
    membership = member_create(
        organization=OrganizationFactory(), email="member@example.com", role=role
    )
    call_command("grant_admin_access", "--email", "Member@Example.com")
    membership.user.refresh_from_db()
    assert membership.user.is_staff
    assert set(membership.user.groups.values_list("name", flat=True)) == groups
    assert AuditEvent.objects.filter(action="member.admin_access").exists()


def test_a_role_change_moves_the_member_to_the_new_roles_group_and_revoke_removes_all():
    membership = member_create(organization=OrganizationFactory(), email="m@example.com")
    call_command("grant_admin_access", "--email", "m@example.com")
    membership.role = Role.AUDITOR
    membership.save()
    call_command("grant_admin_access", "--email", "m@example.com")
    assert list(membership.user.groups.values_list("name", flat=True)) == [AUDITORS_GROUP]
    call_command("grant_admin_access", "--email", "m@example.com", "--revoke")
    membership.user.refresh_from_db()
    assert not membership.user.is_staff
    assert not membership.user.groups.exists()


def test_grant_admin_access_refuses_an_unknown_email(db):
    with pytest.raises(CommandError, match="No member"):
        call_command("grant_admin_access", "--email", "nobody@example.com")


def test_the_groups_hold_view_permissions_and_only_dpos_may_run_the_flow(db):
    def codenames(name: str) -> set[str]:
        return set(Group.objects.get(name=name).permissions.values_list("codename", flat=True))

    auditors, dpos = codenames(AUDITORS_GROUP), codenames(DPOS_GROUP)
    assert {"view_legaldocument", "view_auditevent", "view_documentationpackage"} <= auditors
    assert all(codename.startswith("view_") for codename in auditors)
    assert {"add_legaldocument", "change_legaldocument", "add_asset"} <= dpos
    assert "delete_legaldocument" not in dpos
    assert "add_webhookendpoint" in codenames(ORGANIZATION_ADMINS_GROUP)


def test_a_dpo_with_admin_access_sees_the_documents_models_on_the_admin_index(dpo):
    call_command("grant_admin_access", "--email", dpo.membership.user.email)
    client = Client()
    client.force_login(dpo.membership.user)
    html = client.get(reverse("admin:index")).content.decode()
    assert "/admin/legal_documents/legaldocument/" in html
    assert "/admin/audit/auditevent/" in html
    assert "/admin/auth/user/" not in html
