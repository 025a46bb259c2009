"""What the lease needs to know about one kind of work, and the registry of kinds.

Each app describes its kinds once (in its `AppConfig.ready`), so that `common`, below every
app, can sweep them all without importing any of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from common.background.fields import LeasedWork


@dataclass(frozen=True)
class WorkKind:
    # A short name, in logs and in the sweeper's counts ("webhook", "asset", ...).
    name: str
    model: type[LeasedWork]
    # Sends the row's task to the broker: send(id as a string, countdown in seconds);
    # raises when the broker refuses.
    send: Callable[[str, float], None]
    # How long one attempt may hold the row (read when it is claimed).
    lease_seconds: Callable[[Any], float]
    # Ends the work failed, in the kind's own terms, on the row locked by the caller (who
    # saves it): its attempts are spent, or it stayed queued past `max_queued_seconds`.
    # `reason` is "interrupted" (attempts spent) or "unsent" (the broker kept refusing).
    end_failed: Callable[[Any, str], None]
    max_attempts: int = 3
    # A queued row this long past due lost its task (or the broker refused it): sent again.
    resend_after_seconds: float = 300
    # A row this long past due (the broker refused every send) ends failed ("unsent").
    max_queued_seconds: float = 3600
    # Optional: puts the kind's own status back to waiting on the locked row (and saves it)
    # when an expired or handed-back lease is queued again (e.g. `processing` -> `queued`).
    requeued: Callable[[Any], None] | None = None


_KINDS: dict[str, WorkKind] = {}


def register(kind: WorkKind) -> WorkKind:
    """Add a kind to the sweeper's list; registering the same name again replaces it."""
    _KINDS[kind.name] = kind
    return kind


def unregister(name: str) -> None:
    _KINDS.pop(name, None)


def registered() -> list[WorkKind]:
    return list(_KINDS.values())


def named(name: str) -> WorkKind:
    return _KINDS[name]
