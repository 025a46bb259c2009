"""pytest plugin (`-p config.pytest_plugin` in pyproject.toml): the local stack before Django.

pytest-django loads the settings inside `pytest_load_initial_conftests`, long before any
conftest.py runs, and the settings start nothing: they read DATABASE_URL, REDIS_URL,
SECRET_KEY and EVIDENCE_SIGNING_KEY (among other variables) as they find them. So that
`pytest` run directly works like `make test`, this hook wraps pytest-django's and first
starts (or reuses) the embedded servers of .data/test (config/local_stack.py). Under
`make test` the launcher has already set everything and this does nothing. The servers are
left running for the next run, as `manage.py` leaves them.
"""

from __future__ import annotations

import os
from collections.abc import Generator
from typing import Any

import pytest

from config import local_stack


@pytest.hookimpl(wrapper=True)
def pytest_load_initial_conftests(early_config: pytest.Config) -> Generator[None, Any, Any]:
    options = early_config.known_args_namespace
    if getattr(options, "help", False) or getattr(options, "version", False):
        return (yield)
    settings_module = (
        getattr(options, "ds", None)
        or os.environ.get("DJANGO_SETTINGS_MODULE")
        or early_config.getini("DJANGO_SETTINGS_MODULE")
    )
    local_stack.prepare_for(settings_module)
    return (yield)
