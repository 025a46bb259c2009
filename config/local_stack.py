"""The local stack: what a laptop or CI gets when DATABASE_URL, REDIS_URL, SECRET_KEY or
EVIDENCE_SIGNING_KEY are unset.

`plan` decides where the embedded PostgreSQL and Redis of DATA_DIR listen, creates the
local secret and evidence signing keys there, and exports the URLs and the keys into the
environment, starting nothing; `LocalStack.start` then starts (or reuses) the servers;
`prepare` does both. They run BEFORE Django loads its settings, which read those variables
(config/settings/base.py starts nothing and writes nothing). The callers:

- `config.launcher` (`make run`, `make bench`: `prepare`), which also stops the servers it
  was responsible for when it finishes; its children inherit the variables;
- `manage.py` with the local settings (`manage.py shell` in a second terminal reaches the
  servers of a running `make run`: same DATA_DIR, same servers, same key);
- `config.pytest_plugin` (`make test` and pytest run directly: `plan`), whose fixtures start
  a server when the first test needing it runs: `pytest tests/gdpr` starts none.

A variable that is already set is used as it is: nothing is started for it.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import MutableMapping
from dataclasses import dataclass
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[1]
# The settings modules that may run on the local stack, and their default DATA_DIR. The
# production settings are not among them: a production process never starts a server.
DEFAULT_DATA_DIRS = {
    "config.settings.base": BASE_DIR / ".data",
    "config.settings.test": BASE_DIR / ".data" / "test",
}
# Local keys, each generated once into DATA_DIR: variable -> file name.
LOCAL_KEYS = {"SECRET_KEY": "secret_key", "EVIDENCE_SIGNING_KEY": "evidence_signing_key"}


@dataclass(frozen=True)
class LocalStack:
    data_dir: Path
    # True for each server this stack is responsible for (its URL was unset).
    embedded_database: bool
    embedded_redis: bool

    def start(self, *, database: bool = True, redis: bool = True) -> None:
        """Start (or reuse) the embedded servers asked for that this stack is responsible for.

        The URLs were exported by `plan`; a server listening elsewhere than planned is an
        error (a process started with the planned URL could not reach it)."""
        from config import embedded

        if database and self.embedded_database:
            started = embedded.ensure_postgres(self.data_dir)
            planned = embedded.planned_postgres(self.data_dir)
            if planned is not None and planned != started:
                raise embedded.EmbeddedServiceError(
                    f"PostgreSQL of {self.data_dir} listens in {started.socket_dir}, "
                    f"not in the planned {planned.socket_dir}"
                )
        if redis and self.embedded_redis:
            embedded.ensure_redis(self.data_dir)

    def stop(self) -> None:
        """Stop the embedded servers of this stack; their data stays for the next start."""
        from config import embedded

        if self.embedded_redis:
            embedded.stop_redis(self.data_dir)
        if self.embedded_database:
            embedded.stop_postgres(self.data_dir)


def data_dir_for(settings_module: str, environ: MutableMapping[str, str] | None = None) -> Path:
    environ = os.environ if environ is None else environ
    default = DEFAULT_DATA_DIRS.get(settings_module, BASE_DIR / ".data")
    return Path(environ.get("DATA_DIR") or default).resolve()


def plan(data_dir: Path, environ: MutableMapping[str, str] | None = None) -> LocalStack:
    """Export the URLs of the servers the unset variables need (and DATA_DIR and the local
    keys) into `environ`, starting nothing: `LocalStack.start` starts them.

    One exception: PostgreSQL's socket goes in its data directory unless that path is too
    long for a socket, and then in a directory named after the data directory's inode;
    such a PostgreSQL is started at once, to learn where it listens."""
    environ = os.environ if environ is None else environ
    data_dir = data_dir.resolve()
    environ["DATA_DIR"] = str(data_dir)
    embedded_database = not environ.get("DATABASE_URL")
    embedded_redis = not environ.get("REDIS_URL")
    missing_keys = [name for name in LOCAL_KEYS if not environ.get(name)]
    if embedded_database or embedded_redis or missing_keys:
        data_dir.mkdir(parents=True, exist_ok=True)
    if embedded_database or embedded_redis:
        from config import embedded

        if embedded_database:
            postgres = embedded.planned_postgres(data_dir) or embedded.ensure_postgres(data_dir)
            environ["DATABASE_URL"] = postgres.url()
        if embedded_redis:
            environ["REDIS_URL"] = f"unix://{embedded.redis_socket_path(data_dir)}"
    for name in missing_keys:
        environ[name] = local_secret_key(data_dir, LOCAL_KEYS[name])
    return LocalStack(
        data_dir=data_dir, embedded_database=embedded_database, embedded_redis=embedded_redis
    )


def prepare(data_dir: Path, environ: MutableMapping[str, str] | None = None) -> LocalStack:
    """Start what the unset variables need and export them (and DATA_DIR) into `environ`."""
    stack = plan(data_dir, environ)
    stack.start()
    return stack


def plan_for(settings_module: str) -> LocalStack | None:
    """`plan` with the default DATA_DIR of `settings_module`; None for other settings."""
    if settings_module not in DEFAULT_DATA_DIRS:
        return None
    return plan(data_dir_for(settings_module))


def prepare_for(settings_module: str) -> LocalStack | None:
    """`prepare` with the default DATA_DIR of `settings_module`; None for other settings."""
    stack = plan_for(settings_module)
    if stack is not None:
        stack.start()
    return stack


def local_secret_key(data_dir: Path, file_name: str = LOCAL_KEYS["SECRET_KEY"]) -> str:
    """A random key kept in DATA_DIR, so that sessions, stored secrets and signatures
    survive restarts."""
    key_file = data_dir / file_name
    if not key_file.exists():
        # Written aside, then linked into place: a process starting at the same time reads
        # either no key file or a complete one, and only one key ever wins.
        draft = data_dir / f".{file_name}.{os.getpid()}"
        descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as handle:
            handle.write(secrets.token_urlsafe(50))
        try:
            os.link(draft, key_file)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return key_file.read_text().strip()
