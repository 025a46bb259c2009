"""Fixtures shared by the whole suite: organizations, members, authenticated API clients.

PostgreSQL and Redis are real: `make test` starts the embedded servers (or uses
DATABASE_URL / REDIS_URL), and config/pytest_plugin.py does the same (before the settings
are read, which only read the URLs) when pytest is run directly.

Tiers: the tests of tests/e2e, tests/browser and tests/reliability are marked `e2e`,
`browser` and `reliability` (the load tests also `load`, like the 100 MB ingestion test);
`make test-fast` runs the rest.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache
from rest_framework.test import APIClient

from organizations.models import Membership, Role
from tests.factories import MembershipFactory, OrganizationFactory, issue_key

TIERS_BY_FOLDER = {"e2e": "e2e", "browser": "browser", "reliability": "reliability"}
LOAD_TEST_FILES = {"test_load.py"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    tests_dir = Path(__file__).resolve().parent
    for item in items:
        if not item.path.resolve().is_relative_to(tests_dir):
            continue
        relative = item.path.resolve().relative_to(tests_dir)
        tier = TIERS_BY_FOLDER.get(relative.parts[0]) if len(relative.parts) > 1 else None
        if tier:
            item.add_marker(getattr(pytest.mark, tier))
        if tier == "reliability" and relative.name in LOAD_TEST_FILES:
            item.add_marker(pytest.mark.load)


@dataclass
class Caller:
    """A member of an organization with an API client already carrying their key."""

    membership: Membership
    key: str
    client: APIClient

    @property
    def organization(self):  # type: ignore[no-untyped-def]
        return self.membership.organization


def make_caller(role: str = Role.DPO, organization=None) -> Caller:  # type: ignore[no-untyped-def]
    membership = MembershipFactory(role=role, organization=organization or OrganizationFactory())
    key = issue_key(membership)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    return Caller(membership=membership, key=key, client=client)


@pytest.fixture(scope="session", autouse=True)
def _flush_can_empty_the_audit_trail() -> Iterator[None]:
    """Transactional tests end with Django's flush, one TRUNCATE of every table; the audit
    table refuses TRUNCATE (audit migration 0004), so the test flush lifts that trigger for
    its own transaction. Nothing outside the test harness flushes."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    original = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, **options):  # type: ignore[no-untyped-def]
        statements = original(self, style, tables, **options)
        if statements and "audit_auditevent" in tables:
            trigger = "audit_event_no_truncate"
            return [
                f"ALTER TABLE audit_auditevent DISABLE TRIGGER {trigger};",
                *statements,
                f"ALTER TABLE audit_auditevent ENABLE TRIGGER {trigger};",
            ]
        return statements

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(DatabaseOperations, "sql_flush", sql_flush)
        yield


@pytest.fixture(autouse=True)
def _fresh_rate_limits() -> Iterator[None]:
    """Each test starts with untouched rate-limit budgets (they live in Redis)."""
    cache.clear()
    yield


@pytest.fixture
def dpo(db) -> Caller:  # type: ignore[no-untyped-def]
    """A DPO of a new business-plan organization, with an API client."""
    return make_caller(Role.DPO)


@pytest.fixture
def auditor(dpo: Caller) -> Caller:
    """An auditor of the same organization as `dpo`."""
    return make_caller(Role.AUDITOR, organization=dpo.organization)


@pytest.fixture
def org_admin(dpo: Caller) -> Caller:
    """An admin of the same organization as `dpo`."""
    return make_caller(Role.ADMIN, organization=dpo.organization)


@pytest.fixture
def outsider(db) -> Caller:  # type: ignore[no-untyped-def]
    """A DPO of another organization."""
    return make_caller(Role.DPO)


@pytest.fixture
def anonymous() -> APIClient:
    return APIClient()


@pytest.fixture
def staleness_task_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """`mark_stale_task`, enqueued on commit of a register write, runs in this process at once.

    No worker runs in most tests. The arguments still go through JSON as through the broker
    (the strict kind: an id that is not a string fails), and the task runs through Celery
    (`apply`, its error raised). Every other task still goes to the broker.
    """
    from legal_documents.tasks import mark_stale_task

    def run_here(*args: object) -> None:
        mark_stale_task.apply(args=json.loads(json.dumps(args)), throw=True)

    monkeypatch.setattr(mark_stale_task, "delay", run_here)


def database_url(settings_dict: dict) -> str:
    """A DATABASE_URL for another process to reach the database these settings describe."""
    host = settings_dict.get("HOST") or settings_dict.get("OPTIONS", {}).get("host", "")
    user = settings_dict.get("USER") or ""
    password = settings_dict.get("PASSWORD") or ""
    credentials = f"{user}:{password}@" if password else f"{user}@"
    if host.startswith("/"):
        return f"postgresql://{credentials}/{settings_dict['NAME']}?host={host}"
    port = settings_dict.get("PORT") or 5432
    return f"postgresql://{credentials}{host}:{port}/{settings_dict['NAME']}"


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, django_db_blocker) -> Iterator[subprocess.Popen]:  # type: ignore[no-untyped-def]
    """A real Celery worker (prefork, 2 processes) on the test database and the real Redis.

    Tests that use it need `transactional_db`, so that the worker sees their rows.
    """
    from config.celery import app

    env = {
        **os.environ,
        "DATABASE_URL": database_url(settings.DATABASES["default"]),
        "REDIS_URL": settings.REDIS_URL,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
    }
    log_path = Path(settings.DATA_DIR) / "test-worker.log"
    with log_path.open("ab") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel", "INFO",
             "--concurrency", "2", "--queues", ",".join(settings.CELERY_WORKER_QUEUES),
             "--hostname", f"test-{os.getpid()}@%h", "--without-mingle", "--without-gossip"],
            env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    app.control.purge()  # tasks left by an earlier, interrupted run must not reach this worker
    deadline = time.monotonic() + 60
    while not app.control.ping(timeout=0.5):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(f"The Celery worker did not start; see {log_path}")
    yield process
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.fixture
def register_imports_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """A register import runs in this process as soon as it is queued.

    No worker runs in most tests, and a child process could not see the test's uncommitted
    rows: the import is claimed and executed here, at once (not after commit), through the
    same jobs as in a worker (register.importing.jobs). The child process and the task are
    tested on their own (tests/register/test_import_jobs.py, tests/reliability).
    """
    from register.importing import jobs

    def run_here(import_id: str) -> None:
        token = jobs.claim(import_id=import_id)
        if token is not None:
            jobs.execute(import_id=import_id, token=token)

    monkeypatch.setattr(jobs, "after_commit", lambda function: function())
    monkeypatch.setattr(jobs, "send", run_here)
