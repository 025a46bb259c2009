"""The admin's second factor in a real browser: an organization admin enrols at the first login
(the secret read from the page, the code computed as an authenticator app would), logs out,
logs in with password and code; with the password alone, every admin page leads to the code."""

from __future__ import annotations

import base64

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from organizations.models import Role
from tests.browser.conftest import admin_user
from tests.conftest import make_caller
from tests.support.second_factor import code_after, time_step

pytestmark = pytest.mark.django_db(transaction=True)

VERIFY = reverse("admin:second_factor_verify")
ENROL = reverse("admin:second_factor")
# Pages of every kind: the index, a model's list, an add form, a page of another app.
PAGES = [
    reverse("admin:index"),
    reverse("admin:organizations_apikey_changelist"),
    reverse("admin:legal_documents_legaldocument_add"),
    reverse("admin:compliance_start"),
    reverse("admin:audit_auditevent_changelist"),
]


def submit_password(page: Page, base_url: str, email: str, password: str) -> None:
    page.goto(f"{base_url}/admin/login/")
    page.fill("#id_username", email)
    page.fill("#id_password", password)
    page.click("#login-form input[type=submit]")


def path_of(page: Page, base_url: str) -> str:
    return page.url.removeprefix(base_url)


def test_an_organization_admin_enrols_then_logs_in_with_password_and_code(
    page, admin_server, screenshots
):
    base = admin_server.url
    member = admin_user(make_caller(Role.ADMIN).membership, enrol=False)

    # First login: the password leads to enrolment, with the QR code and the key as text.
    submit_password(page, base, member.email, member.password)
    expect(page.locator("#second-factor-secret")).to_be_visible()
    assert path_of(page, base).startswith(ENROL)
    expect(page.locator("#second-factor-qr-code svg")).to_be_visible()
    page.screenshot(path=screenshots / "second-factor-1-enrol.png", full_page=True)
    secret = page.locator("#second-factor-secret").inner_text().replace(" ", "")
    key = base64.b32decode(secret)
    code, enrolled_step = code_after(key, last_step=time_step() - 1)
    page.fill("#id_token", code)
    page.click("#second-factor-form input[type=submit]")

    codes = page.locator("#recovery-codes li")
    expect(codes).to_have_count(10)
    page.screenshot(path=screenshots / "second-factor-2-recovery-codes.png", full_page=True)
    page.click("#second-factor-continue")
    expect(page.locator("#user-tools")).to_be_visible()
    page.click("#logout-form button[type=submit]")
    expect(page.locator("#user-tools")).to_have_count(0)

    # Password only: every admin page leads to the code, none shows its content.
    submit_password(page, base, member.email, member.password)
    expect(page.locator("#second-factor-form")).to_be_visible()
    for admin_page in PAGES:
        page.goto(base + admin_page)
        assert path_of(page, base).startswith(VERIFY), admin_page
        expect(page.locator("#user-tools")).to_have_count(0)
        expect(page.locator("#nav-sidebar")).to_have_count(0)
    page.screenshot(path=screenshots / "second-factor-3-code-asked.png", full_page=True)

    # A wrong code is refused; the app's next code opens the page that was asked for.
    page.fill("#id_token", "000000")
    page.click("#second-factor-form input[type=submit]")
    expect(page.locator("#second-factor-form .errorlist")).to_be_visible()
    page.wait_for_timeout(1100)  # the device pauses a second after a wrong code
    code, _ = code_after(key, last_step=enrolled_step)
    page.fill("#id_token", code)
    page.click("#second-factor-form input[type=submit]")
    expect(page.locator("#user-tools")).to_be_visible()
    assert path_of(page, base) == PAGES[-1]
    page.goto(base + reverse("admin:organizations_apikey_changelist"))
    expect(page.locator("#changelist")).to_be_visible()
    page.screenshot(path=screenshots / "second-factor-4-verified.png", full_page=True)
