"""Which PostgreSQL and Redis this process talks to, and its secret key: read, never started.

The settings start nothing: they read DATABASE_URL, REDIS_URL, SECRET_KEY and
EVIDENCE_SIGNING_KEY (with every other variable) as they find them. On a laptop or in CI,
`config.local_stack` (called by `make run`, `make test`, `make bench`, `manage.py` and the
pytest plugin before Django loads) starts embedded servers and sets these variables.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

from config.environment import Environment


def _missing(name: str, what: str) -> ImproperlyConfigured:
    return ImproperlyConfigured(
        f"{name} is not set: `make run`, `make test` and `python manage.py` set it to {what} "
        "under DATA_DIR (config/local_stack.py); anywhere else set it (see .env.example)."
    )


def database(env: Environment) -> dict:
    """Django's database settings from DATABASE_URL (PostgreSQL only: pgvector is required)."""
    database = env.database("DATABASE_URL")
    if database is None:
        raise _missing("DATABASE_URL", "an embedded PostgreSQL")
    if database["ENGINE"] != "django.db.backends.postgresql":
        raise ImproperlyConfigured("DATABASE_URL must point to PostgreSQL (pgvector is required)")
    return database


def redis_url(env: Environment) -> str:
    url = env.str("REDIS_URL")
    if url is None:
        raise _missing("REDIS_URL", "an embedded Redis")
    if urlsplit(url).scheme not in {"redis", "rediss", "unix"}:
        raise ImproperlyConfigured("REDIS_URL must start with redis://, rediss:// or unix://")
    return url


def secret_key(env: Environment, name: str = "SECRET_KEY") -> str:
    key = env.str(name)
    if key is None:
        raise _missing(name, "a random key kept")
    return key


def celery_broker_url(redis_url: str) -> str:
    """Celery (kombu) spells a Unix-socket Redis `redis+socket://`; redis-py spells it `unix://`."""
    if redis_url.startswith("unix://"):
        return "redis+socket://" + redis_url.removeprefix("unix://")
    return redis_url
