"""A PostgreSQL session advisory lock taken without waiting (one runner of a job at a time)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection


@contextmanager
def session_advisory_lock(key: int) -> Iterator[bool]:
    """Whether this session got the lock ``key``; held until the block ends, or released by
    PostgreSQL when the connection dies (a killed worker never leaves it taken)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [key])
        acquired = bool(cursor.fetchone()[0])
    try:
        yield acquired
    finally:
        if acquired:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [key])
