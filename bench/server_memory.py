"""The embedded PostgreSQL of a bench, given the shared_buffers of the deployment it stands for.

The embedded server keeps PostgreSQL's default of 128 MB: enough for a laptop, not for a
million chunks, where one large organization's HNSW graph alone is about 1 GB (2,048 bytes
per 384-dimension vector, docs/SCALING.md). pgvector's advice is that the graphs a search
walks stay in memory; below that, each search reads the pages of its walk from the
operating system's cache again (measured: the large organization's hybrid p50 37 ms at
128 MB, 18 ms once the buffers hold its graph; bench/bench_search_tenants.py). A bench
that stands for such a deployment sets the size here, before Django connects, and says so
in its method. ``ALTER SYSTEM`` writes it to the data directory's postgresql.auto.conf, so
the bench's server keeps it (only a restart applies it).
"""

from __future__ import annotations

import os
from pathlib import Path


def ensure_shared_buffers(data_dir: Path, size: str) -> str:
    """Restart the embedded PostgreSQL of ``data_dir`` with ``shared_buffers = size`` unless
    it already has it (``local_stack.prepare`` ran: DATABASE_URL points at it); returns the
    server's value."""
    import psycopg

    from config import embedded, local_stack

    with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as connection:
        current = connection.execute(
            "SELECT setting FROM pg_settings WHERE name = 'shared_buffers'"
        ).fetchone()
        wanted = connection.execute(
            "SELECT pg_size_bytes(%s) / current_setting('block_size')::bigint", [size]
        ).fetchone()
        if current is not None and wanted is not None and int(current[0]) == int(wanted[0]):
            return size
        connection.execute(f"ALTER SYSTEM SET shared_buffers = '{_checked(size)}'")
    embedded.stop_postgres(data_dir)
    local_stack.prepare(data_dir)
    with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as connection:
        row = connection.execute("SHOW shared_buffers").fetchone()
    return str(row[0]) if row else size


def _checked(size: str) -> str:
    """A size such as ``2GB`` or ``512MB`` (it is formatted into ALTER SYSTEM)."""
    number, unit = size[:-2], size[-2:]
    if not number.isdigit() or unit not in ("MB", "GB"):
        raise ValueError(f"shared_buffers: {size!r} is not a size like 2GB or 512MB")
    return size
