"""Settings pick the configured services, or embedded ones when none is configured."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from config.environment import Environment
from config.services import celery_broker_url, resolve_services
from tests.conftest import database_url


def test_it_uses_the_configured_database_and_redis_without_starting_anything(tmp_path: Path):
    env = Environment({
        "DATABASE_URL": "postgres://app:secret@db.internal:5432/legaldocs",
        "REDIS_URL": "redis://:pw@cache.internal:6379/0",
    })  # fmt: skip
    services = resolve_services(env, tmp_path)
    assert services.database["HOST"] == "db.internal"
    assert services.database["NAME"] == "legaldocs"
    assert services.redis_url == "redis://:pw@cache.internal:6379/0"
    assert not services.embedded_database
    assert not services.embedded_redis
    assert list(tmp_path.iterdir()) == []  # no embedded server was started


def test_it_describes_embedded_services_under_the_data_dir_when_nothing_is_configured(
    tmp_path: Path,
):
    services = resolve_services(Environment({}), tmp_path, start_embedded=False)
    assert services.embedded_database and services.embedded_redis
    assert services.database["OPTIONS"]["host"] == str(tmp_path / "postgres")
    assert services.redis_url == f"unix://{tmp_path.resolve() / 'redis' / 'redis.sock'}"


def test_it_refuses_a_database_that_is_not_postgresql(tmp_path: Path):
    with pytest.raises(ImproperlyConfigured, match="PostgreSQL"):
        resolve_services(Environment({"DATABASE_URL": "sqlite:///x.db"}), tmp_path)


def test_it_names_the_variable_of_a_bad_value():
    with pytest.raises(ImproperlyConfigured, match="DEBUG"):
        Environment({"DEBUG": "perhaps"}).bool("DEBUG", default=False)
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL"):
        resolve_services(
            Environment({"DATABASE_URL": "postgres://a@b/c", "REDIS_URL": "http://x"}),
            Path("/nonexistent"),
        )


def test_celery_spells_a_unix_socket_its_own_way():
    assert celery_broker_url("unix:///d/redis.sock") == "redis+socket:///d/redis.sock"
    assert celery_broker_url("redis://h:6379/0") == "redis://h:6379/0"


def _settings_of_a_new_process(env: dict[str, str]) -> dict:
    code = (
        "import django, json; django.setup(); from django.conf import settings as s;"
        "print(json.dumps({'embedded': s.SERVICES.embedded_database, 'redis': s.REDIS_URL,"
        " 'name': s.DATABASES['default']['NAME']}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], env={**os.environ, **env}, capture_output=True,
        text=True, check=True, cwd=settings.BASE_DIR,
    )  # fmt: skip
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_a_second_process_reaches_the_same_embedded_servers():
    """Another process (a worker, manage.py) reuses the running servers instead of new ones."""
    seen = _settings_of_a_new_process(
        {"DATA_DIR": str(settings.DATA_DIR), "DJANGO_SETTINGS_MODULE": "config.settings.base"}
    )
    if settings.SERVICES.embedded_redis:
        assert seen["redis"] == settings.REDIS_URL
    assert seen["embedded"] == settings.SERVICES.embedded_database


def test_a_process_given_urls_uses_them(db):
    seen = _settings_of_a_new_process({
        "DATABASE_URL": database_url(settings.DATABASES["default"]),
        "REDIS_URL": settings.REDIS_URL,
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
    })  # fmt: skip
    assert seen["embedded"] is False
    assert seen["name"] == settings.DATABASES["default"]["NAME"]


def test_a_rate_limit_that_is_not_a_rate_names_its_variable():
    assert Environment({"RATE_LIMIT_READS": "20/min"}).rate("RATE_LIMIT_READS", "1/s") == "20/min"
    with pytest.raises(ImproperlyConfigured, match="RATE_LIMIT_READS"):
        Environment({"RATE_LIMIT_READS": "lots"}).rate("RATE_LIMIT_READS", "1/s")
