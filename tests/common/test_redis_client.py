"""The rate limiter's Redis client: one per process, on the cache's own server."""

import pytest
from django.core.cache import cache

from common.redis_client import cache_redis


def test_one_client_per_process_on_the_server_the_cache_clears():
    client = cache_redis()
    assert cache_redis() is client

    key = cache.make_and_validate_key("throttle:probe")
    client.set(key, 7)
    assert int(client.get(key)) == 7
    cache.clear()  # what each test does first: the counters written by the client go too
    assert client.get(key) is None


@pytest.mark.django_db
def test_another_cache_location_gets_its_own_client(settings):
    first = cache_redis()
    settings.CACHES = {"default": {**settings.CACHES["default"], "OPTIONS": {"socket_timeout": 1}}}
    assert cache_redis() is not first
