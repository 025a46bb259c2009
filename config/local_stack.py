"""The local stack: what a laptop or CI gets when DATABASE_URL, REDIS_URL, SECRET_KEY or
EVIDENCE_SIGNING_KEY are unset.

`prepare` starts (or reuses) the embedded PostgreSQL and Redis under DATA_DIR, creates the
local secret and evidence signing keys there, and exports the URLs and the keys into the
environment. It runs BEFORE Django loads its settings, which read those variables and start
nothing, write nothing (config/settings/base.py). Its callers:

- `config.launcher` (`make run`, `make test`, `make bench`), which also stops the servers
  it was responsible for when it finishes; its children inherit the variables;
- `manage.py` with the local settings (`manage.py shell` in a second terminal reaches the
  servers of a running `make run`: same DATA_DIR, same servers, same key);
- `config.pytest_plugin`, when pytest is run directly rather than through `make test`.

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


def prepare(data_dir: Path, environ: MutableMapping[str, str] | None = None) -> LocalStack:
    """Start what the unset variables need and export them (and DATA_DIR) into `environ`."""
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
            environ["DATABASE_URL"] = embedded.ensure_postgres(data_dir).url()
        if embedded_redis:
            environ["REDIS_URL"] = f"unix://{embedded.ensure_redis(data_dir)}"
    for name in missing_keys:
        environ[name] = local_secret_key(data_dir, LOCAL_KEYS[name])
    return LocalStack(
        data_dir=data_dir, embedded_database=embedded_database, embedded_redis=embedded_redis
    )


def prepare_for(settings_module: str) -> LocalStack | None:
    """`prepare` with the default DATA_DIR of `settings_module`; None for other settings."""
    if settings_module not in DEFAULT_DATA_DIRS:
        return None
    return prepare(data_dir_for(settings_module))


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
