"""What a bounded child process needs to know about itself (stdlib only).

Asset extraction (assets/processing/isolation.py) and register imports
(register/import_child.py) each read hostile files in a fresh child under ``RLIMIT_AS``;
both die with their parent and both tell a failed allocation from an ordinary error the
same way.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
from pathlib import Path

# The child's exit status when it ran out of its address space.
OUT_OF_MEMORY_EXIT = 86
# A child whose peak address space reached this share of its bound and then raised: the
# error is a failed allocation in disguise (lxml and psycopg report one as their own error).
NEAR_LIMIT_FRACTION = 0.9
_PR_SET_PDEATHSIG = 1


def die_with_parent(parent_pid: int) -> None:
    """SIGKILL this process when its parent dies (a killed worker leaves no orphan)."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent_pid:  # the parent died before the line above took effect
        os._exit(1)


def near_memory_limit(limit: int) -> bool:
    """True once this process's peak address space came close to `limit` bytes."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        status = Path("/proc/self/status").read_text()
        peak_kib = int(status.split("VmPeak:", 1)[1].split()[0])
        return peak_kib * 1024 >= NEAR_LIMIT_FRACTION * limit
    return False
