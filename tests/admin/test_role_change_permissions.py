"""A role change takes effect in the back office at once, on every path that changes a role.

The admin's permissions follow the member's current role (organizations/admin_permissions.py),
not the groups the member was put in when admin access was granted: a demoted organization
admin no longer mints keys (for other members too: that would be impersonation), revokes
keys or manages webhook endpoints, as the API already refuses; a promoted member gets them.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from organizations.models import ApiKey, Membership, Role
from tests.admin.conftest import StaffMember, staff
from tests.conftest import Caller, make_caller
from tests.factories import issue_key
from tests.support.second_factor import verified_login
from tests.webhooks.factories import WebhookEndpointFactory
from webhooks.models import WebhookEndpoint

pytestmark = pytest.mark.django_db


def change_role_in_the_admin(membership: Membership, role: str) -> None:
    """A superuser edits the membership's role on its change page."""
    superuser = get_user_model().objects.create_superuser(
        username="root@example.com", email="root@example.com", password="x"
    )
    client = Client()
    verified_login(client, superuser)
    response = client.post(
        reverse("admin:organizations_membership_change", args=[membership.pk]),
        {"user": membership.user_id, "organization": membership.organization_id, "role": role},
    )
    assert response.status_code == 302, response.content.decode()[:2000]


def change_role_with_the_command(membership: Membership, role: str) -> None:
    call_command(
        "create_api_key",
        "--org",
        membership.organization.slug,
        "--email",
        membership.user.email,
        "--role",
        role,
    )


def change_role_in_the_database(membership: Membership, role: str) -> None:
    """What any code path (a service, a shell, a future API) does: save the new role."""
    membership.role = role
    membership.save(update_fields=["role"])


CHANGES = [
    pytest.param(change_role_in_the_admin, id="admin"),
    pytest.param(change_role_with_the_command, id="create_api_key"),
    pytest.param(change_role_in_the_database, id="save"),
]


def can_mint_a_key_for(staff_member: StaffMember, other: Membership) -> bool:
    before = ApiKey.objects.filter(membership=other).count()
    staff_member.client.post(
        reverse("admin:organizations_apikey_add"), {"membership": other.pk, "name": "mine now"}
    )
    return ApiKey.objects.filter(membership=other).count() > before


def can_revoke_keys(staff_member: StaffMember) -> bool:
    keys = [str(pk) for pk in ApiKey.objects.values_list("pk", flat=True)]
    staff_member.client.post(
        reverse("admin:organizations_apikey_changelist"),
        {"action": "revoke_selected", "_selected_action": keys},
    )
    return ApiKey.objects.filter(revoked_at__isnull=False).exists()


def can_manage_webhooks(staff_member: StaffMember) -> bool:
    endpoint = WebhookEndpointFactory(organization=staff_member.organization)
    # Every role views endpoints (as in the API); adding and deleting are an admin's.
    pages = [
        reverse("admin:webhooks_webhookendpoint_add"),
        reverse("admin:webhooks_webhookendpoint_delete", args=[endpoint.pk]),
    ]
    statuses = {staff_member.client.get(page).status_code for page in pages}
    staff_member.client.post(pages[1], {"post": "yes"})
    deleted = not WebhookEndpoint.objects.filter(pk=endpoint.pk).exists()
    if statuses == {403} and not deleted:
        return False
    assert statuses == {200} and deleted, (statuses, deleted)
    return True


def the_api_lets_register_webhooks(caller: Caller) -> bool:
    response = caller.client.post(
        "/api/v1/webhooks",
        {"url": "https://receiver.example.com/hooks", "events": ["document.created"]},
        format="json",
    )
    return response.status_code == 201


@pytest.fixture
def colleague(dpo: Caller) -> Membership:
    """Another member of the organization, whose key an admin could mint."""
    issue_key(dpo.membership)
    return dpo.membership


@pytest.mark.parametrize("change_role", CHANGES)
def test_a_demoted_admin_loses_key_minting_key_revocation_and_webhooks_in_the_admin(
    dpo: Caller, colleague: Membership, change_role: Callable[[Membership, str], None]
):
    admin_caller = make_caller(Role.ADMIN, organization=dpo.organization)
    admin_staff = staff(admin_caller)
    assert can_manage_webhooks(admin_staff)  # an admin may, before the change

    change_role(admin_caller.membership, Role.DPO)

    assert not the_api_lets_register_webhooks(admin_caller)  # the API refuses ...
    assert not can_mint_a_key_for(admin_staff, colleague)  # ... and so does the admin
    assert not can_revoke_keys(admin_staff)
    assert not can_manage_webhooks(admin_staff)
    assert admin_staff.client.get(reverse("admin:organizations_apikey_add")).status_code == 403


@pytest.mark.parametrize("change_role", CHANGES)
def test_a_member_demoted_to_auditor_keeps_only_the_views(
    dpo: Caller, change_role: Callable[[Membership, str], None]
):
    admin_caller = make_caller(Role.ADMIN, organization=dpo.organization)
    admin_staff = staff(admin_caller)
    change_role(admin_caller.membership, Role.AUDITOR)
    client = admin_staff.client
    assert client.get(reverse("admin:legal_documents_legaldocument_changelist")).status_code == 200
    assert client.get(reverse("admin:assets_asset_add")).status_code == 403
    assert client.get(reverse("admin:webhooks_webhookendpoint_add")).status_code == 403


@pytest.mark.parametrize("change_role", CHANGES)
def test_a_promoted_dpo_gets_key_minting_and_webhooks_in_the_admin(
    dpo: Caller, colleague: Membership, change_role: Callable[[Membership, str], None]
):
    promoted = make_caller(Role.DPO, organization=dpo.organization)
    promoted_staff = staff(promoted)
    assert not can_manage_webhooks(promoted_staff)

    change_role(promoted.membership, Role.ADMIN)

    assert can_manage_webhooks(promoted_staff)
    assert can_mint_a_key_for(promoted_staff, colleague)
    assert can_revoke_keys(promoted_staff)


def test_a_member_whose_admin_access_was_revoked_gets_nothing_back_by_a_role_change(
    dpo: Caller,
):
    member = make_caller(Role.DPO, organization=dpo.organization)
    member_staff = staff(member)
    call_command("grant_admin_access", "--email", member.membership.user.email, "--revoke")
    change_role_in_the_database(member.membership, Role.ADMIN)
    response = member_staff.client.get(reverse("admin:organizations_apikey_add"))
    assert response.status_code == 302  # to the login page: no staff status, no admin
