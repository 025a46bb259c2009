"""The child process that runs one register import, bounded in memory and time.

Whatever a crafted file makes the reader or the planner do (a sheet padded to a million
rows, a CSV line that makes the delimiter sniffer quadratic, thousands of vendors to match),
it happens here: the child runs out of its address space (``RLIMIT_AS``, set once Django is
loaded) or the worker kills it at the end of REGISTER_IMPORT_TIMEOUT_SECONDS, and the
import fails with what happened (register.tasks). The worker, and the web, live on. A fresh
interpreter (``python -m register.import_child``), not a fork of the worker; it dies with
its parent (``PR_SET_PDEATHSIG``). Its writes are one transaction: a child killed mid-way
wrote nothing (PostgreSQL rolls back a transaction whose connection is gone).

Not inside ``register.importing``: that package imports models, which needs Django set up.
"""

from __future__ import annotations

import os
import resource
import sys

from common.child_process import OUT_OF_MEMORY_EXIT, die_with_parent, near_memory_limit


def child_main(arguments: list[str]) -> int:
    import_id, token, memory_bytes, parent_pid = arguments
    die_with_parent(int(parent_pid))
    import django

    django.setup()
    from register.importing.jobs import execute

    limit = int(memory_bytes)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    try:
        execute(import_id=import_id, token=token, memory_limit=limit)
    except MemoryError:
        return OUT_OF_MEMORY_EXIT
    except Exception:
        if near_memory_limit(limit):
            return OUT_OF_MEMORY_EXIT
        raise
    return 0


if __name__ == "__main__":
    try:
        sys.exit(child_main(sys.argv[1:]))
    except MemoryError:
        os._exit(OUT_OF_MEMORY_EXIT)
