"""Register imports and webhook deliveries through a killed worker, a broker that is down and
a database that refuses.

Both kinds run on the one lease of background work (common.background). What must hold:

* a worker killed (SIGKILL, with its pool and children) while an attempt holds the lease:
  once the lease has expired, the sweeper queues the work again and a new worker ends it
  (import `completed`, delivery `succeeded`), never left `processing` / `pending`;
* work queued while the broker refuses its task: the row stays queued (nothing lost), and
  once the broker is back the sweeper sends it again and a worker ends it;
* the database refused while an attempt is under way: the attempt cannot
  record its outcome and its task gives up; the lease it holds expires, the sweeper queues
  it again, and once the database is back the delivery succeeds.

The broker's visibility timeout is left at its default (hours), so the task of a killed
worker is not redelivered within the test: what recovers the work is the sweeper alone.
The work is queued and the sweeper run by short processes in the stack's environment
(`in_stack`), so that their tasks go to the stack's broker, as the web server's and beat's
would. The lease of the killed attempt is moved into the past instead of waited for.
"""

from __future__ import annotations

import json
import subprocess
import threading
from collections.abc import Iterator
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from register import work as register_work
from register.models import ProcessingActivity, RegisterImport, Vendor
from tests.support.live_stack import (
    PYTHON,
    ROOT,
    TcpProxy,
    database_url_for,
    postgres_address,
    tail,
    wait_until,
)
from webhooks import work as webhook_work
from webhooks.endpoint_secrets import generate_secret
from webhooks.models import WebhookDelivery, WebhookEndpoint

IMPORT_ENVIRONMENT = {"REGISTER_IMPORT_TIMEOUT_SECONDS": "30"}
WEBHOOK_ENVIRONMENT = {
    "WEBHOOKS_ALLOW_HTTP": "true",
    "WEBHOOKS_ALLOW_PRIVATE": "true",  # the receiver is on loopback
    "WEBHOOK_TIMEOUT_SECONDS": "60",  # the held request outlives the worker
    "WEBHOOK_RETRY_DELAYS_SECONDS": "1,1",
}
REGISTER_CSV = (
    b"Processing activity;Purpose;Legal basis\n"
    b"Payroll;Salary payment;Art. 6(1)(b)\n"
    b"Recruiting;Hiring;Art. 6(1)(b)\n"
)
# Generous bounds for a loaded machine; none of them is a timing assertion.
FINISHED_WITHIN_SECONDS = 180


