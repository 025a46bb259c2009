"""Fixtures shared by the whole suite: organizations, members, authenticated API clients.

PostgreSQL and Redis are real. config/pytest_plugin.py plans the embedded servers of
.data/test (or uses DATABASE_URL / REDIS_URL) before the settings are read, and starts each
one when the first test needing it runs: `django_db_setup` below needs the database, every
test but the framework-free ones (tests/gdpr) needs Redis. `pytest tests/gdpr` starts none.

Tiers, by what a test costs rather than by folder (`pytest_collection_modifyitems`):

- a cost marker, from the fixtures a test uses (COSTLY_FIXTURES: a worker, a live server,
  a browser, a real model) or written on the test: `live` (it starts a process: uvicorn, a
  worker, `make run`, a pytest), `browser`, `model` (MiniLM, e5-small), `tool` (a Debian
  tool `make system-deps` installs as root: msgfmt, openssl, caddy, pg_dump), `load`;
- or a measurement: the test functions of tests/slow_tests.txt, over 0.5 s on the shared
  2-core machine (tests/support/measured_slow.py rebuilds the entries from a JUnit report;
  tests/common/test_test_tiers.py checks that each names an existing test);
- every such test is also marked `slow`. `make test-fast` runs `-m "not slow"`: no root,
  no browser, no worker, no model. `make test` runs everything.

The folders e2e, browser and reliability also mark their tests with their topic (`-m
reliability`), which says nothing of the tier: a cheap reliability test is fast.
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
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from rest_framework.test import APIClient

from organizations.models import Membership, Role
from tests.factories import MembershipFactory, OrganizationFactory, issue_key

TESTS_DIR = Path(__file__).resolve().parent
# The tests of the framework-free package gdpr/: no Redis, no database, nothing started.
FRAMEWORK_FREE_TESTS = TESTS_DIR / "gdpr"
# What a folder's tests are about (`-m reliability` selects them); not what they cost.
TOPICS_BY_FOLDER = {"e2e": "e2e", "browser": "browser", "reliability": "reliability"}
LOAD_TEST_FILES = {"test_load.py"}
# Fixtures that start a process or a browser, and the cost marker they bring.
COSTLY_FIXTURES = {
    "celery_worker_process": "live",  # a Celery worker
    "live_server": "live",  # pytest-django's server thread, reached over loopback
    "stack": "live",  # tests/reliability: a Redis of the test's own, web servers, workers
    "service": "live",  # tests/e2e/test_seed_conformance.py: uvicorn and a worker
    "admin_server": "live",  # tests/browser
    "playwright_driver": "browser",  # tests/browser: Chromium
    "local_provider": "model",  # tests/assets/test_embeddings_providers.py: MiniLM
    "e5": "model",  # tests/assets/test_embeddings_e5.py: multilingual-e5-small
}
# The markers of a cost; each one also brings `slow`, which `make test-fast` leaves out.
COST_MARKERS = ("live", "browser", "model", "tool", "load")
# Test functions measured slow that no cost marker covers (tests/support/measured_slow.py).
MEASURED_SLOW = TESTS_DIR / "slow_tests.txt"
# Modules whose every test is `slow` and whose collection alone is costly: schemathesis
# builds the cases of 51 operations from the OpenAPI schema while collecting (~25 s of
# `make test-fast`'s ~45 s of collection). A run that leaves `slow` out does not collect them.
SLOW_TO_COLLECT = {Path("reliability") / "test_schemathesis.py"}
# The markers the modules above carry: their folder's topic, their cost.
SLOW_TO_COLLECT_MARKERS = {"reliability", "slow"}


def measured_slow() -> set[str]:
    """The `tests/path.py::test_name` entries of tests/slow_tests.txt."""
    lines = (line.split("#")[0].strip() for line in MEASURED_SLOW.read_text().splitlines())
    return {line for line in lines if line}


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    path = collection_path.resolve()
    if not path.is_relative_to(TESTS_DIR) or path.relative_to(TESTS_DIR) not in SLOW_TO_COLLECT:
        return None
    markexpr = config.getoption("markexpr", "")
    if not markexpr:
        return None
    from _pytest.mark.expression import Expression  # pytest's own -m parser

    selected = Expression.compile(markexpr).evaluate(
        lambda name, **_: name in SLOW_TO_COLLECT_MARKERS
    )
    return True if not selected else None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    slow_functions = measured_slow()
    for item in items:
        path = item.path.resolve()
        if not path.is_relative_to(TESTS_DIR):
            continue
        relative = path.relative_to(TESTS_DIR)
        topic = TOPICS_BY_FOLDER.get(relative.parts[0]) if len(relative.parts) > 1 else None
        if topic:
            item.add_marker(getattr(pytest.mark, topic))
        if topic == "reliability" and relative.name in LOAD_TEST_FILES:
            item.add_marker(pytest.mark.load)
        for fixture in COSTLY_FIXTURES.keys() & set(getattr(item, "fixturenames", ())):
            item.add_marker(getattr(pytest.mark, COSTLY_FIXTURES[fixture]))
        if item.nodeid.split("[")[0] in slow_functions or any(
            item.get_closest_marker(cost) for cost in COST_MARKERS
        ):
            item.add_marker(pytest.mark.slow)


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


@pytest.fixture(scope="session")
def django_db_setup(local_database, django_db_setup) -> Iterator[None]:  # type: ignore[no-untyped-def]
    """pytest-django's test database, on the embedded PostgreSQL started on first need
    (config/pytest_plugin.py): a run of tests that need no database starts none."""
    yield


@pytest.fixture(autouse=True)
def _fresh_rate_limits(request: pytest.FixtureRequest) -> Iterator[None]:
    """Each test starts with untouched rate-limit budgets (they live in Redis).

    The framework-free tests (tests/gdpr) use no Redis: none is started for them."""
    if not request.node.path.resolve().is_relative_to(FRAMEWORK_FREE_TESTS):
        request.getfixturevalue("local_redis")
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
    tested on their own (tests/register/test_import_jobs.py, tests/reliability). Other
    kinds of background work are still sent on commit.
    """
    from common.background import leases
    from register.importing import jobs
    from register.work import KIND

    send_on_commit = leases.send_on_commit

    def run_here(kind: Any, pk: Any, *, delay: float = 0) -> None:
        if kind.name != KIND.name:
            send_on_commit(kind, pk, delay=delay)
            return
        token = jobs.claim(import_id=str(pk))
        if token is not None:
            jobs.execute(import_id=str(pk), token=token)

    monkeypatch.setattr(leases, "send_on_commit", run_here)
