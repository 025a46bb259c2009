"""How long one asset's processing may take: a base, plus time for every MB of the file.

The one rule behind every bound of an ingestion: the task's soft and hard time limits (sent
with each message, ``assets.tasks``), the deadline the ingestion keeps itself (the threads
pool enforces no Celery limit), the lease of one attempt (``assets.work``: the budget plus
the grace; a running attempt is not taken over before, the sweeper queues an expired one
again) and the broker's visibility timeout (above the budget of the largest accepted
upload; the settings compute it with ``processing_budget_seconds``, so this module imports
no Django at import time).

The time goes into chunks (embedding and storing them), and the chunk count grows with the
file's size, so the budget does too. ``ASSET_PROCESSING_TIMEOUT_SECONDS`` stays what every
file gets (the model, the extraction, the final writes); ``ASSET_PROCESSING_SECONDS_PER_MB``
is added per MiB of the original file. XLSX is compressed: its text (and chunks) per MB can
be several times that of CSV or TXT, and its budget does not know it (raise the setting for
large spreadsheets).
"""

from __future__ import annotations

from dataclasses import dataclass

MIB = 1024 * 1024
# After the soft limit, the attempt has this long to remove its partial chunks and record
# its failure itself; then Celery kills it (hard limit) and another attempt may take over.
GRACE_SECONDS = 60


@dataclass(frozen=True, slots=True)
class TimeLimits:
    """Celery's per-message limits of a processing task (``apply_async`` options)."""

    soft_time_limit: int
    time_limit: int


def processing_budget_seconds(
    *, file_size: int | None, base_seconds: int, seconds_per_mb: int
) -> int:
    """``base_seconds`` plus ``seconds_per_mb`` for every MiB of ``file_size`` (rounded up).

    An unknown or negative size counts as empty: the budget is never below the base.
    """
    size = max(file_size or 0, 0)
    return base_seconds + -(-seconds_per_mb * size // MIB)


def asset_budget_seconds(*, file_size: int | None) -> int:
    """The processing budget of a file of ``file_size`` bytes, from the settings."""
    from django.conf import settings

    return processing_budget_seconds(
        file_size=file_size,
        base_seconds=settings.ASSET_PROCESSING_TIMEOUT_SECONDS,
        seconds_per_mb=settings.ASSET_PROCESSING_SECONDS_PER_MB,
    )


def asset_time_limits(*, file_size: int | None) -> TimeLimits:
    """The task limits of a file: its budget (soft), then ``GRACE_SECONDS`` more (hard)."""
    budget = asset_budget_seconds(file_size=file_size)
    return TimeLimits(soft_time_limit=budget, time_limit=budget + GRACE_SECONDS)
