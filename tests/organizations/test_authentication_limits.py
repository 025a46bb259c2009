"""What a stream of bogus API keys may cost: limited before the key is looked up, and a
bounded number of events on the shared chain of unattributed attempts."""

from __future__ import annotations

import pytest
from rest_framework import exceptions

from audit.models import AuditEvent
from organizations.authentication import authenticate_raw_key

pytestmark = pytest.mark.django_db


def bogus_key(number: int) -> str:
    """Well formed (so it would be looked up), with a prefix no key has."""
    return f"ld_{number:010d}_not-a-real-secret"


def _attempt(raw_key: str, ip: str) -> type[Exception]:
    with pytest.raises(exceptions.APIException) as refused:
        authenticate_raw_key(raw_key, ip=ip)
    return type(refused.value)


def unattributed_denials() -> int:
    return AuditEvent.objects.filter(
        organization=None, action="auth.api_key", outcome="denied"
    ).count()


def test_past_the_limit_a_bogus_key_is_refused_without_a_database_query(
    settings, django_assert_num_queries
):
    settings.AUTH_FAILURES_PER_MINUTE = 3
    for number in range(3):
        assert _attempt(bogus_key(number), "192.0.2.7") is exceptions.AuthenticationFailed
    with django_assert_num_queries(0):
        for number in range(3, 20):
            assert _attempt(bogus_key(number), "192.0.2.7") is exceptions.Throttled


def test_a_malformed_key_is_refused_without_looking_it_up(django_assert_num_queries):
    _attempt("ld_0000000001_first", "192.0.2.8")  # the chain's first event signs a head
    with django_assert_num_queries(0):
        for key in ("nonsense", "ld_short_x", "xx_0123456789_secret"):
            assert _attempt(key, "192.0.2.8") is exceptions.AuthenticationFailed


def test_bogus_keys_from_one_address_add_at_most_two_events_a_minute(settings):
    settings.AUTH_FAILURES_PER_MINUTE = 10
    for number in range(25):
        _attempt(bogus_key(number), "192.0.2.9")
    # The first failure of the minute, and the one that reached the limit.
    assert unattributed_denials() == 2
    reached = AuditEvent.objects.filter(organization=None).order_by("-id").first()
    assert reached.details["failuresThisMinute"] == 10


def test_the_shared_chain_of_unattributed_attempts_has_a_budget_for_all_addresses(settings):
    settings.AUTH_FAILURES_PER_MINUTE = 30
    settings.AUDIT_UNATTRIBUTED_EVENTS_PER_MINUTE = 5
    for number in range(40):
        _attempt(bogus_key(number), f"198.51.100.{number}")
    assert unattributed_denials() == 5


def test_addresses_of_one_ipv6_network_share_one_limit(settings):
    settings.AUTH_FAILURES_PER_MINUTE = 3
    for number in range(3):
        _attempt(bogus_key(number), f"2001:db8:0:1::{number + 1:x}")
    assert _attempt(bogus_key(99), "2001:db8:0:1:ffff::1") is exceptions.Throttled
    assert _attempt(bogus_key(98), "2001:db8:0:2::1") is exceptions.AuthenticationFailed
