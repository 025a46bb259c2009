"""pytest plugin (`-p config.pytest_plugin` in pyproject.toml): the local stack before Django.

pytest-django loads the settings inside `pytest_load_initial_conftests`, long before any
conftest.py runs, and the settings start nothing: they read DATABASE_URL, REDIS_URL, SECRET_KEY and
EVIDENCE_SIGNING_KEY (among other variables) as they find them. So this
hook wraps pytest-django's and first plans the embedded servers of .data/test
(config/local_stack.py): their URLs and the local keys are exported, nothing is started.
A server starts when the first test needing it runs: the session fixtures `local_database`
(which tests/conftest.py's `django_db_setup` needs) and `local_redis`. So `pytest
tests/gdpr` (framework-free, no database) starts no server at all. The servers are left
running for the next run, as `manage.py` leaves them; `make test` stops them at the end.
A URL set in the environment (CI's own PostgreSQL) is used as it is: nothing is started.

The settings are `--ds`, else DJANGO_SETTINGS_MODULE as the process received it, else the
ini file's (config.settings.test), never the base settings `config/celery.py` defaults to.
"""

from __future__ import annotations

import os
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

from config import local_stack

# The stack planned for this session; None for settings that never use the local stack.
_stack: local_stack.LocalStack | None = None


@pytest.hookimpl(wrapper=True)
def pytest_load_initial_conftests(early_config: pytest.Config) -> Generator[None, Any, Any]:
    global _stack
    options = early_config.known_args_namespace
    if getattr(options, "help", False) or getattr(options, "version", False):
        return (yield)
    settings_module = (
        getattr(options, "ds", None)
        or _started_with("DJANGO_SETTINGS_MODULE")
        or early_config.getini("DJANGO_SETTINGS_MODULE")
    )
    # pytest-django prefers the variable to the ini file, and importing this plugin imported
    # `config`, whose Celery app set it to the base settings (config/celery.py).
    os.environ["DJANGO_SETTINGS_MODULE"] = settings_module
    _stack = local_stack.plan_for(settings_module)
    return (yield)


def _started_with(name: str) -> str | None:
    """The variable as this process received it, before any import changed os.environ
    (Linux keeps the starting environment in /proc; elsewhere, os.environ as it is)."""
    try:
        initial = Path("/proc/self/environ").read_bytes().split(b"\0")
    except OSError:
        return os.environ.get(name)
    prefix = f"{name}=".encode()
    values = [entry[len(prefix) :].decode() for entry in initial if entry.startswith(prefix)]
    return values[0] if values else None


@pytest.fixture(scope="session")
def local_database() -> None:
    """The embedded PostgreSQL of the planned stack, started (or reused) on first need."""
    if _stack is not None:
        _stack.start(database=True, redis=False)


@pytest.fixture(scope="session")
def local_redis() -> None:
    """The embedded Redis of the planned stack, started (or reused) on first need."""
    if _stack is not None:
        _stack.start(database=False, redis=True)
