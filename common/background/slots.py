"""The one slot claim: at most `limit` pieces of running work of one owner (an organization)."""

from __future__ import annotations

from collections.abc import Callable

from django.db import models


def claim_slot(
    *,
    owner: models.Model,
    running: models.QuerySet,  # type: ignore[type-arg]
    limit: int,
    refuse: Callable[[int, int], Exception],
) -> None:
    """Raise `refuse(running, limit)` when the owner already has `limit` running.

    Call it inside the transaction that then saves the new work: the lock on the owner's
    row makes the count and the insert one atomic step.
    """
    # no_key: audit inserts of an organization take KEY SHARE on its row; FOR UPDATE would
    # make them wait (issue 25, item 3).
    type(owner)._default_manager.select_for_update(no_key=True).filter(pk=owner.pk).first()
    count = running.count()
    if count >= limit:
        raise refuse(count, limit)
