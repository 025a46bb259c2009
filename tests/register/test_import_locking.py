"""An import never holds up the other requests of its organization (issue 25, item 3).

The import locked the organization row FOR UPDATE for the whole import: every audited
request of the organization (an audit insert takes the foreign key's KEY SHARE lock on that
row) then waited until the import ended. Here one thread imports and stops half way (while
planning, and while writing its first entry); another connection appends an audit event of
the same organization under a short lock_timeout: it must not wait.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction

from audit.services import Actor, record_event
from organizations.models import Organization
from register import importing, services
from register.models import Vendor

pytestmark = pytest.mark.django_db(transaction=True)

CSV = b"Vendor;Country\nAcme Cloud GmbH;Germany\nBeta Hosting SE;France\n"


def pause_in(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> tuple[Any, Any]:
    """Make `module.name` stop on its first call until released; (reached, release)."""
    reached, release = threading.Event(), threading.Event()
    original: Callable[..., Any] = getattr(module, name)

    def paused(*args: Any, **kwargs: Any) -> Any:
        if not reached.is_set():
            reached.set()
            assert release.wait(30), "the test never released the import"
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, paused)
    return reached, release


def audited_request_of(organization: Organization) -> None:
    """What every audited request of the organization does, refusing to wait for a lock."""
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL lock_timeout = '2s'")
        record_event(organization=organization, actor=Actor(label="member"), action="x.read")


@pytest.mark.parametrize(
    ("module", "name"), [(importing, "build_plan"), (services, "save_entry")],
    ids=["while-planning", "while-writing"],
)  # fmt: skip
def test_an_audited_request_of_the_organization_is_not_blocked_by_a_running_import(
    monkeypatch, module, name
):
    organization = Organization.objects.create(name="Acme", slug="acme-locking")
    reached, release = pause_in(monkeypatch, module, name)
    failures: list[BaseException] = []

    def run_import() -> None:
        try:
            importing.import_register(
                organization=organization, content=CSV, file_name="vendors.csv",
                actor=Actor(label="importer"), dry_run=False,
            )  # fmt: skip
        except BaseException as error:  # reported by the test thread
            failures.append(error)
        finally:
            connection.close()

    importer = threading.Thread(target=run_import)
    importer.start()
    try:
        assert reached.wait(30), failures
        audited_request_of(organization)
    finally:
        release.set()
        importer.join(60)
    assert not failures, failures
    assert sorted(Vendor.objects.values_list("name", flat=True)) == [
        "Acme Cloud GmbH",
        "Beta Hosting SE",
    ]
