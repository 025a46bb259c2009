"""Which PostgreSQL and Redis this process talks to: the configured ones, or embedded ones.

Kept apart from the settings module so that the choice can be tested with a plain dict of
variables, without starting anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

from config import embedded
from config.environment import Environment


@dataclass(frozen=True)
class ServiceEndpoints:
    database: dict
    redis_url: str
    embedded_database: bool
    embedded_redis: bool


def resolve_services(
    env: Environment, data_dir: Path, *, start_embedded: bool = True
) -> ServiceEndpoints:
    """Use DATABASE_URL / REDIS_URL when set; otherwise start (or reuse) embedded servers.

    With `start_embedded=False` nothing is started and the embedded endpoints are only
    described (used by tests and by tools that must not start servers).
    """
    database = env.database("DATABASE_URL")
    embedded_database = database is None
    if embedded_database:
        if start_embedded:
            postgres = embedded.ensure_postgres(data_dir)
        else:
            postgres = embedded.EmbeddedPostgres(socket_dir=str(data_dir / "postgres"))
        database = Environment({"URL": postgres.url()}).database("URL")
    if database["ENGINE"] != "django.db.backends.postgresql":
        raise ImproperlyConfigured("DATABASE_URL must point to PostgreSQL (pgvector is required)")

    redis_url = env.str("REDIS_URL")
    embedded_redis = redis_url is None
    if embedded_redis:
        socket_path = (
            embedded.ensure_redis(data_dir)
            if start_embedded
            else embedded.redis_socket_path(data_dir)
        )
        redis_url = f"unix://{socket_path}"
    elif urlsplit(redis_url).scheme not in {"redis", "rediss", "unix"}:
        raise ImproperlyConfigured("REDIS_URL must start with redis://, rediss:// or unix://")
    return ServiceEndpoints(
        database=database,
        redis_url=redis_url,
        embedded_database=embedded_database,
        embedded_redis=embedded_redis,
    )


def celery_broker_url(redis_url: str) -> str:
    """Celery (kombu) spells a Unix-socket Redis `redis+socket://`; redis-py spells it `unix://`."""
    if redis_url.startswith("unix://"):
        return "redis+socket://" + redis_url.removeprefix("unix://")
    return redis_url
