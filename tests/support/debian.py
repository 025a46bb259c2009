"""Debian tools some tests need (a browser, a proxy, openssl), provisioned by `make system-deps`.

`make test` depends on `make system-deps`, which installs what is missing with apt-get (CI
runs it as root on a fresh machine). Tests never install anything: a missing tool fails
the test with the command that provides it, never a skip.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest


def require_debian_tool(executable: str, package: str) -> Path:
    """The path of `executable`; the test fails, naming `make system-deps`, when it is missing."""
    found = shutil.which(executable)
    if not found:
        pytest.fail(
            f"{executable} is missing: run `make system-deps` (as root; it installs the "
            f"Debian package {package}), or `make test`, which runs it first."
        )
    return Path(found)
