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

from django.contrib.postgres.operations import AddIndexConcurrently
from django.db import migrations, models


class Migration(migrations.Migration):
    # CREATE INDEX CONCURRENTLY cannot run inside a transaction.
    atomic = False

    dependencies = [
        ("assets", "0015_chunk_search_vector_without_tags"),
    ]

    operations = [
        migrations.AddField(
            model_name="tenantvectorindex",
            name="indexed_through_id",
            field=models.BigIntegerField(blank=True, null=True),
        ),
        AddIndexConcurrently(
            model_name="assetchunk",
            index=models.Index(
                condition=models.Q(("id__gt", 0)),
                fields=["organization", "id"],
                name="asset_chunk_org_id",
            ),
        ),
    ]
