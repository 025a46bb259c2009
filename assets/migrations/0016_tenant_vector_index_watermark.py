"""A watermark on each organization's vector index: no HNSW insert on the write path.

Every chunk inserted into an organization with its own partial HNSW index
(assets.tenant_indexes) was inserted into its graph too: 3 to 6 ms a chunk, 96 % of a write
at 200,000 chunks (bench/bench_storing.py: 5.9 s per 1,000 chunks with that index, 0.21 s
without), where building a graph at once costs 0.44 to 0.9 ms a vector. An index now covers
its organization's chunks up to a chunk id, recorded as ``indexed_through_id`` (its
predicate: ``organization_id = '<uuid>' AND id <= <W>``); later chunks fail the predicate,
so PostgreSQL never inserts them into the graph. The search ranks them, the tail, exactly,
found through the new (organization_id, id) btree, and the reconcile rebuilds the index
past the tail once it has grown (``TENANT_VECTOR_INDEX_REBUILD_FRACTION``).

The indexes built before have no watermark (NULL: every chunk of the organization, as
before); the next reconcile rebuilds them with one. The btree is built CONCURRENTLY: the
table may be large, and ingestion goes on meanwhile. Its predicate ``id > 0`` holds for every
row, but only a query that bounds the id proves it (the tail's ``id > W``): the full-text and
trigram rankers, which filter by organization alone, chose it over their GIN index to read
all of an organization's chunks and recheck each (tests/assets/test_search_scaling.py).
"""

from django.db import migrations, models

# Each step can run again: the migration is not atomic, so a build stopped by a timeout or a
# cancel leaves the column committed and an invalid index of that name behind, and the
# migration unrecorded (tests/assets/test_watermark_migration.py). Django's own operations
# (AddField, AddIndexConcurrently) would stop at "already exists" on the next `migrate`.
ADD_COLUMN = (
    "ALTER TABLE assets_tenantvectorindex ADD COLUMN IF NOT EXISTS indexed_through_id bigint NULL"
)
DROP_COLUMN = "ALTER TABLE assets_tenantvectorindex DROP COLUMN IF EXISTS indexed_through_id"
DROP_INDEX = "DROP INDEX CONCURRENTLY IF EXISTS asset_chunk_org_id"
CREATE_INDEX = (
    "CREATE INDEX CONCURRENTLY asset_chunk_org_id ON assets_assetchunk (organization_id, id) "
    "WHERE id > 0"
)


class Migration(migrations.Migration):
    # CREATE INDEX CONCURRENTLY cannot run inside a transaction.
    atomic = False

    dependencies = [
        ("assets", "0015_chunk_search_vector_without_tags"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunSQL(ADD_COLUMN, reverse_sql=DROP_COLUMN)],
            state_operations=[
                migrations.AddField(
                    model_name="tenantvectorindex",
                    name="indexed_through_id",
                    field=models.BigIntegerField(blank=True, null=True),
                ),
            ],
        ),
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL([DROP_INDEX, CREATE_INDEX], reverse_sql=DROP_INDEX),
            ],
            state_operations=[
                migrations.AddIndex(
                    model_name="assetchunk",
                    index=models.Index(
                        condition=models.Q(("id__gt", 0)),
                        fields=["organization", "id"],
                        name="asset_chunk_org_id",
                    ),
                ),
            ],
        ),
    ]
