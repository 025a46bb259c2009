"""Admin login: failed attempts are bounded per user name and per address."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from organizations.admin_login import MAX_FAILURES_PER_ADDRESS, MAX_FAILURES_PER_USERNAME

pytestmark = pytest.mark.django_db

LOGIN = reverse("admin:login")
PASSWORD = "correct horse battery staple"


def staff_user(name: str):  # type: ignore[no-untyped-def]
    return get_user_model().objects.create_user(
        username=name, email=name, password=PASSWORD, is_staff=True
    )


def login(username: str, password: str, address: str = "198.51.100.7"):  # type: ignore[no-untyped-def]
    return Client().post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address)


def logged_in(response) -> bool:  # type: ignore[no-untyped-def]
    return response.status_code == 302


def test_a_user_name_is_blocked_after_too_many_failures_even_with_the_right_password():
    staff_user("alice@example.com")
    for attempt in range(MAX_FAILURES_PER_USERNAME):
        address = f"198.51.100.{attempt + 1}"  # spread over addresses: the name still counts
        assert not logged_in(login("alice@example.com", "wrong", address))
    refused = login("alice@example.com", PASSWORD, "203.0.113.50")
    assert not logged_in(refused)
    assert "Too many failed logins" in refused.content.decode()


def test_another_user_still_logs_in_while_one_name_is_blocked():
    staff_user("alice@example.com")
    staff_user("bob@example.com")
    for _ in range(MAX_FAILURES_PER_USERNAME + 2):
        login("alice@example.com", "wrong")
    assert logged_in(login("bob@example.com", PASSWORD))


def test_an_address_is_blocked_after_too_many_failures_across_user_names():
    staff_user("carol@example.com")
    for attempt in range(MAX_FAILURES_PER_ADDRESS):
        login(f"guess{attempt}@example.com", "wrong", "192.0.2.9")
    refused = login("carol@example.com", PASSWORD, "192.0.2.9")
    assert not logged_in(refused)
    assert "Too many failed logins" in refused.content.decode()
    assert logged_in(login("carol@example.com", PASSWORD, "192.0.2.10"))


def test_a_few_failures_do_not_block_the_right_password():
    staff_user("dave@example.com")
    for _ in range(MAX_FAILURES_PER_USERNAME - 1):
        login("dave@example.com", "wrong")
    assert logged_in(login("dave@example.com", PASSWORD))
