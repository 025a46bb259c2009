"""Database backups: `pg_dump --format=custom` streamed into the default storage, with retention.

`manage.py backup_database` (the compose service `backup`, on a schedule) runs
`backup_to_storage`. The dump goes to `BACKUP_PREFIX<UTC timestamp>.dump` in the same
storage as the uploads (the S3 bucket in compose and production), so that it leaves the
database machine. The newest `BACKUP_KEEP` dumps are kept, older ones deleted.

A dump that fails leaves nothing behind: pg_dump's exit status is checked when its output
ends, BEFORE the upload is completed, so the S3 multipart upload is aborted rather than
finished (a local file is deleted). A dump cut short by a killed process is never finished
either. The password reaches pg_dump through PGPASSWORD in its environment, never argv
(which `ps` shows to every user of the machine).
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import IO, Any

from django.core.files import File
from django.core.files.storage import Storage
from psycopg.conninfo import make_conninfo

# backups/20260131T020000Z.dump: the names sort by time. A suffix that the storage adds to
# a name taken in the same second (`_a1b2c3`) keeps that order.
TIMESTAMP_FORMAT = "%Y%m%dT%H%M%SZ"
_DUMP_NAME = re.compile(r"^\d{8}T\d{6}Z[\w-]*\.dump$")
# What is kept of pg_dump's standard error for the message of a failed dump.
_STDERR_LIMIT = 4000


class BackupError(RuntimeError):
    """pg_dump failed (or could not run); nothing was stored."""


# Keys of a Django DATABASES entry's OPTIONS that are Django's or psycopg's own, not libpq
# connection parameters (those, e.g. sslmode, sslrootcert, host, go to pg_dump as they are).
_NOT_LIBPQ = {"isolation_level", "server_side_binding", "assume_role", "pool", "cursor_factory"}


@dataclass(frozen=True)
class DatabaseTarget:
    """Where pg_dump connects. `password` goes to its environment, never its arguments."""

    name: str
    host: str = ""
    port: str = ""
    user: str = ""
    password: str = field(default="", repr=False)
    # Further libpq parameters (sslmode, a socket directory given as ?host=...).
    options: tuple[tuple[str, str], ...] = ()

    @classmethod
    def from_settings(cls, settings_dict: dict[str, Any]) -> DatabaseTarget:
        """From a Django DATABASES entry (DATABASE_URL, parsed by django-environ)."""
        options = {
            key: str(value)
            for key, value in (settings_dict.get("OPTIONS") or {}).items()
            if key not in _NOT_LIBPQ and key != "password" and isinstance(value, str | int)
        }
        return cls(
            name=str(settings_dict["NAME"]),
            host=str(settings_dict.get("HOST") or options.pop("host", "")),
            port=str(settings_dict.get("PORT") or options.pop("port", "")),
            user=str(settings_dict.get("USER") or options.pop("user", "")),
            password=str(settings_dict.get("PASSWORD") or ""),
            options=tuple(sorted(options.items())),
        )

    def conninfo(self) -> str:
        """libpq's connection string for pg_dump's --dbname, without the password."""
        parameters = {"dbname": self.name, "host": self.host, "port": self.port}
        parameters |= {"user": self.user, **dict(self.options)}
        return make_conninfo(**{key: value for key, value in parameters.items() if value})

    def pg_dump_arguments(self, pg_dump: str) -> list[str]:
        return [pg_dump, "--format=custom", "--no-password", f"--dbname={self.conninfo()}"]

    def environment(self) -> dict[str, str]:
        # PG* variables of this process (another database's PGHOST...) must not redirect it.
        environment = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
        if self.password:
            environment["PGPASSWORD"] = self.password
        return environment


@dataclass(frozen=True)
class BackupResult:
    name: str  # the stored dump
    size: int  # bytes
    deleted: list[str]  # older dumps removed by the retention


def backup_to_storage(
    *,
    database: DatabaseTarget,
    storage: Storage,
    prefix: str,
    keep: int,
    pg_dump: str,
    now: datetime | None = None,
) -> BackupResult:
    """Dump `database` into `storage` under `prefix`, then keep the newest `keep` dumps."""
    if keep < 1:
        raise ValueError("keep must be at least 1: the new dump is never deleted")
    moment = (now or datetime.now(UTC)).astimezone(UTC)
    # Chosen before the dump: a partial file of a failed dump is deleted by this name, which
    # must not be a stored dump of the same second.
    name = storage.get_available_name(
        f"{_directory(prefix)}{moment.strftime(TIMESTAMP_FORMAT)}.dump"
    )
    with tempfile.TemporaryFile() as stderr:
        try:
            process = subprocess.Popen(
                database.pg_dump_arguments(pg_dump),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=stderr,  # a file: a pipe nobody reads could block pg_dump
                env=database.environment(),
            )
        except OSError as error:
            raise BackupError(f"cannot run pg_dump ({pg_dump}): {error}") from error
        assert process.stdout is not None
        stream = _CheckedOutput(process, stderr)
        try:
            stored = storage.save(name, File(stream, name=name))
        except BaseException:
            _discard(process)
            _delete_partial(storage, name)
            raise
        finally:
            process.stdout.close()
    return BackupResult(
        name=stored, size=stream.size, deleted=apply_retention(storage, prefix, keep)
    )


def list_dumps(storage: Storage, prefix: str) -> list[str]:
    """The stored dumps under `prefix`, oldest first."""
    directory = _directory(prefix)
    try:
        _, files = storage.listdir(directory.rstrip("/") or ".")
    except FileNotFoundError:  # the local file system before the first backup
        return []
    return sorted(f"{directory}{file}" for file in files if _DUMP_NAME.match(file))


def apply_retention(storage: Storage, prefix: str, keep: int) -> list[str]:
    """Delete all but the newest `keep` dumps; returns the deleted names."""
    dumps = list_dumps(storage, prefix)
    old = dumps[: max(len(dumps) - keep, 0)]
    for name in old:
        storage.delete(name)
    return old


def _directory(prefix: str) -> str:
    return prefix if not prefix or prefix.endswith("/") else f"{prefix}/"


class _CheckedOutput(io.RawIOBase):
    """pg_dump's standard output; at its end, raises BackupError if pg_dump failed.

    The storage reads to the end before it completes the upload: the exception then aborts
    the upload, so a failed dump is never stored.
    """

    def __init__(self, process: subprocess.Popen[bytes], stderr: IO[bytes]) -> None:
        self._process = process
        self._stderr = stderr
        self.size = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        assert self._process.stdout is not None
        count = self._process.stdout.readinto(buffer)
        if count:
            self.size += count
            return count
        status = self._process.wait()
        if status != 0:
            self._stderr.seek(0)
            detail = self._stderr.read()[-_STDERR_LIMIT:].decode(errors="replace").strip()
            raise BackupError(f"pg_dump exited with status {status}: {detail or 'no output'}")
        return 0


def _discard(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.kill()
    process.wait()


def _delete_partial(storage: Storage, name: str) -> None:
    """A local file is written as it is read; S3 stores nothing before the upload ends."""
    try:
        if storage.exists(name):
            storage.delete(name)
    except Exception:  # noqa: S110 - the original error is the one to report
        pass
