"""Browser tests: Playwright (sync API) driving Debian's Chromium against a live admin.

- Chromium is Debian's `/usr/bin/chromium`, installed by `make system-deps` (which
  `make test` runs first); never a browser downloaded by Playwright. Without it the tests
  fail naming that target: they are never skipped.
- The app runs under a real threaded WSGI server on 127.0.0.1 (pytest-django's LiveServer)
  on the test database; generation jobs run in a real Celery worker (`celery_worker_process`).
- Each test gets a fresh browser with a fresh profile; screenshots go to SCREENSHOTS
  (`SCREENSHOT_DIR` when set).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import BrowserContext, ConsoleMessage, Page, Playwright, sync_playwright
from pytest_django.live_server_helper import LiveServer

from audit.services import Actor
from organizations.admin_access import admin_access_grant
from organizations.models import Membership
from organizations.second_factor import second_factor_required
from tests.support.debian import require_debian_tool
from tests.support.second_factor import enrolled_device, fresh_device_code

CHROMIUM = Path("/usr/bin/chromium")
# SCREENSHOT_DIR=docs/images-draft (say) writes them elsewhere: the README's pictures are
# taken from a run of these tests (README.md, "A first tour").
SCREENSHOTS = Path(
    os.environ.get("SCREENSHOT_DIR") or Path(settings.BASE_DIR) / "test-artifacts" / "screenshots"
)
PASSWORD = "correct horse battery staple"  # the factories' password
CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
TIMEOUT_MS = 60_000


@pytest.fixture(scope="package")
def chromium_path() -> Path:
    """Path of Debian's Chromium (`make system-deps` installs it)."""
    return require_debian_tool(str(CHROMIUM), "chromium")


@pytest.fixture(scope="package")
def playwright_driver(chromium_path: Path) -> Iterator[Playwright]:
    """Playwright's sync driver, for the browser tests of this package only.

    The sync API keeps an event loop running in this thread; Django's ORM refuses to run
    beside one unless told it is safe, which it is here (one thread, no coroutines of ours).
    """
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    driver = sync_playwright().start()
    yield driver
    driver.stop()
    if previous is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(scope="package")
def admin_server(django_db_setup, django_db_blocker) -> Iterator[LiveServer]:  # type: ignore[no-untyped-def]
    """The app on a real server at 127.0.0.1 (a free port), serving the test database."""
    with django_db_blocker.unblock():
        server = LiveServer("127.0.0.1:0")
    yield server
    server.stop()


@pytest.fixture
def browser_context(
    playwright_driver: Playwright, chromium_path: Path, tmp_path: Path
) -> Iterator[BrowserContext]:
    """A fresh headless Chromium with an empty profile (its own --user-data-dir)."""
    context = playwright_driver.chromium.launch_persistent_context(
        user_data_dir=str(tmp_path / "chromium-profile"),
        executable_path=str(chromium_path),
        headless=True,
        args=CHROMIUM_FLAGS,
        accept_downloads=True,
        viewport={"width": 1280, "height": 900},
    )
    context.set_default_timeout(TIMEOUT_MS)
    violations: list[str] = []
    context.on("console", lambda message: violations.extend(csp_violation(message)))
    yield context
    context.close()
    # Every page a browser test opens runs under the Content-Security-Policy without breaking it.
    assert violations == [], violations


def csp_violation(message: ConsoleMessage) -> list[str]:
    """Chromium reports a refused script, style or other resource on the console."""
    if "Content Security Policy" not in message.text:
        return []
    return [f"{message.location.get('url')}: {message.text}"]


@pytest.fixture
def page(browser_context: BrowserContext) -> Page:
    """The browser's first tab."""
    return browser_context.pages[0] if browser_context.pages else browser_context.new_page()


@pytest.fixture(scope="package")
def screenshots() -> Path:
    """The folder for the screenshots (docs/ADMIN.md; created, kept between runs)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@dataclass
class BrowserUser:
    membership: Membership
    email: str
    password: str = PASSWORD


def admin_user(membership: Membership, *, enrol: bool = True) -> BrowserUser:
    """The member with admin access granted the documented way (`grant_admin_access`), with
    an authenticator app enrolled when their role requires one (unless `enrol` is False)."""
    admin_access_grant(membership=membership, actor=Actor(label="test"))
    if enrol and second_factor_required(user=membership.user):
        enrolled_device(membership.user)
    return BrowserUser(membership=membership, email=membership.user.email)


def log_in(page: Page, server: LiveServer, user: BrowserUser) -> None:
    """Log in through the admin's login form, as a person would, then give the code of the
    member's authenticator app when the admin asks for it. A member who must have one (an
    organization admin, an auditor, a superuser) has it already: enrolment is its own test
    (tests/browser/test_second_factor_in_chromium.py)."""
    if second_factor_required(user=user.membership.user):
        enrolled_device(user.membership.user)
    page.goto(f"{server.url}/admin/login/")
    page.fill("#id_username", user.email)
    page.fill("#id_password", user.password)
    page.click("input[type=submit]")
    page.wait_for_selector("#user-tools, #second-factor-form")
    if page.locator("#second-factor-form").count():
        device = enrolled_device(user.membership.user)
        page.fill("#id_token", fresh_device_code(device))
        page.click("#second-factor-form input[type=submit]")
        page.wait_for_selector("#user-tools")
