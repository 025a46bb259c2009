"""Admin login: attempts are reserved before the password is checked, per address and name.

A stranger cannot lock a member out: failures from one address lock that address (for that
name, or for every name past a larger budget), never the member at another address. Each
further lock-out of the same address and name lasts twice as long.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_login_failed
from django.test import Client
from django.urls import reverse

from tests.support.hostile.admin_login_race import THROTTLED_TEXT, race_wrong_logins

LOGIN = reverse("admin:login")
PASSWORD = "correct horse battery staple"
PER_ADDRESS_AND_NAME = 5
PER_ADDRESS = 20


@pytest.fixture(autouse=True)
def limits(settings) -> None:  # type: ignore[no-untyped-def]
    """The documented defaults, set here so that the tests do not depend on the environment."""
    settings.ADMIN_LOGIN_FAILURES_PER_ADDRESS_AND_NAME = PER_ADDRESS_AND_NAME
    settings.ADMIN_LOGIN_FAILURES_PER_ADDRESS = PER_ADDRESS
    settings.ADMIN_LOGIN_WINDOW_SECONDS = 15 * 60
    settings.ADMIN_LOGIN_LOCKOUT_SECONDS = 15 * 60
    settings.ADMIN_LOGIN_MAX_LOCKOUT_SECONDS = 24 * 3600


@pytest.fixture
def password_checks() -> Iterator[list[str]]:
    """The user names of every failed password check (Django's `user_login_failed`), from any
    thread of this process (the live server's included)."""
    checked: list[str] = []
    lock = threading.Lock()

    def count(sender, credentials, **kwargs):  # type: ignore[no-untyped-def]
        with lock:
            checked.append(credentials.get("username", ""))

    user_login_failed.connect(count, dispatch_uid="test-login-throttling")
    yield checked
    user_login_failed.disconnect(dispatch_uid="test-login-throttling")


def staff_user(name: str):  # type: ignore[no-untyped-def]
    return get_user_model().objects.create_user(
        username=name, email=name, password=PASSWORD, is_staff=True
    )


def login(username: str, password: str, address: str = "198.51.100.7"):  # type: ignore[no-untyped-def]
    return Client().post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address)


def logged_in(response) -> bool:  # type: ignore[no-untyped-def]
    return response.status_code == 302


def throttled(response) -> bool:  # type: ignore[no-untyped-def]
    return response.status_code == 200 and THROTTLED_TEXT in response.content.decode()


@pytest.mark.django_db(transaction=True)
def test_parallel_wrong_passwords_are_checked_at_most_the_limit(live_server, password_checks):
    staff_user("alice@example.com")
    answers = race_wrong_logins(base_url=live_server.url, username="alice@example.com", attempts=30)
    assert len(password_checks) <= PER_ADDRESS_AND_NAME, answers
    assert answers["checked"] <= PER_ADDRESS_AND_NAME, answers
    assert answers["throttled"] >= 30 - PER_ADDRESS_AND_NAME, answers


@pytest.mark.django_db
def test_failures_from_one_address_do_not_lock_the_user_out_at_another():
    staff_user("alice@example.com")
    for _ in range(PER_ADDRESS_AND_NAME + 2):
        login("alice@example.com", "wrong", "198.51.100.7")
    assert throttled(login("alice@example.com", PASSWORD, "198.51.100.7"))
    assert logged_in(login("alice@example.com", PASSWORD, "203.0.113.50"))


@pytest.mark.django_db
def test_strangers_spread_over_many_addresses_do_not_lock_the_user_out():
    staff_user("alice@example.com")
    for address in range(1, 9):
        for _ in range(PER_ADDRESS_AND_NAME - 1):
            login("alice@example.com", "wrong", f"198.51.100.{address}")
    assert logged_in(login("alice@example.com", PASSWORD, "203.0.113.50"))


@pytest.mark.django_db
def test_an_address_and_name_are_refused_after_the_limit_even_with_the_right_password(
    password_checks,
):
    staff_user("alice@example.com")
    for _ in range(PER_ADDRESS_AND_NAME):
        assert not throttled(login("alice@example.com", "wrong"))
    refused = login("alice@example.com", PASSWORD)
    assert throttled(refused)
    assert len(password_checks) == PER_ADDRESS_AND_NAME  # refused before the check


@pytest.mark.django_db
def test_another_user_still_logs_in_from_the_same_address_while_one_name_is_locked():
    staff_user("alice@example.com")
    staff_user("bob@example.com")
    for _ in range(PER_ADDRESS_AND_NAME + 2):
        login("alice@example.com", "wrong")
    assert logged_in(login("bob@example.com", PASSWORD))


@pytest.mark.django_db
def test_an_address_is_blocked_after_too_many_failures_across_user_names():
    staff_user("carol@example.com")
    for attempt in range(PER_ADDRESS):
        login(f"guess{attempt}@example.com", "wrong", "192.0.2.9")
    refused = login("carol@example.com", PASSWORD, "192.0.2.9")
    assert throttled(refused)
    assert logged_in(login("carol@example.com", PASSWORD, "192.0.2.10"))


@pytest.mark.django_db
def test_the_addresses_of_one_ipv6_network_count_as_one(settings):
    settings.ADMIN_LOGIN_FAILURES_PER_ADDRESS = 3
    staff_user("carol@example.com")
    for host in range(1, 4):
        login(f"guess{host}@example.com", "wrong", f"2001:db8:1:2::{host}")
    assert throttled(login("carol@example.com", PASSWORD, "2001:db8:1:2::99"))
    assert logged_in(login("carol@example.com", PASSWORD, "2001:db8:1:3::1"))


@pytest.mark.django_db
def test_successful_logins_do_not_use_up_the_addresss_budget(settings):
    settings.ADMIN_LOGIN_FAILURES_PER_ADDRESS = 3
    for index in range(6):  # an office behind one address
        staff_user(f"member{index}@example.com")
        assert logged_in(login(f"member{index}@example.com", PASSWORD, "192.0.2.50"))


@pytest.mark.django_db
def test_a_few_failures_do_not_block_the_right_password_and_success_clears_them():
    staff_user("dave@example.com")
    for _ in range(2):
        for _ in range(PER_ADDRESS_AND_NAME - 1):
            assert not throttled(login("dave@example.com", "wrong"))
        assert logged_in(login("dave@example.com", PASSWORD))


@pytest.mark.django_db
def test_each_further_lock_out_of_an_address_and_name_lasts_twice_as_long(settings):
    from organizations.admin_login import lockout_seconds_left

    settings.ADMIN_LOGIN_LOCKOUT_SECONDS = 1
    staff_user("erin@example.com")

    def fail_until_locked() -> float:
        for _ in range(PER_ADDRESS_AND_NAME):
            assert not throttled(login("erin@example.com", "wrong"))
        assert throttled(login("erin@example.com", PASSWORD))
        return lockout_seconds_left(username="erin@example.com", address="198.51.100.7")

    first = fail_until_locked()
    assert 0 < first <= 1
    time.sleep(first + 0.2)
    second = fail_until_locked()  # the first lock-out over, the limit's tries are checked again
    assert 1 < second <= 2
    time.sleep(second + 0.2)
    assert 2 < fail_until_locked() <= 4


def test_the_lock_out_doubles_up_to_its_ceiling(settings):
    from organizations.admin_login import lockout_seconds

    settings.ADMIN_LOGIN_LOCKOUT_SECONDS = 900
    settings.ADMIN_LOGIN_MAX_LOCKOUT_SECONDS = 3000
    assert [lockout_seconds(lockouts=n) for n in range(1, 5)] == [900, 1800, 3000, 3000]
