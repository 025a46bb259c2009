"""The one lease of background work (common.background), on a test-only kind of work."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from common.background import kinds, leases, slots, sweeper
from common.background.fields import LeaseState
from common.background.kinds import WorkKind
from tests.background_app.models import Chore

pytestmark = pytest.mark.django_db(transaction=True)


class BrokerDownError(Exception):
    pass


class RefusedError(Exception):
    def __init__(self, running: int, limit: int) -> None:
        super().__init__(f"{running} of {limit}")
        self.running, self.limit = running, limit


@pytest.fixture
def sent() -> list[tuple[str, float]]:
    return []


@pytest.fixture
def kind(sent):  # type: ignore[no-untyped-def]
    """The test-only kind, registered for the test and removed after (the sweeper of later
    tests must not find it)."""

    def send(pk: str, countdown: float) -> None:
        sent.append((pk, countdown))

    def end_failed(row: Chore, reason: str) -> None:
        row.status = f"failed:{reason}"
        row.save(update_fields=["status"])

    yield kinds.register(
        WorkKind(
            name="chore",
            model=Chore,
            send=send,
            lease_seconds=lambda row: 60,
            end_failed=end_failed,
            max_attempts=2,
            resend_after_seconds=300,
            max_queued_seconds=3600,
        )
    )
    kinds.unregister("chore")


def queued_chore(kind: WorkKind, **fields) -> Chore:  # type: ignore[no-untyped-def]
    with transaction.atomic():
        chore = Chore(**fields)
        leases.queue(kind, chore)
    return chore


def test_queued_work_is_sent_once_the_transaction_commits(kind, sent):
    with transaction.atomic():
        chore = Chore()
        leases.queue(kind, chore)
        assert sent == []
    assert sent == [(str(chore.pk), 0)]
    chore.refresh_from_db()
    assert chore.lease_state == LeaseState.QUEUED


def test_a_rolled_back_transaction_sends_nothing(kind, sent):
    with pytest.raises(RuntimeError), transaction.atomic():
        leases.queue(kind, Chore())
        raise RuntimeError
    assert sent == []
    assert not Chore.objects.exists()


def test_a_broker_refusal_leaves_the_work_queued_for_the_sweeper(kind, sent):
    def refuse(pk: str, countdown: float) -> None:
        raise BrokerDownError

    refusing = kinds.register(
        WorkKind(
            name="chore",
            model=Chore,
            send=refuse,
            lease_seconds=lambda row: 60,
            end_failed=kind.end_failed,
        )
    )
    chore = queued_chore(refusing)
    chore.refresh_from_db()
    assert chore.lease_state == LeaseState.QUEUED
    assert chore.status == "waiting"


def test_one_attempt_holds_the_lease_and_a_second_claim_waits_for_its_expiry(kind):
    chore = queued_chore(kind)
    lease = leases.claim(kind, chore.pk)
    assert lease is not None
    with pytest.raises(leases.LeaseHeldError) as held:
        leases.claim(kind, chore.pk)
    assert 0 < held.value.seconds_left <= 60


def test_only_the_holder_ends_the_work_and_ended_work_is_not_run_again(kind):
    chore = queued_chore(kind)
    lease = leases.claim(kind, chore.pk)
    with transaction.atomic():
        assert leases.holding(kind, chore.pk, "00000000-0000-0000-0000-000000000000") is None
        row = leases.holding(kind, chore.pk, lease.token)
        row.status = "done"
        row.save(update_fields=["status"])
        leases.finish(row)
    assert leases.claim(kind, chore.pk) is None
    chore.refresh_from_db()
    assert (chore.status, chore.lease_state, chore.lease_token) == ("done", "idle", None)


def test_a_claim_for_other_work_than_the_row_now_carries_finds_nothing(kind):
    chore = queued_chore(kind, owner="acme")
    assert leases.claim(kind, chore.pk, owner="globex") is None
    assert leases.claim(kind, chore.pk, owner="acme") is not None


def test_an_expired_lease_is_queued_again_then_failed_once_its_attempts_are_spent(kind, sent):
    chore = queued_chore(kind)
    for attempt in (1, 2):
        assert leases.claim(kind, chore.pk) is not None
        Chore.objects.filter(pk=chore.pk).update(lease_expires_at=timezone.now())
        counts = sweeper.sweep(kind)
        chore.refresh_from_db()
        if attempt == 1:
            assert counts["requeued"] == 1
            assert chore.lease_state == LeaseState.QUEUED
        else:
            assert counts["failed"] == 1
            assert (chore.status, chore.lease_state) == ("failed:interrupted", "idle")
    assert len(sent) == 2  # queued, then requeued once


def test_work_queued_again_gets_the_kinds_own_waiting_status(kind, sent):
    def waiting_again(row: Chore) -> None:
        row.status = "waiting again"
        row.save(update_fields=["status"])

    kind = kinds.register(dataclasses.replace(kind, requeued=waiting_again))
    expired, handed_back = queued_chore(kind), queued_chore(kind)
    assert leases.claim(kind, expired.pk) is not None
    Chore.objects.filter(pk=expired.pk).update(lease_expires_at=timezone.now())
    assert sweeper.sweep(kind)["requeued"] == 1
    lease = leases.claim(kind, handed_back.pk)
    assert leases.hand_back(kind, handed_back.pk, lease.token)

    for chore in (expired, handed_back):
        chore.refresh_from_db()
        assert (chore.status, chore.lease_state) == ("waiting again", LeaseState.QUEUED)


def test_a_claim_after_the_last_attempt_fails_the_work_instead_of_running_it(kind):
    chore = queued_chore(kind)
    Chore.objects.filter(pk=chore.pk).update(attempts=2)
    assert leases.claim(kind, chore.pk) is None
    chore.refresh_from_db()
    assert chore.status == "failed:interrupted"


def test_work_whose_task_was_lost_is_sent_again_and_work_never_sent_ends_failed(kind, sent):
    lost = queued_chore(kind)
    never_sent = queued_chore(kind)
    now = timezone.now()
    Chore.objects.filter(pk=lost.pk).update(due_at=now - timedelta(seconds=301))
    Chore.objects.filter(pk=never_sent.pk).update(due_at=now - timedelta(seconds=3601))
    sent.clear()
    counts = sweeper.sweep(kind)
    assert counts == {"requeued": 0, "failed": 1, "resent": 1}
    assert sent == [(str(lost.pk), 0)]
    never_sent.refresh_from_db()
    assert never_sent.status == "failed:unsent"


def test_work_due_later_is_sent_with_its_countdown_and_not_swept_before(kind, sent):
    with transaction.atomic():
        chore = Chore()
        leases.queue(kind, chore, delay=3600)
    assert sent == [(str(chore.pk), 3600)]
    assert sweeper.sweep(kind) == {"requeued": 0, "failed": 0, "resent": 0}


def test_handed_back_work_is_queued_at_once_and_its_attempt_not_counted(kind, sent):
    chore = queued_chore(kind)
    lease = leases.claim(kind, chore.pk)
    assert leases.hand_back(kind, chore.pk, lease.token)
    chore.refresh_from_db()
    assert (chore.lease_state, chore.attempts) == ("queued", 0)
    assert len(sent) == 2
    assert not leases.hand_back(kind, chore.pk, lease.token)


def test_work_handed_back_for_the_tasks_own_retry_is_claimable_again_and_nothing_sent(kind, sent):
    chore = queued_chore(kind)
    sent.clear()
    lease = leases.claim(kind, chore.pk)
    assert leases.hand_back(kind, chore.pk, lease.token, send=False)
    assert sent == []
    chore.refresh_from_db()
    assert (chore.lease_state, chore.attempts) == ("queued", 0)
    assert leases.claim(kind, chore.pk) is not None  # the retry runs, no lease in its way


def test_one_kind_whose_sweep_fails_does_not_stop_the_others(kind):
    broken = kinds.register(
        WorkKind(
            name="broken",
            model=object,
            send=kind.send,  # type: ignore[arg-type]
            lease_seconds=lambda row: 1,
            end_failed=kind.end_failed,
        )
    )
    try:
        counts = sweeper.sweep_all()
    finally:
        kinds.unregister(broken.name)
    assert "chore" in counts and "broken" not in counts


def test_a_slot_is_refused_past_the_limit_of_running_work():
    Chore.objects.create(status="running")
    owner = Chore.objects.create(status="owner")
    running = Chore.objects.filter(status="running")
    with transaction.atomic():
        slots.claim_slot(owner=owner, running=running, limit=2, refuse=RefusedError)
    Chore.objects.create(status="running")
    with pytest.raises(RefusedError) as refused, transaction.atomic():
        slots.claim_slot(owner=owner, running=running, limit=2, refuse=RefusedError)
    assert (refused.value.running, refused.value.limit) == (2, 2)


def test_work_sent_again_is_not_sent_again_before_another_interval_nor_failed_as_unsent(kind, sent):
    # A long backlog: the broker takes every send, the workers are busy for hours.
    waiting = queued_chore(kind)
    Chore.objects.filter(pk=waiting.pk).update(due_at=timezone.now() - timedelta(seconds=301))
    sent.clear()
    assert sweeper.sweep(kind)["resent"] == 1
    assert sweeper.sweep(kind)["resent"] == 0  # not again at the next sweep
    Chore.objects.filter(pk=waiting.pk).update(due_at=timezone.now() - timedelta(seconds=301))
    assert sweeper.sweep(kind)["resent"] == 1  # the next interval
    waiting.refresh_from_db()
    assert (waiting.status, waiting.lease_state) == ("waiting", LeaseState.QUEUED)
    assert len(sent) == 2


def test_queued_work_whose_task_is_on_its_way_is_not_sent_twice(kind, sent):
    chore = queued_chore(kind)
    lease = leases.claim(kind, chore.pk)
    sent.clear()
    with transaction.atomic():
        row = leases.holding(kind, chore.pk, lease.token)
        leases.queue(kind, row, fresh=False, send=False)  # the task retries by itself
    assert sent == []
    chore.refresh_from_db()
    assert (chore.lease_state, chore.attempts) == (LeaseState.QUEUED, 1)
    assert leases.claim(kind, chore.pk) is not None
