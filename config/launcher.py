"""`make run` and `make test`: prepare the stack, run it (or the tests), stop it cleanly.

    python -m config.launcher run    # migrate, demo data, then web + worker + beat
    python -m config.launcher test [pytest args]
    python -m config.launcher bench [benchmark names]

Embedded PostgreSQL and Redis (when DATABASE_URL / REDIS_URL are unset) are started first
and stopped at the end, after the processes that use them. honcho supervises the processes:
Ctrl-C (or one of them dying) stops all of them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
# Every Celery queue of the service (settings.CELERY_WORKER_QUEUES): `make run` has one worker.
WORKER_QUEUES = "generation,ingestion,webhooks,packages"


def _data_dir(default: Path) -> Path:
    return Path(os.environ.get("DATA_DIR") or default).resolve()


def _start_embedded(data_dir: Path) -> bool:
    """Start the embedded servers this configuration needs; True when any was started."""
    from config import embedded

    started = False
    if not os.environ.get("DATABASE_URL"):
        embedded.ensure_postgres(data_dir)
        started = True
    if not os.environ.get("REDIS_URL"):
        embedded.ensure_redis(data_dir)
        started = True
    return started


def _manage(*arguments: str, env: dict[str, str]) -> None:
    subprocess.run([PYTHON, "manage.py", *arguments], cwd=BASE_DIR, env=env, check=True)


def run() -> int:
    from honcho.manager import Manager

    data_dir = _data_dir(BASE_DIR / ".data")
    env = {**os.environ, "DATA_DIR": str(data_dir), "PYTHONUNBUFFERED": "1"}
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    host = env.get("HOST", "127.0.0.1")
    port = env.get("PORT", "8000")
    embedded_started = _start_embedded(data_dir)
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
        if embedded_started:
            from config import embedded

            embedded.stop_embedded_services(data_dir)
            print("Embedded PostgreSQL and Redis stopped; data kept in", data_dir)


def _run_on_embedded_stack(data_dir: Path, settings_module: str, command: list[str]) -> int:
    """Run `command` with the servers of `data_dir` up, then stop those this call started."""
    os.environ["DATA_DIR"] = str(data_dir)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": settings_module}
    embedded_started = _start_embedded(data_dir)
    try:
        return subprocess.run(command, cwd=BASE_DIR, env=env, check=False).returncode
    finally:
        if embedded_started:
            from config import embedded

            embedded.stop_embedded_services(data_dir)


def test(pytest_arguments: list[str]) -> int:
    """The test suite on its own data directory (.data/test), never make run's data."""
    return _run_on_embedded_stack(
        _data_dir(BASE_DIR / ".data" / "test"),
        "config.settings.test",
        [PYTHON, "-m", "pytest", *pytest_arguments],
    )


def bench(arguments: list[str]) -> int:
    """Run `bench/run.py` on its own embedded stack (DATA_DIR .data/bench)."""
    return _run_on_embedded_stack(
        _data_dir(BASE_DIR / ".data" / "bench"),
        "config.settings.base",
        [PYTHON, "-m", "bench.run", *arguments],
    )


COMMANDS = {"run": lambda arguments: run(), "test": test, "bench": bench}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print(__doc__)
        return 2
    return COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
