"""The import's own process: a worker runs each import in a child bounded in memory and time.

Real processes on the test database (committed rows: transactional). A child out of memory
or out of time fails the import with what happened, writes nothing, and leaves no file.
"""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings

from audit.services import Actor
from register.importing import jobs
from register.models import ProcessingActivity, RegisterImport
from register.tasks import run_register_import_task
from tests.conftest import database_url, make_caller

pytestmark = pytest.mark.django_db(transaction=True)

CSV = b"Processing activity;Purpose;Legal basis\nPayroll;Salary;Art. 6(1)(b)\n"


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> str:
    """A queued import of CSV (no broker: the test runs the task), the child on this database."""
    monkeypatch.setenv("DATABASE_URL", database_url(django_settings.DATABASES["default"]))
    monkeypatch.setenv("DJANGO_SETTINGS_MODULE", "config.settings.test")
    monkeypatch.setattr(run_register_import_task, "apply_async", lambda *args, **options: None)
    caller = make_caller()
    register_import = jobs.start_import(
        organization=caller.organization, actor=Actor(label="t"), file_name="register.csv",
        content=CSV, file_size=len(CSV), dry_run=False,
    )  # fmt: skip
    return str(register_import.pk)


def test_a_worker_runs_the_import_in_its_child_process(queued):
    run_register_import_task.apply(args=[queued], throw=True)

    register_import = RegisterImport.objects.get(pk=queued)
    assert register_import.status == "completed", register_import.error_message
    assert register_import.result["totals"]["created"] == 1
    assert register_import.file_key == ""
    assert ProcessingActivity.objects.filter(name="Payroll").exists()


def test_a_child_out_of_memory_fails_the_import_and_writes_nothing(queued, settings):
    settings.REGISTER_IMPORT_MEMORY_LIMIT_MB = 64  # below what the loaded child already maps

    run_register_import_task.apply(args=[queued], throw=True)

    register_import = RegisterImport.objects.get(pk=queued)
    assert (register_import.status, register_import.error_code) == ("failed", "IMPORT_TOO_LARGE")
    assert "64 MiB" in register_import.error_message
    assert register_import.file_key == ""
    assert not ProcessingActivity.objects.exists()


def test_a_child_out_of_time_is_killed_and_fails_the_import(queued, settings):
    settings.REGISTER_IMPORT_TIMEOUT_SECONDS = 0  # no child can even load Django in it

    run_register_import_task.apply(args=[queued], throw=True)

    register_import = RegisterImport.objects.get(pk=queued)
    assert (register_import.status, register_import.error_code) == ("failed", "IMPORT_TIMEOUT")
    assert register_import.file_key == ""
    assert not ProcessingActivity.objects.exists()
