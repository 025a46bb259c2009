"""A revocation racing a request never leaves the revoked key cached.

The race: a request reads the key from the database (still active), the revocation commits
and forgets the cached entry, then the request writes what it read back into the cache.
The steps are run in that order here, as the two threads would interleave them.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from organizations import key_cache
from organizations.keys import parse_key
from organizations.models import ApiKey
from organizations.services import api_key_revoke

pytestmark = pytest.mark.django_db(transaction=True)

LIST_URL = "/api/v1/client-companies"


def test_a_key_read_before_its_revocation_and_cached_after_it_is_refused(dpo):
    prefix = parse_key(dpo.key).prefix
    read_by_the_request = key_cache.api_key_by_prefix(prefix)  # active when read
    assert read_by_the_request is not None and read_by_the_request.revoked_at is None

    api_key_revoke(api_key=ApiKey.objects.get(prefix=prefix))  # commits, forgets the entry
    key_cache.remember(read_by_the_request)  # the request's late write

    assert dpo.client.get(LIST_URL).status_code == 401


def test_a_key_read_by_another_request_before_the_revocation_commits_is_refused(dpo):
    """The revoking transaction forgot the entry but has not committed: another connection
    still reads the active row, and caches it."""
    prefix = parse_key(dpo.key).prefix

    def concurrent_request() -> None:
        try:
            assert key_cache.api_key_by_prefix(prefix).revoked_at is None
        finally:
            connection.close()  # the thread's own database connection

    with transaction.atomic():
        api_key_revoke(api_key=ApiKey.objects.get(prefix=prefix))
        other = threading.Thread(target=concurrent_request)
        other.start()
        other.join()

    assert dpo.client.get(LIST_URL).status_code == 401


def test_an_active_key_is_still_served_from_the_cache(dpo, django_assert_num_queries):
    from organizations.authentication import authenticate_raw_key

    authenticate_raw_key(dpo.key, ip="127.0.0.1")
    with django_assert_num_queries(0):
        assert authenticate_raw_key(dpo.key, ip="127.0.0.1").revoked_at is None
