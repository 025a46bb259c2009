"""Debian packages a test needs (a browser, a proxy, openssl): installed when missing.

CI runs on a fresh machine as root with apt: a missing tool is installed, never a reason to
skip. Where that is impossible the test fails with the reason.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest


def ensure_debian_package(executable: str, package: str) -> Path:
    """The path of `executable`, after `apt-get install package` if it is not there yet."""
    found = shutil.which(executable)
    if found:
        return Path(found)
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        pytest.fail(
            f"{executable} is missing and cannot be installed here (needs root and apt-get): "
            f"run `apt-get update && apt-get install -y {package}` as root."
        )
    environment = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update"], ["apt-get", "install", "-y", package]):
        result = subprocess.run(
            command, env=environment, capture_output=True, text=True, timeout=900, check=False
        )
        if result.returncode != 0:
            pytest.fail(f"`{' '.join(command)}` failed:\n{result.stderr[-3000:]}")
    found = shutil.which(executable)
    if not found:
        pytest.fail(f"apt-get installed {package} but {executable} is still missing.")
    return Path(found)
