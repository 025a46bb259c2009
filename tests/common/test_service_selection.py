"""The services a process uses: read from the environment by the settings, and provided on a
laptop by the local stack (config/local_stack.py), which the launcher, manage.py and the
pytest plugin run before Django loads."""

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from config import embedded, local_stack, services
from config.environment import Environment
from config.services import celery_broker_url

CONFIGURED = {
    "DATABASE_URL": "postgres://app:secret@db.internal:5432/legaldocs",
    "REDIS_URL": "redis://:pw@cache.internal:6379/0",
    "SECRET_KEY": "configured-" + "k" * 50,
    "EVIDENCE_SIGNING_KEY": "configured-" + "e" * 40,
}
SECRET_KEY_FILE = local_stack.LOCAL_KEYS["SECRET_KEY"]


def test_the_settings_read_the_configured_database_and_redis():
    env = Environment(CONFIGURED)
    database = services.database(env)
    assert database["HOST"] == "db.internal"
    assert database["NAME"] == "legaldocs"
    assert services.redis_url(env) == "redis://:pw@cache.internal:6379/0"
    assert services.secret_key(env) == CONFIGURED["SECRET_KEY"]


def test_the_local_stack_starts_and_writes_nothing_when_everything_is_configured(tmp_path):
    environ = dict(CONFIGURED)
    stack = local_stack.prepare(tmp_path / "data", environ)

    assert not stack.embedded_database and not stack.embedded_redis
    assert environ == {**CONFIGURED, "DATA_DIR": str((tmp_path / "data").resolve())}
    assert list(tmp_path.iterdir()) == []


def test_the_local_stack_keeps_one_secret_key_in_the_data_dir(tmp_path):
    # The evidence signing key follows the same path; it stays configured here.
    configured = {name: value for name, value in CONFIGURED.items() if name != "SECRET_KEY"}
    first, second = dict(configured), dict(configured)
    local_stack.prepare(tmp_path, first)
    local_stack.prepare(tmp_path, second)

    assert len(first["SECRET_KEY"]) >= 50
    assert first["SECRET_KEY"] == second["SECRET_KEY"]
    key_file = tmp_path / SECRET_KEY_FILE
    assert key_file.read_text() == first["SECRET_KEY"]
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert sorted(path.name for path in tmp_path.iterdir()) == [SECRET_KEY_FILE]


def test_it_refuses_a_database_that_is_not_postgresql():
    with pytest.raises(ImproperlyConfigured, match="PostgreSQL"):
        services.database(Environment({"DATABASE_URL": "sqlite:///x.db"}))


def test_it_names_the_variable_of_a_bad_value():
    with pytest.raises(ImproperlyConfigured, match="DEBUG"):
        Environment({"DEBUG": "perhaps"}).bool("DEBUG", default=False)
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL"):
        services.redis_url(Environment({"REDIS_URL": "http://x"}))
    with pytest.raises(ImproperlyConfigured, match="FRACTION"):
        Environment({"FRACTION": "half"}).float("FRACTION", 0.5)
    with pytest.raises(ImproperlyConfigured, match="FRACTION"):
        Environment({"FRACTION": "-1"}).float("FRACTION", 0.5, minimum=0.0)
    assert Environment({"FRACTION": "0.25"}).float("FRACTION", 0.5) == 0.25


def test_celery_spells_a_unix_socket_its_own_way():
    assert celery_broker_url("unix:///d/redis.sock") == "redis+socket:///d/redis.sock"
    assert celery_broker_url("redis://h:6379/0") == "redis://h:6379/0"


def _manage_py_settings(env: dict[str, str]) -> dict:
    code = (
        "import json; from django.conf import settings as s;"
        "print(json.dumps({'redis': s.REDIS_URL, 'host': s.DATABASES['default']['OPTIONS']"
        ".get('host') or s.DATABASES['default']['HOST'], 'key': s.SECRET_KEY}))"
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code], env=env, capture_output=True,
        text=True, check=True, cwd=settings.BASE_DIR, timeout=120,
    )  # fmt: skip
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_manage_py_in_a_second_terminal_reaches_the_running_embedded_servers():
    """What a `manage.py shell` beside `make run` does: same DATA_DIR, same servers and key."""
    data_dir = Path(settings.DATA_DIR)
    postmaster = embedded.running_postmaster(data_dir)
    ours = settings.DATABASES["default"]
    our_host = ours.get("OPTIONS", {}).get("host") or ours["HOST"]
    on_embedded_database = postmaster is not None and str(postmaster.socket_dir) == our_host
    on_embedded_redis = f"unix://{embedded.redis_socket_path(data_dir)}" == settings.REDIS_URL
    key_file = data_dir / SECRET_KEY_FILE
    on_local_key = key_file.exists() and key_file.read_text().strip() == settings.SECRET_KEY
    # Like a new terminal: only what the local stack does not provide is still configured.
    env = {
        **os.environ,
        "DATA_DIR": str(data_dir),
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
    }
    if on_local_key:
        env.pop("SECRET_KEY", None)
    if on_embedded_database:
        env.pop("DATABASE_URL", None)
    if on_embedded_redis:
        env.pop("REDIS_URL", None)

    seen = _manage_py_settings(env)

    assert seen == {"redis": settings.REDIS_URL, "host": our_host, "key": settings.SECRET_KEY}
    if on_embedded_database:  # reused, not restarted
        assert embedded.running_postmaster(data_dir).pid == postmaster.pid


def test_a_rate_limit_that_is_not_a_rate_names_its_variable():
    assert Environment({"RATE_LIMIT_READS": "20/min"}).rate("RATE_LIMIT_READS", "1/s") == "20/min"
    with pytest.raises(ImproperlyConfigured, match="RATE_LIMIT_READS"):
        Environment({"RATE_LIMIT_READS": "lots"}).rate("RATE_LIMIT_READS", "1/s")
