"""The admin's second factor: who must give one, every admin page closed until it is given,
enrolment, recovery codes (each once), limits on wrong codes, the audited reset, and the API."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from django.contrib import admin
from django.core.exceptions import ImproperlyConfigured
from django.test import Client
from django.urls import URLPattern, URLResolver, reverse
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice
from rest_framework.test import APIClient

from audit.models import AuditEvent
from organizations import second_factor
from organizations.models import Role
from tests.admin.conftest import staff
from tests.conftest import make_caller
from tests.factories import UserFactory
from tests.support.second_factor import device_code, enrolled_device, verified_login

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"  # the factories' password
VERIFY = reverse("admin:second_factor_verify")
ENROL = reverse("admin:second_factor")
# The pages a password-only session may open: the two steps, and the way out.
OPEN_PAGES = {"login", "logout", "second_factor", "second_factor_verify"}


def password_login(user: Any) -> Client:
    """A client that gave the right password through the login form, nothing more."""
    client = Client()
    response = client.post(
        reverse("admin:login"), {"username": user.username, "password": PASSWORD}
    )
    assert response.status_code == 302, response.content.decode()
    return client


def shown_codes(response: Any) -> list[str]:
    """The recovery codes a page shows."""
    return re.findall(r"<li><code>([a-z2-7]{8})</code></li>", response.content.decode())


def admin_member(role: str = Role.ADMIN) -> Any:
    """A member of `role` with admin access, not logged in."""
    member = staff(make_caller(role))
    return member.membership


def _sample(converter: Any) -> str:
    name = type(converter).__name__
    if name == "IntConverter":
        return "1"
    if name == "UUIDConverter":
        return str(uuid.uuid4())
    return "1"


def _walk(patterns: list[Any], prefix: str = "") -> list[str]:
    """Every named page of the admin site, as a path with made-up ids (the site refuses before
    it looks anything up)."""
    paths: list[str] = []
    for pattern in patterns:
        route = str(pattern.pattern)
        if hasattr(pattern.pattern, "converters"):
            for name, converter in pattern.pattern.converters.items():
                route = re.sub(rf"<(\w+:)?{name}>", _sample(converter), route)
        if isinstance(pattern, URLResolver):
            paths += _walk(pattern.url_patterns, prefix + route)
        elif isinstance(pattern, URLPattern) and pattern.name and pattern.name not in OPEN_PAGES:
            if pattern.name == "app_list":
                route = "organizations/"
            paths.append("/admin/" + prefix + route.lstrip("^").rstrip("$"))
    return paths


def every_admin_page() -> list[str]:
    pages = _walk(admin.site.get_urls())
    pages.append(reverse("register_processingactivity_import"))  # mounted beside the site
    return pages


# --- who must give a second factor ---------------------------------------------------------


def test_organization_admins_and_auditors_must_give_a_second_factor_by_default():
    assert second_factor.second_factor_required(user=admin_member(Role.ADMIN).user)
    assert second_factor.second_factor_required(user=admin_member(Role.AUDITOR).user)
    assert second_factor.second_factor_required(user=UserFactory(is_staff=True, is_superuser=True))


def test_a_dpo_may_work_without_one_until_they_enrol():
    dpo = admin_member(Role.DPO)
    dpo.user.totpdevice_set.all().delete()
    assert not second_factor.second_factor_required(user=dpo.user)
    client = password_login(dpo.user)
    assert client.get(reverse("admin:index")).status_code == 200

    enrolled_device(dpo.user)
    client = password_login(dpo.user)
    response = client.get(reverse("admin:index"), follow=True)
    assert response.redirect_chain[-1][0].startswith(VERIFY)


def test_the_roles_that_must_follow_the_setting(settings):
    settings.ADMIN_OTP_REQUIRED_ROLES = ["dpo"]
    assert second_factor.second_factor_required(user=admin_member(Role.DPO).user)
    assert not second_factor.second_factor_required(user=admin_member(Role.AUDITOR).user)
    settings.ADMIN_OTP_REQUIRED_ROLES = ["admin", "owner"]
    with pytest.raises(ImproperlyConfigured, match=r"ADMIN_OTP_REQUIRED_ROLES.*owner"):
        second_factor.required_roles()


# --- every admin page is closed until the second factor is given ------------------------------


def test_every_admin_page_sends_a_password_only_session_to_the_second_factor():
    membership = admin_member(Role.ADMIN)
    enrolled_device(membership.user)
    client = password_login(membership.user)
    pages = every_admin_page()
    assert len(pages) > 100  # every model's list, add, change, history, delete, and the rest
    opened = []
    for page in pages:
        response = client.get(page, follow=True)
        if not response.redirect_chain or not response.redirect_chain[-1][0].startswith(VERIFY):
            opened.append((page, response.status_code))
    assert opened == []


def test_an_auditor_without_an_app_is_sent_to_enrolment_from_any_page():
    membership = admin_member(Role.AUDITOR)
    membership.user.totpdevice_set.all().delete()
    client = password_login(membership.user)
    for page in (reverse("admin:index"), reverse("admin:audit_auditevent_changelist")):
        response = client.get(page, follow=True)
        assert response.redirect_chain[-1][0].startswith(ENROL)
        assert response.status_code == 200
        assert 'id="second-factor-secret"' in response.content.decode()


def test_the_same_pages_open_once_the_second_factor_is_given():
    membership = admin_member(Role.ADMIN)
    client = verified_login(Client(), membership.user)
    assert client.get(reverse("admin:index")).status_code == 200
    assert client.get(reverse("admin:organizations_membership_changelist")).status_code == 200


def test_a_password_only_session_can_log_out():
    membership = admin_member(Role.ADMIN)
    client = password_login(membership.user)
    client.post(reverse("admin:logout"))
    assert "_auth_user_id" not in client.session


# --- enrolment, verification, recovery codes ------------------------------------------------


def test_an_admin_enrols_at_the_first_login_and_sees_recovery_codes_once():
    membership = admin_member(Role.ADMIN)
    user = membership.user
    user.totpdevice_set.all().delete()
    client = password_login(user)
    page = client.get(ENROL).content.decode()
    secret = re.search(r'id="second-factor-secret">([A-Z2-7 ]+)<', page)
    assert secret is not None
    assert "<svg" in page  # the QR code, drawn in the page
    device = TOTPDevice.objects.get(user=user, confirmed=False)

    response = client.post(ENROL, {"token": device_code(device)})

    codes = shown_codes(response)
    assert len(codes) == second_factor.RECOVERY_CODES
    assert client.get(reverse("admin:index")).status_code == 200
    later = client.get(ENROL).content.decode()
    assert "10 recovery codes left" in later
    assert not any(code in later for code in codes)  # shown once, on the page that made them
    event = AuditEvent.objects.get(action="member.second_factor")
    assert event.details["event"] == "enrolled"


def test_a_wrong_code_does_not_enrol():
    membership = admin_member(Role.ADMIN)
    membership.user.totpdevice_set.all().delete()
    client = password_login(membership.user)
    client.get(ENROL)
    response = client.post(ENROL, {"token": "000000"})
    assert "This code is not valid" in response.content.decode()
    assert not second_factor.has_second_factor(user=membership.user)


def test_a_password_alone_cannot_replace_an_enrolled_app():
    membership = admin_member(Role.ADMIN)
    enrolled_device(membership.user)
    client = password_login(membership.user)
    response = client.get(ENROL)
    assert response.status_code == 302
    assert response["Location"].startswith(VERIFY)
    assert TOTPDevice.objects.filter(user=membership.user).count() == 1


def test_the_code_of_the_app_verifies_the_session():
    membership = admin_member(Role.ADMIN)
    device = enrolled_device(membership.user)
    client = password_login(membership.user)
    response = client.post(f"{VERIFY}?next=/admin/audit/", {"token": device_code(device)})
    assert response.status_code == 302
    assert response["Location"] == "/admin/audit/"
    assert client.get(reverse("admin:index")).status_code == 200


def test_a_recovery_code_works_once():
    membership = admin_member(Role.ADMIN)
    user = membership.user
    verified = verified_login(Client(), user)
    code = shown_codes(verified.post(ENROL, {"regenerate": "1"}))[0]

    first = password_login(user)
    assert first.post(VERIFY, {"token": code}).status_code == 302
    assert first.get(reverse("admin:index")).status_code == 200
    second = password_login(user)
    response = second.post(VERIFY, {"token": code})
    assert "This code is not valid" in response.content.decode()
    assert second.get(reverse("admin:index")).status_code == 302
    assert StaticToken.objects.filter(device__user=user).count() == second_factor.RECOVERY_CODES - 1
    used = AuditEvent.objects.filter(
        action="member.second_factor", details__event="recovery_code_used"
    )
    assert used.count() == 1


def test_new_recovery_codes_replace_the_old_ones(settings):
    settings.OTP_STATIC_THROTTLE_FACTOR = 0  # no pause after the wrong code: not the point here
    membership = admin_member(Role.ADMIN)
    user = membership.user
    verified = verified_login(Client(), user)
    old = shown_codes(verified.post(ENROL, {"regenerate": "1"}))
    new = shown_codes(verified.post(ENROL, {"regenerate": "1"}))
    assert set(old).isdisjoint(new)
    client = password_login(user)
    assert "This code is not valid" in client.post(VERIFY, {"token": old[0]}).content.decode()
    assert client.post(VERIFY, {"token": new[0]}).status_code == 302
    regenerated = AuditEvent.objects.filter(details__event="recovery_codes_regenerated")
    assert regenerated.count() == 2


def test_wrong_codes_are_limited_like_wrong_passwords(settings):
    settings.ADMIN_LOGIN_FAILURES_PER_ADDRESS_AND_NAME = 3
    membership = admin_member(Role.ADMIN)
    device = enrolled_device(membership.user)
    client = password_login(membership.user)
    for _ in range(3):
        answer = client.post(VERIFY, {"token": "000000"}).content.decode()
        assert "This code is not valid" in answer
    # Past the budget even the right code is not checked: the page says when to try again.
    answer = client.post(VERIFY, {"token": device_code(device)}).content.decode()
    assert "Too many wrong codes" in answer
    assert client.get(reverse("admin:index")).status_code == 302


# --- reset ------------------------------------------------------------------------------------


def _reset(client: Client, membership: Any) -> Any:
    return client.post(
        reverse("admin:organizations_membership_changelist"),
        {"action": "reset_second_factor", "_selected_action": [str(membership.pk)]},
    )


def test_an_organization_admin_resets_a_members_second_factor_audited():
    organization_admin = staff(make_caller(Role.ADMIN))
    member = staff(make_caller(Role.AUDITOR, organization=organization_admin.organization))
    assert member.client.get(reverse("admin:index")).status_code == 200

    assert _reset(organization_admin.client, member.membership).status_code == 302

    assert not second_factor.has_second_factor(user=member.membership.user)
    # The member's verified session is verified no more: the next page asks for enrolment.
    response = member.client.get(reverse("admin:index"), follow=True)
    assert response.redirect_chain[-1][0].startswith(ENROL)
    event = AuditEvent.objects.get(action="member.second_factor", details__event="reset")
    assert event.organization_id == organization_admin.organization.pk
    assert event.details["member"] == member.membership.user.email
    assert str(organization_admin.membership.user.pk) == str(event.actor_user_id)


def test_dpos_and_auditors_cannot_reset_and_no_one_resets_another_organizations_member():
    dpo = staff(make_caller(Role.DPO))
    auditor = staff(make_caller(Role.AUDITOR, organization=dpo.organization))
    target = staff(make_caller(Role.ADMIN, organization=dpo.organization))
    foreign_admin = staff(make_caller(Role.ADMIN))
    for client in (dpo.client, auditor.client, foreign_admin.client):
        _reset(client, target.membership)
    assert second_factor.has_second_factor(user=target.membership.user)
    assert not AuditEvent.objects.filter(details__event="reset").exists()


# --- the API and its keys -----------------------------------------------------------------


def test_the_api_refuses_a_session_that_owes_the_second_factor_and_keeps_its_keys():
    caller = make_caller(Role.ADMIN)
    staff(caller)
    session = APIClient()
    session.force_login(caller.membership.user)
    assert session.get("/api/v1/client-companies").status_code == 401
    assert (
        verified_login(APIClient(), caller.membership.user)
        .get("/api/v1/client-companies")
        .status_code
        == 200
    )
    assert caller.client.get("/api/v1/client-companies").status_code == 200  # the API key
