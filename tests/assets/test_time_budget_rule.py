"""The rule of an asset's processing time budget (assets.time_budget), without a database."""

from __future__ import annotations

import pytest
from django.conf import settings

from assets.time_budget import (
    GRACE_SECONDS,
    MIB,
    asset_budget_seconds,
    asset_time_limits,
    processing_budget_seconds,
)
from config.celery import app as celery_app


def budget(file_size: int | None, *, base: int = 1800, per_mb: int = 90) -> int:
    return processing_budget_seconds(file_size=file_size, base_seconds=base, seconds_per_mb=per_mb)


@pytest.mark.parametrize("file_size", [None, 0, -5])
def test_a_file_of_no_known_size_gets_the_base(file_size):
    assert budget(file_size) == 1800


def test_every_started_mib_adds_its_seconds_rounded_up():
    assert budget(1) == 1801
    assert budget(MIB) == 1890
    assert budget(MIB + 1) == 1891
    assert budget(100 * MIB) == 10_800


def test_the_budget_never_shrinks_as_the_file_grows():
    sizes = [0, 1, 1000, MIB - 1, MIB, 7 * MIB + 3, 50 * MIB, 100 * MIB]
    budgets = [budget(size) for size in sizes]
    assert budgets == sorted(budgets)


def test_no_seconds_per_mb_is_the_old_fixed_budget():
    assert budget(100 * MIB, per_mb=0) == budget(1, per_mb=0) == 1800


def test_the_hard_limit_follows_the_soft_one_by_the_grace(settings):
    settings.ASSET_PROCESSING_TIMEOUT_SECONDS = 600
    settings.ASSET_PROCESSING_SECONDS_PER_MB = 10

    limits = asset_time_limits(file_size=3 * MIB)

    assert asset_budget_seconds(file_size=3 * MIB) == 630
    assert limits.soft_time_limit == 630
    assert limits.time_limit == 630 + GRACE_SECONDS


def test_the_default_budget_of_the_largest_upload_covers_the_local_models_need():
    # Measured (docs/MEASUREMENTS.md, "Large files"): ~124,000 chunks per 100 MiB, ~24
    # chunks/s with the local MiniLM model on 2 idle cores: ~5,700 s. The default leaves at
    # least half again.
    largest = asset_budget_seconds(file_size=settings.ASSET_MAX_UPLOAD_BYTES)

    assert largest >= 1.5 * 5700


def test_the_broker_does_not_deliver_again_while_the_largest_upload_may_be_processed():
    hard_limit = asset_time_limits(file_size=settings.ASSET_MAX_UPLOAD_BYTES).time_limit
    visibility_timeout = celery_app.conf.broker_transport_options["visibility_timeout"]

    # A look later at a running attempt (countdown) waits up to a hard limit, then runs one.
    assert visibility_timeout > 2 * hard_limit
