"""The rule of an asset's processing time budget (assets.time_budget), without a database."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

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

ROOT = Path(__file__).resolve().parents[2]


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


# What the largest upload (100 MiB of CSV, ~124,000 chunks) needs with each local model on 2
# idle cores (docs/MEASUREMENTS.md, "Large files"): MiniLM embeds ~24 chunks/s, ~5,700 s;
# multilingual-e5-small ~4.5 chunks/s (0.24x MiniLM, bench/results/
# embeddings_multilingual.json), ~28,000 s with the storing.
LARGEST_UPLOAD_NEEDS_SECONDS = {"minilm": 5_700, "e5-small": 28_000}


@pytest.mark.parametrize("model", sorted(LARGEST_UPLOAD_NEEDS_SECONDS))
def test_the_default_budget_of_the_largest_upload_covers_the_chosen_local_models_need(model):
    # The budget's default follows the model the settings choose; read them as a process
    # started with EMBEDDING_LOCAL_MODEL=model would. The default leaves at least half again.
    values = settings_read_with(EMBEDDING_PROVIDER="local", EMBEDDING_LOCAL_MODEL=model)
    largest = processing_budget_seconds(
        file_size=values["ASSET_MAX_UPLOAD_BYTES"],
        base_seconds=values["ASSET_PROCESSING_TIMEOUT_SECONDS"],
        seconds_per_mb=values["ASSET_PROCESSING_SECONDS_PER_MB"],
    )

    assert largest >= 1.5 * LARGEST_UPLOAD_NEEDS_SECONDS[model]


def test_the_broker_does_not_deliver_again_while_the_largest_upload_may_be_processed():
    hard_limit = asset_time_limits(file_size=settings.ASSET_MAX_UPLOAD_BYTES).time_limit
    visibility_timeout = celery_app.conf.broker_transport_options["visibility_timeout"]

    # A look later at a running attempt (countdown) waits up to a hard limit, then runs one.
    assert visibility_timeout > 2 * hard_limit


def test_the_broker_waits_out_the_longest_budget_of_the_slower_model_too():
    values = settings_read_with(EMBEDDING_PROVIDER="local", EMBEDDING_LOCAL_MODEL="e5-small")
    hard_limit = values["LONGEST_ASSET_PROCESSING_SECONDS"]

    assert values["visibility_timeout"] > 2 * hard_limit


def settings_read_with(**environment: str) -> dict[str, int]:
    """The base settings' values as a fresh process with ``environment`` reads them."""
    names = [
        "ASSET_MAX_UPLOAD_BYTES", "ASSET_PROCESSING_TIMEOUT_SECONDS",
        "ASSET_PROCESSING_SECONDS_PER_MB", "LONGEST_ASSET_PROCESSING_SECONDS",
    ]  # fmt: skip
    script = (
        "import json; from config.settings import base; "
        f"values = {{name: getattr(base, name) for name in {names!r}}}; "
        "values['visibility_timeout'] = "
        "base.CELERY_BROKER_TRANSPORT_OPTIONS['visibility_timeout']; "
        "print(json.dumps(values))"
    )
    env = {
        **os.environ,
        "DATABASE_URL": "postgres://budget@localhost/budget",
        "REDIS_URL": "redis://localhost/0",
        "SECRET_KEY": "budget",
        "EVIDENCE_SIGNING_KEY": "budget",
        **environment,
    }
    env.pop("ASSET_PROCESSING_SECONDS_PER_MB", None)
    env.pop("CELERY_VISIBILITY_TIMEOUT", None)
    completed = subprocess.run(
        [sys.executable, "-c", script], env=env, cwd=ROOT, capture_output=True, text=True,
        check=True,
    )  # fmt: skip
    return json.loads(completed.stdout)
