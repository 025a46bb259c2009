"""`make run` and `make test`: prepare the stack, run it (or the tests), stop it cleanly.

    python -m config.launcher run    # migrate, demo data, then web + worker + beat
    python -m config.launcher test [pytest args]
    python -m config.launcher bench [benchmark names]
    python -m config.launcher exec COMMAND...   # e.g. a second `celery -A config worker`

`run`, `exec` and `bench` first read the project's `.env` when there is one (ENV_FILE names
another file; ENV_FILE= none): a variable already set in the environment wins over the
file. `test` never reads it, so that a developer's `.env` (an external DATABASE_URL, say)
cannot change what the tests run against.

Embedded PostgreSQL and Redis (when DATABASE_URL / REDIS_URL are unset) are started first,
before anything loads Django's settings, and their URLs (and the local SECRET_KEY) are
exported to the processes started here (config/local_stack.py); the servers are stopped at
the end, after those processes. honcho supervises the processes: Ctrl-C (or one of them
dying) stops all of them.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import MutableMapping
from pathlib import Path

from config import local_stack

BASE_DIR = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
# Every Celery queue of the service (settings.CELERY_WORKER_QUEUES): `make run` has one worker.
WORKER_QUEUES = "generation,ingestion,webhooks,packages,imports,staleness"
# The commands that read `.env`: the developer's service. Not `test` (see the docstring).
READS_ENV_FILE = {"run", "exec", "bench"}
# `NAME=value` lines of a .env file, as docker compose reads the same file: `export ` allowed,
# quotes removed, an unquoted value's ` # comment` dropped.
_ENV_LINE = re.compile(r"\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)")


def env_file_path(environ: MutableMapping[str, str]) -> Path | None:
    """The .env file to read: ENV_FILE if set (empty: none), else the project's `.env`."""
    chosen = environ.get("ENV_FILE")
    if chosen is None:
        return BASE_DIR / ".env"
    return Path(chosen) if chosen else None


def _env_value(raw: str) -> str:
    raw = raw.strip()
    if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "'\"":
        return raw[1:-1]
    return re.split(r"\s+#", raw, maxsplit=1)[0].strip()


def read_env_file(*, command: str, environ: MutableMapping[str, str]) -> Path | None:
    """Set the variables of the .env file that `environ` lacks; the file read, or None.

    Only for the commands of READS_ENV_FILE. A variable already in the environment (even
    empty) keeps its value, as with docker compose.
    """
    path = env_file_path(environ)
    if command not in READS_ENV_FILE or path is None or not path.is_file():
        return None
    for line in path.read_text(encoding="utf-8").splitlines():
        match = _ENV_LINE.fullmatch(line)
        if match and not line.lstrip().startswith("#"):
            environ.setdefault(match.group(1), _env_value(match.group(2)))
    return path


def _manage(*arguments: str, env: dict[str, str]) -> None:
    subprocess.run([PYTHON, "manage.py", *arguments], cwd=BASE_DIR, env=env, check=True)


def run() -> int:
    from honcho.manager import Manager

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    settings_module = os.environ["DJANGO_SETTINGS_MODULE"]
    stack = local_stack.prepare(local_stack.data_dir_for(settings_module))
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    host = env.get("HOST", "127.0.0.1")
    port = env.get("PORT", "8000")
    try:
        _manage("migrate", "--no-input", env=env)
        _manage("collectstatic", "--no-input", "--verbosity", "0", env=env)
        _manage("bootstrap_demo", "--host", host, "--port", port, env=env)
        manager = Manager()
        manager.add_process(
            "web",
            f"{PYTHON} -m uvicorn config.asgi:application --host {host} --port {port}"
            f" --workers {env.get('WEB_CONCURRENCY', '1')} --lifespan off",
            env=env, cwd=str(BASE_DIR),
        )  # fmt: skip
        manager.add_process(
            "worker",
            f"{PYTHON} -m celery -A config worker --loglevel INFO"
            f" --concurrency {env.get('CELERY_WORKER_CONCURRENCY', '2')}"
            f" --queues {WORKER_QUEUES}",
            env=env, cwd=str(BASE_DIR),
        )  # fmt: skip
        manager.add_process(
            "beat",
            f"{PYTHON} -m celery -A config beat --loglevel INFO",
            env=env, cwd=str(BASE_DIR),
        )  # fmt: skip
        manager.loop()
        return manager.returncode or 0
    finally:
        if stack.embedded_database or stack.embedded_redis:
            stack.stop()
            print("Embedded PostgreSQL and Redis stopped; data kept in", stack.data_dir)


def _run_on_embedded_stack(settings_module: str, command: list[str]) -> int:
    """Run `command` with the servers of the settings' DATA_DIR up, then stop those started."""
    os.environ["DJANGO_SETTINGS_MODULE"] = settings_module
    stack = local_stack.prepare(local_stack.data_dir_for(settings_module))
    try:
        return subprocess.run(command, cwd=BASE_DIR, env=dict(os.environ), check=False).returncode
    finally:
        stack.stop()


def test(pytest_arguments: list[str]) -> int:
    """The test suite on its own data directory (.data/test), never make run's data.

    pytest itself (config/pytest_plugin.py) plans the servers and starts each one when a
    test first needs it: `make test-fast PYTEST_ARGS=tests/gdpr` starts none. This stops
    those it was responsible for (their URL was unset) when pytest ends.
    """
    settings_module = "config.settings.test"
    os.environ["DJANGO_SETTINGS_MODULE"] = settings_module
    stack = local_stack.LocalStack(
        data_dir=local_stack.data_dir_for(settings_module),
        embedded_database=not os.environ.get("DATABASE_URL"),
        embedded_redis=not os.environ.get("REDIS_URL"),
    )
    command = [PYTHON, "-m", "pytest", *pytest_arguments]
    try:
        return subprocess.run(command, cwd=BASE_DIR, env=dict(os.environ), check=False).returncode
    finally:
        stack.stop()


def bench(arguments: list[str]) -> int:
    """Run `bench/run.py` on its own embedded stack (DATA_DIR .data/bench)."""
    os.environ.setdefault("DATA_DIR", str(BASE_DIR / ".data" / "bench"))
    return _run_on_embedded_stack(
        "config.settings.base",
        [PYTHON, "-m", "bench.run", *arguments],
    )


def exec_on_local_stack(command: list[str]) -> int:
    """Replace this process by `command` on the servers of DATA_DIR, started if need be.

    For a second terminal beside `make run`: a worker or uvicorn reads only the variables,
    which this sets (manage.py does the same by itself). The servers are left running.
    """
    if not command:
        print(__doc__)
        return 2
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    local_stack.prepare(local_stack.data_dir_for(os.environ["DJANGO_SETTINGS_MODULE"]))
    # `celery`, `uvicorn` ... of this interpreter's venv, even from a shell where the venv is
    # not activated (the README's `.venv/bin/python -m config.launcher exec celery ...`).
    scripts = str(Path(sys.executable).parent)
    os.environ["PATH"] = os.pathsep.join([scripts, os.environ.get("PATH", os.defpath)])
    os.execvp(command[0], command)  # noqa: S606 - the developer's own command line


COMMANDS = {
    "run": lambda arguments: run(),
    "test": test,
    "bench": bench,
    "exec": exec_on_local_stack,
}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print(__doc__)
        return 2
    read_env_file(command=argv[0], environ=os.environ)
    return COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
