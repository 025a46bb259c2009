"""Index migrations on the chunk table must build their index CONCURRENTLY.

The chunk table (AssetChunk) is the largest one: a plain CREATE INDEX on it holds a lock
that blocks every ingestion's INSERT for the whole build (minutes with an HNSW index of
millions of vectors), while CREATE INDEX CONCURRENTLY lets writes go on. Every migration of
`assets` newer than the grandfathered ones below must use AddIndexConcurrently (in a
migration with `atomic = False`) or RunSQL with CREATE INDEX CONCURRENTLY; a field with an
index (db_index, unique, a ForeignKey) is added with db_index=False, then its index
concurrently. docs/DEPLOY.md, "Upgrades", says the same to whoever writes one.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.postgres.operations import AddIndexConcurrently
from django.db import migrations, models
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.migration import Migration

from assets.models import AssetChunk

# Written before this rule, when the table was small enough (or the service not yet
# deployed) for a plain build; they have run everywhere and are never edited again.
GRANDFATHERED = {
    "0001_initial",
    "0002_asset_processing_token",
    "0003_asset_processing_attempts",
    "0004_chunk_search_fields",
    "0005_asset_progress",
    "0006_embedding_models",
    "0007_chunk_trigram_index_by_organization",
    "0008_chunk_text_search_index",
}
MODEL = AssetChunk._meta.model_name
TABLE = AssetChunk._meta.db_table
_CREATE_INDEX = re.compile(r"\bCREATE\s+(?:UNIQUE\s+)?INDEX\b(?!\s+CONCURRENTLY)", re.IGNORECASE)


def _sql_text(sql: object) -> str:
    if isinstance(sql, list | tuple):
        return " ".join(_sql_text(item) for item in sql)
    return str(sql)


def _indexed_field(field: models.Field) -> bool:
    return bool(field.db_index or field.unique) and not field.primary_key


def blocking_index_builds(migration: Migration) -> list[str]:
    """The operations of `migration` that build an index on the chunk table with a lock."""
    found = []
    for operation in migration.operations:
        model = getattr(operation, "model_name", None) or getattr(operation, "name", "")
        on_chunks = str(model).lower() == MODEL
        if isinstance(operation, migrations.AddIndex) and on_chunks:
            if not isinstance(operation, AddIndexConcurrently):
                found.append(f"AddIndex {operation.index.name}: use AddIndexConcurrently")
        elif isinstance(operation, migrations.CreateModel) and on_chunks:
            if operation.options.get("indexes") or operation.options.get("unique_together"):
                found.append("CreateModel with indexes: add them with AddIndexConcurrently")
        elif isinstance(operation, migrations.AddField | migrations.AlterField) and on_chunks:
            if _indexed_field(operation.field):
                found.append(
                    f"{type(operation).__name__} {operation.name} with an index: db_index=False, "
                    "then AddIndexConcurrently"
                )
        elif isinstance(operation, migrations.RunSQL):
            sql = _sql_text(operation.sql)
            if TABLE in sql and _CREATE_INDEX.search(sql):
                found.append("RunSQL CREATE INDEX: use CREATE INDEX CONCURRENTLY")
    return found


def test_index_builds_on_the_chunk_table_in_new_migrations_are_concurrent():
    loader = MigrationLoader(None, ignore_no_migrations=True)
    names = {name for app, name in loader.disk_migrations if app == "assets"}
    assert names >= GRANDFATHERED  # a renamed old migration must not escape the rule

    problems = {
        name: blocking_index_builds(loader.disk_migrations["assets", name])
        for name in sorted(names - GRANDFATHERED)
    }

    assert {name: found for name, found in problems.items() if found} == {}


def _migration(*operations: object) -> Migration:
    migration = Migration("0099_test", "assets")
    migration.operations = list(operations)
    return migration


def _index() -> models.Index:
    return models.Index(fields=["organization_id"], name="asset_chunk_test")


@pytest.mark.parametrize(
    "operation",
    [
        migrations.AddIndex(model_name="assetchunk", index=_index()),
        migrations.RunSQL(f"CREATE INDEX chunk_x ON {TABLE} (id)"),
        migrations.RunSQL([f"create unique index chunk_x on {TABLE} (id)"]),
        migrations.AddField(
            model_name="assetchunk", name="batch", field=models.IntegerField(db_index=True)
        ),
        migrations.CreateModel(
            name="AssetChunk",
            fields=[("id", models.BigAutoField(primary_key=True))],
            options={"indexes": [_index()]},
        ),
    ],
)
def test_the_rule_catches_a_blocking_index_build(operation):
    assert blocking_index_builds(_migration(operation))


@pytest.mark.parametrize(
    "operation",
    [
        AddIndexConcurrently(model_name="assetchunk", index=_index()),
        migrations.RunSQL(f"CREATE INDEX CONCURRENTLY chunk_x ON {TABLE} (id)"),
        migrations.AddIndex(model_name="asset", index=_index()),  # another table
        migrations.AddField(
            model_name="assetchunk", name="batch", field=models.IntegerField(null=True)
        ),
    ],
)
def test_the_rule_lets_concurrent_builds_and_other_tables_pass(operation):
    assert blocking_index_builds(_migration(operation)) == []