def in_stack(stack, code: str, **extra: str) -> subprocess.CompletedProcess:  # type: ignore[no-untyped-def]
    """Run `code` in a new process on the stack's database and broker (Django set up)."""
    result = subprocess.run(
        [PYTHON, "-c", f"import django\ndjango.setup()\n{code}"],
        cwd=ROOT,
        env=stack.environment(**extra),
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, result.stderr
    return result


def sweep_in_stack(stack, **extra: str) -> dict[str, dict[str, int]]:  # type: ignore[no-untyped-def]
    """What beat does every minute: the one sweep of every kind, in the stack."""
    code = (
        "import json\n"
        "from common.background.sweeper import sweep_all\n"
        "print(json.dumps(sweep_all()))"
    )
    return json.loads(in_stack(stack, code, **extra).stdout.strip().splitlines()[-1])


def start_import_in_stack(stack, member) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    """Queue an import of REGISTER_CSV as the API does; its id and the process's log."""
    code = f"""
from audit.services import Actor
from organizations.models import Organization
from register.importing.jobs import start_import
content = {REGISTER_CSV!r}
started = start_import(
    organization=Organization.objects.get(pk={str(member.organization.pk)!r}),
    actor=Actor(label="reliability test"),
    file_name="register.csv",
    content=content,
    file_size=len(content),
    dry_run=False,
)
print(started.pk)
"""
    result = in_stack(stack, code, **IMPORT_ENVIRONMENT)
    return result.stdout.strip().splitlines()[-1], result.stderr


def emit_event_in_stack(stack, member) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    """Emit `document.created` to the organization's endpoints; the delivery id and log."""
    code = f"""
import uuid
from webhooks.services import webhook_deliveries_create
deliveries = webhook_deliveries_create(
    event="document.created",
    subject_id=uuid.uuid4(),
    organization_id={str(member.organization.pk)!r},
    data={{}},
)
print(deliveries[0].pk)
"""
    result = in_stack(stack, code, **WEBHOOK_ENVIRONMENT)
    return result.stdout.strip().splitlines()[-1], result.stderr


def expire_lease(model, pk: str) -> None:  # type: ignore[no-untyped-def]
    model.objects.filter(pk=pk).update(lease_expires_at=timezone.now() - timedelta(seconds=1))


def make_overdue(model, pk: str, *, resend_after_seconds: int) -> None:  # type: ignore[no-untyped-def]
    """Due long enough ago for the sweeper to send it again (not long enough to fail it)."""
    due = timezone.now() - timedelta(seconds=resend_after_seconds + 5)
    model.objects.filter(pk=pk).update(due_at=due)


def wait_for_status(model, pk: str, statuses: set[str], worker) -> object:  # type: ignore[no-untyped-def]
    def ended() -> object | None:
        row = model.objects.get(pk=pk)
        return row if row.status in statuses else None

    try:
        return wait_until(ended, timeout=FINISHED_WITHIN_SECONDS, interval=0.5)
    except TimeoutError:
        raise AssertionError((model.objects.get(pk=pk).__dict__, tail(worker.log_path))) from None


# -- register imports ---------------------------------------------------------------------
def test_an_import_whose_worker_was_killed_is_requeued_by_the_sweeper_and_completed(stack, member):
    first_worker = stack.worker(queues="imports", **IMPORT_ENVIRONMENT).start()
    # The import reads the organization's register: while these tables are locked, the
    # claimed attempt (its child process) cannot get past its first read.
    tables = ", ".join(model._meta.db_table for model in (ProcessingActivity, Vendor))
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"LOCK TABLE {tables} IN ACCESS EXCLUSIVE MODE")
        import_id, _ = start_import_in_stack(stack, member)
        wait_until(
            lambda: RegisterImport.objects.get(pk=import_id).lease_state == "leased",
            timeout=FINISHED_WITHIN_SECONDS,
            interval=0.2,
        )
        first_worker.kill()
    held = RegisterImport.objects.get(pk=import_id)
    assert (held.status, held.lease_state, held.attempts) == ("processing", "leased", 1)

    second_worker = stack.worker(queues="imports", **IMPORT_ENVIRONMENT).start()
    # Nothing else brings it back: the killed worker's task is not redelivered for hours.
    expire_lease(RegisterImport, import_id)
    swept = sweep_in_stack(stack, **IMPORT_ENVIRONMENT)
    assert swept[register_work.KIND.name]["requeued"] == 1, swept

    done = wait_for_status(RegisterImport, import_id, {"completed", "failed"}, second_worker)
    assert done.status == "completed", (done.error_code, done.error_message)  # type: ignore[attr-defined]
    assert (done.lease_state, done.attempts) == ("idle", 2)  # type: ignore[attr-defined]
    assert set(
        ProcessingActivity.objects.filter(organization=member.organization).values_list(
            "name", flat=True
        )
    ) == {"Payroll", "Recruiting"}


def test_an_import_queued_while_the_broker_refused_it_stays_queued_and_is_sent_again(stack, member):
    stack.redis.stop()
    import_id, log = start_import_in_stack(stack, member)
    assert "the broker refused the task of register_import" in log, log
    waiting = RegisterImport.objects.get(pk=import_id)
    assert (waiting.status, waiting.lease_state) == ("queued", "queued")

    stack.redis.start()
    worker = stack.worker(queues="imports", **IMPORT_ENVIRONMENT).start()
    assert RegisterImport.objects.get(pk=import_id).lease_state == "queued"
    make_overdue(RegisterImport, import_id, resend_after_seconds=register_work.RESEND_AFTER_SECONDS)
    swept = sweep_in_stack(stack, **IMPORT_ENVIRONMENT)
    assert swept[register_work.KIND.name]["resent"] == 1, swept

    done = wait_for_status(RegisterImport, import_id, {"completed", "failed"}, worker)
    assert done.status == "completed", (done.error_code, done.error_message)  # type: ignore[attr-defined]
    assert done.lease_state == "idle"  # type: ignore[attr-defined]


