"""Migration 0016 (the watermark's column and the tail's btree) runs again after a failure.

It is not atomic (CREATE INDEX CONCURRENTLY cannot run in a transaction): a build stopped by
a timeout or a cancel leaves the column added and an index of that name behind (invalid),
and the migration unrecorded. Running ``migrate`` again must finish it, not stop at "column
already exists" or "relation already exists".
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("assets", "0015_chunk_search_vector_without_tags")]
AFTER = [("assets", "0016_tenant_vector_index_watermark")]


def migrate(targets: list[tuple[str, str]]) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


@pytest.fixture(autouse=True)
def _every_app_migrated_afterwards():  # type: ignore[no-untyped-def]
    yield
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def _index_is_valid() -> bool | None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT index.indisvalid FROM pg_index index "
            "JOIN pg_class class ON class.oid = index.indexrelid "
            "WHERE class.relname = 'asset_chunk_org_id'"
        )
        row = cursor.fetchone()
    return None if row is None else bool(row[0])


def test_the_watermark_migration_runs_again_after_a_failed_concurrent_build():
    migrate(BEFORE)
    assert _index_is_valid() is None
    with connection.cursor() as cursor:
        # What a first run stopped during its concurrent build leaves: the column added
        # (its own statement, committed), an index of that name that is not valid.
        cursor.execute(
            "ALTER TABLE assets_tenantvectorindex ADD COLUMN indexed_through_id bigint NULL"
        )
        cursor.execute(
            "CREATE INDEX asset_chunk_org_id ON assets_assetchunk (organization_id, id) "
            "WHERE id > 0"
        )
        cursor.execute(
            "UPDATE pg_index SET indisvalid = false "
            "WHERE indexrelid = 'asset_chunk_org_id'::regclass"
        )
    assert _index_is_valid() is False

    migrate(AFTER)

    assert _index_is_valid() is True
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM information_schema.columns "
            "WHERE table_name = 'assets_tenantvectorindex' AND column_name = 'indexed_through_id'"
        )
        assert cursor.fetchone()[0] == 1
