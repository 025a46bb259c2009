"""Importing the settings starts no process and writes no file: they only read variables.

Each import runs in a fresh interpreter, in an empty working directory, with a DATA_DIR that
does not exist yet. Python's audit hooks report every process it starts and every file it
opens for writing or creates; as a child subreaper it also keeps any daemon that detaches
(`pg_ctl start`, `redis-server --daemonize`) as its own child, where it can be seen.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

PROBE = r"""
import ctypes, importlib, json, os, sys

PR_SET_CHILD_SUBREAPER = 36
ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
PROCESS_EVENTS = {"subprocess.Popen", "os.fork", "os.forkpty", "os.posix_spawn", "os.exec",
                  "os.system", "os.spawn"}
FILE_EVENTS = {"os.mkdir", "os.rename", "os.replace", "os.remove", "os.rmdir", "os.chmod",
               "os.symlink", "os.link", "os.truncate", "shutil.copyfile", "shutil.rmtree"}
seen = []

def audit(event, args):
    if event in PROCESS_EVENTS or event in FILE_EVENTS:
        seen.append(f"{event} {args[:2]!r}")
    elif event == "open":
        path, mode, flags = args
        writes = isinstance(mode, str) and bool(set(mode) & set("wax+"))
        if writes or (flags or 0) & WRITE_FLAGS:
            seen.append(f"open {path!r} {mode!r}")

sys.addaudithook(audit)
error = None
try:
    importlib.import_module(sys.argv[1])
except Exception as exception:
    error = f"{type(exception).__name__}: {exception}"

def parent_of(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return int(stat.read().rsplit(")", 1)[1].split()[1])
    except OSError:
        return None

children = [pid for pid in os.listdir("/proc") if pid.isdigit() and parent_of(pid) == os.getpid()]
print(json.dumps({"error": error, "events": seen, "children": children}))
"""

_SERVICE_VARIABLES = ("SECRET_KEY", "DATABASE_URL", "REDIS_URL", "ALLOWED_HOSTS", "DATA_DIR")
# Addresses nobody answers on: an import that tried to reach them would hang or fail.
CONFIGURED = {
    "SECRET_KEY": "a-production-secret-" + "x1y2z3" * 8,
    "DATABASE_URL": "postgresql://app:secret@db.invalid:5432/legaldocs",
    "REDIS_URL": "redis://:secret@cache.invalid:6379/0",
    "ALLOWED_HOSTS": "legaldocs.example.com",
}


def import_in_a_fresh_process(module: str, tmp_path: Path, **variables: str) -> dict:
    workdir = tmp_path / "cwd"
    workdir.mkdir()
    data_dir = tmp_path / "data"
    env = {key: value for key, value in os.environ.items() if key not in _SERVICE_VARIABLES}
    env |= {
        "DATA_DIR": str(data_dir),
        "PYTHONPATH": str(settings.BASE_DIR),
        "PYTHONDONTWRITEBYTECODE": "1",  # no .pyc files: only the settings could write
        **variables,
    }
    env.pop("DJANGO_SETTINGS_MODULE", None)
    result = subprocess.run(
        [sys.executable, "-c", PROBE, module], cwd=workdir, env=env, capture_output=True,
        text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    outcome = json.loads(result.stdout.strip().splitlines()[-1])
    outcome["files"] = sorted(str(path) for path in tmp_path.rglob("*"))
    outcome["data_dir_exists"] = data_dir.exists()
    return outcome


@pytest.mark.parametrize("module", ["config.settings.production", "config.settings.base"])
def test_importing_configured_settings_starts_nothing_and_writes_nothing(module, tmp_path):
    outcome = import_in_a_fresh_process(module, tmp_path, **CONFIGURED)

    assert outcome["error"] is None
    assert outcome["events"] == []
    assert outcome["children"] == []
    assert outcome["files"] == [str(tmp_path / "cwd")]
    assert outcome["data_dir_exists"] is False


@pytest.mark.parametrize("variable", ["DATABASE_URL", "REDIS_URL", "SECRET_KEY"])
def test_the_base_settings_name_a_missing_variable_instead_of_starting_a_server(variable, tmp_path):
    configured = {name: value for name, value in CONFIGURED.items() if name != variable}
    outcome = import_in_a_fresh_process("config.settings.base", tmp_path, **configured)

    assert outcome["error"].startswith(f"ImproperlyConfigured: {variable} is not set")
    assert "make run" in outcome["error"]
    assert outcome["events"] == []
    assert outcome["children"] == []
    assert outcome["data_dir_exists"] is False


def test_manage_py_starts_no_server_for_the_production_settings(tmp_path):
    """manage.py runs the local stack for the local settings only: a production process
    missing DATABASE_URL stops with the reason, and no embedded server takes its place."""
    data_dir = tmp_path / "data"
    env = {key: value for key, value in os.environ.items() if key not in _SERVICE_VARIABLES}
    env |= {
        **{name: value for name, value in CONFIGURED.items() if name != "DATABASE_URL"},
        "DATA_DIR": str(data_dir),
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=settings.BASE_DIR, env=env,
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip

    assert result.returncode != 0
    assert "DATABASE_URL must be set in production" in result.stderr
    assert not data_dir.exists()