# -- webhook deliveries -------------------------------------------------------------------
class HeldReceiver(ThreadingHTTPServer):
    """Answers 200 to every POST, but only once `release` is set."""

    daemon_threads = True

    def __init__(self) -> None:
        self.hits = 0
        self.release = threading.Event()
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                return

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with receiver.lock:
                    receiver.hits += 1
                receiver.release.wait(FINISHED_WITHIN_SECONDS)
                try:
                    self.send_response(200)
                    self.end_headers()
                except OSError:
                    pass  # the sender was killed meanwhile

        super().__init__(("127.0.0.1", 0), Handler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/hooks"


@pytest.fixture
def receiver() -> Iterator[HeldReceiver]:
    server = HeldReceiver()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.release.set()
    server.shutdown()
    server.server_close()


def subscribe(member, receiver: HeldReceiver) -> None:  # type: ignore[no-untyped-def]
    endpoint = WebhookEndpoint(
        organization=member.organization, url=receiver.url, events=["document.created"]
    )
    endpoint.set_secret(generate_secret())
    endpoint.save()


def test_a_delivery_whose_worker_was_killed_mid_request_is_requeued_and_succeeds(
    stack, member, receiver
):
    subscribe(member, receiver)
    first_worker = stack.worker(queues="webhooks", **WEBHOOK_ENVIRONMENT).start()
    delivery_id, _ = emit_event_in_stack(stack, member)
    wait_until(lambda: receiver.hits >= 1, timeout=FINISHED_WITHIN_SECONDS, interval=0.2)
    first_worker.kill()
    held = WebhookDelivery.objects.get(pk=delivery_id)
    assert (held.status, held.lease_state, held.attempts) == ("pending", "leased", 1)

    receiver.release.set()  # from now on the receiver answers at once
    second_worker = stack.worker(queues="webhooks", **WEBHOOK_ENVIRONMENT).start()
    expire_lease(WebhookDelivery, delivery_id)
    swept = sweep_in_stack(stack, **WEBHOOK_ENVIRONMENT)
    assert swept[webhook_work.KIND.name]["requeued"] == 1, swept

    done = wait_for_status(
        WebhookDelivery, delivery_id, {"succeeded", "retrying", "failed"}, second_worker
    )
    assert (done.status, done.status_code) == ("succeeded", 200), done.error  # type: ignore[attr-defined]
    assert (done.lease_state, done.attempts) == ("idle", 2)  # type: ignore[attr-defined]
    # The same attempt was made again (no retry row), once more than the killed one.
    assert WebhookDelivery.objects.filter(event_id=done.event_id).count() == 1  # type: ignore[attr-defined]
    assert receiver.hits == 2


def test_a_delivery_queued_while_the_broker_refused_it_stays_queued_and_is_sent_again(
    stack, member, receiver
):
    subscribe(member, receiver)
    receiver.release.set()
    stack.redis.stop()
    delivery_id, log = emit_event_in_stack(stack, member)
    assert "the broker refused the task of webhook" in log, log
    waiting = WebhookDelivery.objects.get(pk=delivery_id)
    assert (waiting.status, waiting.lease_state) == ("pending", "queued")

    stack.redis.start()
    worker = stack.worker(queues="webhooks", **WEBHOOK_ENVIRONMENT).start()
    assert WebhookDelivery.objects.get(pk=delivery_id).lease_state == "queued"
    assert receiver.hits == 0
    make_overdue(
        WebhookDelivery, delivery_id, resend_after_seconds=webhook_work.RESEND_AFTER_SECONDS
    )
    swept = sweep_in_stack(stack, **WEBHOOK_ENVIRONMENT)
    assert swept[webhook_work.KIND.name]["resent"] == 1, swept

    done = wait_for_status(
        WebhookDelivery, delivery_id, {"succeeded", "retrying", "failed"}, worker
    )
    assert (done.status, done.status_code) == ("succeeded", 200), done.error  # type: ignore[attr-defined]
    assert done.lease_state == "idle"  # type: ignore[attr-defined]
    assert receiver.hits == 1


@pytest.fixture
def proxy() -> Iterator[TcpProxy]:
    """A loopback TCP proxy in front of the test database (as in test_faults_database.py)."""
    family, address = postgres_address(settings.DATABASES["default"])
    server = TcpProxy(family, address).start()
    yield server
    server.stop()


def test_a_delivery_whose_database_was_refused_mid_attempt_is_requeued_and_succeeds(
    stack, member, receiver, proxy
):
    subscribe(member, receiver)
    proxied = database_url_for(settings.DATABASES["default"], host="127.0.0.1", port=proxy.port)
    worker = stack.worker(queues="webhooks", DATABASE_URL=proxied, **WEBHOOK_ENVIRONMENT).start()
    delivery_id, _ = emit_event_in_stack(stack, member)
    wait_until(lambda: receiver.hits >= 1, timeout=FINISHED_WITHIN_SECONDS, interval=0.2)

    proxy.mode = "refuse"
    proxy.cut()
    receiver.release.set()  # answered: the attempt now fails to record it
    wait_until(
        lambda: "OperationalError" in worker.log_path.read_text(errors="replace"),
        timeout=FINISHED_WITHIN_SECONDS,
        interval=0.5,
    )
    held = WebhookDelivery.objects.get(pk=delivery_id)
    assert (held.status, held.lease_state, held.attempts) == ("pending", "leased", 1)

    proxy.mode = "forward"
    expire_lease(WebhookDelivery, delivery_id)
    swept = sweep_in_stack(stack, **WEBHOOK_ENVIRONMENT)
    assert swept[webhook_work.KIND.name]["requeued"] == 1, swept

    done = wait_for_status(
        WebhookDelivery, delivery_id, {"succeeded", "retrying", "failed"}, worker
    )
    assert (done.status, done.status_code) == ("succeeded", 200), done.error  # type: ignore[attr-defined]
    assert (done.lease_state, done.attempts) == ("idle", 2)  # type: ignore[attr-defined]
    assert receiver.hits == 2


def lock_waiters() -> int:
    """Backends of this database waiting for a lock (a fresh look, even inside a transaction)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return int(cursor.fetchone()[0])


def test_an_import_whose_database_was_refused_mid_attempt_is_requeued_and_completed(
    stack, member, proxy
):
    proxied = database_url_for(settings.DATABASES["default"], host="127.0.0.1", port=proxy.port)
    worker = stack.worker(queues="imports", DATABASE_URL=proxied, **IMPORT_ENVIRONMENT).start()
    tables = ", ".join(model._meta.db_table for model in (ProcessingActivity, Vendor))
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"LOCK TABLE {tables} IN ACCESS EXCLUSIVE MODE")
        import_id, _ = start_import_in_stack(stack, member)
        wait_until(
            lambda: RegisterImport.objects.get(pk=import_id).lease_state == "leased",
            timeout=FINISHED_WITHIN_SECONDS,
            interval=0.2,
        )
        # The attempt's child is past its claim and waits for the register's tables.
        wait_until(lock_waiters, timeout=FINISHED_WITHIN_SECONDS, interval=0.2)
        proxy.mode = "refuse"
        proxy.cut()
    # The child loses its connection and cannot record a failure; nor can the worker, whose
    # database retries (ServiceTask) all meet the refusing proxy until the task gives up.
    try:
        wait_until(
            # Its give-up hook (failing the import) met the refused database too: the
            # task is over, nothing of it will run again.
            lambda: "in _give_up" in worker.log_path.read_text(errors="replace"),
            timeout=FINISHED_WITHIN_SECONDS,
            interval=0.5,
        )
    except TimeoutError:
        raise AssertionError(tail(worker.log_path, 400)) from None
    held = RegisterImport.objects.get(pk=import_id)
    assert (held.status, held.lease_state, held.attempts) == ("processing", "leased", 1)
    assert not ProcessingActivity.objects.filter(organization=member.organization).exists()

    proxy.mode = "forward"
    expire_lease(RegisterImport, import_id)
    swept = sweep_in_stack(stack, **IMPORT_ENVIRONMENT)
    assert swept[register_work.KIND.name]["requeued"] == 1, swept

    done = wait_for_status(RegisterImport, import_id, {"completed", "failed"}, worker)
    assert done.status == "completed", (done.error_code, done.error_message)  # type: ignore[attr-defined]
    assert (done.lease_state, done.attempts) == ("idle", 2)  # type: ignore[attr-defined]
    assert set(
        ProcessingActivity.objects.filter(organization=member.organization).values_list(
            "name", flat=True
        )
    ) == {"Payroll", "Recruiting"}
