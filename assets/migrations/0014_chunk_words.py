"""Typo queries through a table of each organization's words, not a trigram index of texts.

The trigram ranker rechecked ``word_similarity`` over every whole chunk its GIN trigram
index proposed: typo queries took 93 ms p50 and 806 ms p95 at 100,000 chunks
(bench/bench_search.py). pg_trgm's documentation ("Text Search Integration") describes
the alternative taken here: a table of the distinct words of the documents, trigram
indexed, finds the words similar to a query word; the full-text index then finds the
chunks holding them (assets/search.py).

1. ``assets_chunkword`` (organization, word): the distinct lexemes of the chunks'
   ``search_vector``, filled by a statement-level AFTER INSERT trigger reading the
   statement's new rows (a transition table), so that ingestion's COPY and any INSERT
   fill it alike, once per statement; then the words of the existing chunks (one
   statement per organization), then its trigram index (the organization first).
2. The chunk table's GIN index keeps the organization and ``search_vector`` only: nothing
   reads ``text`` through trigrams any more (the admin's chunk search is ``UPPER(text)
   LIKE``, which the trigram opclass never served), and every stored chunk no longer
   adds its text's trigrams to it. Built CONCURRENTLY under a temporary name, the old one
   dropped CONCURRENTLY, then renamed: full-text search always has an index, and
   ingestion is never blocked (tests/deploy/test_chunk_index_migrations.py).

Measured (bench/bench_search.py, 100,000 chunks of 10 organizations, same busy 2-core
machine, load average 4 to 7, before and after): hybrid typo queries p50 465 -> 37 ms, p95
3,350 -> 71 ms; COPY of 20,000 chunks without vectors 12.3 s with the trigram GIN, 5.6 s
with this index and the word trigger (4.1 s without the trigger). For the words, GIN
lookups (0.43 ms p50, 464 kB) beat a GiST index's KNN ordering (0.71 ms, 2.1 MB).

Words are never removed with their chunks (see ChunkWord): a word no chunk holds any more
only proposes a word the full-text index finds nowhere.
"""

import django.contrib.postgres.indexes
import django.db.models.deletion
from django.contrib.postgres.operations import AddIndexConcurrently
from django.db import migrations, models

# In the primary key's order (word, organization), so that two statements adding the
# same new words take their index entries in the same order (ON CONFLICT waits for an uncommitted equal word: in any other order two
# ingestions of one organization could deadlock).
CREATE_TRIGGER = """
CREATE FUNCTION assets_chunk_words_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO assets_chunkword (organization_id, word)
    SELECT DISTINCT chunk.organization_id, word
    FROM new_chunks chunk, unnest(tsvector_to_array(chunk.search_vector)) word
    ORDER BY 2, 1
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;
CREATE TRIGGER assets_chunk_words AFTER INSERT ON assets_assetchunk
REFERENCING NEW TABLE AS new_chunks
FOR EACH STATEMENT EXECUTE FUNCTION assets_chunk_words_insert();
"""
DROP_TRIGGER = """
DROP TRIGGER IF EXISTS assets_chunk_words ON assets_assetchunk;
DROP FUNCTION IF EXISTS assets_chunk_words_insert();
"""
BACKFILL_ORGANIZATION = """
INSERT INTO assets_chunkword (organization_id, word)
SELECT DISTINCT chunk.organization_id, word
FROM assets_assetchunk chunk, unnest(tsvector_to_array(chunk.search_vector)) word
WHERE chunk.organization_id = %s
ORDER BY 2, 1
ON CONFLICT DO NOTHING
"""
TEXT_SEARCH_INDEX = (
    "CREATE INDEX CONCURRENTLY IF NOT EXISTS {name} ON assets_assetchunk USING gin "
    "(organization_id uuid_ops, search_vector tsvector_ops{trigrams})"
)
NEW_INDEX = "asset_chunk_org_text_search_next"
OLD_INDEX = "asset_chunk_org_text_search"


def backfill_words(apps, schema_editor):  # type: ignore[no-untyped-def]
    """The words of the chunks stored before the trigger, one organization at a time (one
    short statement each; chunks stored meanwhile are the trigger's)."""
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT DISTINCT organization_id FROM assets_assetchunk")
        for (organization_id,) in cursor.fetchall():
            cursor.execute(BACKFILL_ORGANIZATION, [organization_id])


class Migration(migrations.Migration):
    # CREATE/DROP INDEX CONCURRENTLY cannot run in a transaction.
    atomic = False

    dependencies = [
        ("assets", "0013_tenant_vector_indexes"),
        ("organizations", "0003_client_company_details_json"),
    ]

    operations = [
        migrations.CreateModel(
            name="ChunkWord",
            fields=[
                (
                    "pk",
                    models.CompositePrimaryKey(
                        "word",
                        "organization",
                        blank=True,
                        editable=False,
                        primary_key=True,
                        serialize=False,
                    ),
                ),
                (
                    "organization",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="organizations.organization",
                    ),
                ),
                ("word", models.TextField()),
            ],
        ),  # fmt: skip
        migrations.RunSQL(sql=CREATE_TRIGGER, reverse_sql=DROP_TRIGGER),
        migrations.RunPython(backfill_words, migrations.RunPython.noop),
        AddIndexConcurrently(
            model_name="chunkword",
            index=django.contrib.postgres.indexes.GinIndex(
                fields=["organization", "word"],
                name="chunk_word_org_trigram",
                opclasses=["uuid_ops", "gin_trgm_ops"],
                fastupdate=False,
            ),
        ),
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(
                    sql=[
                        TEXT_SEARCH_INDEX.format(name=NEW_INDEX, trigrams=""),
                        f"DROP INDEX CONCURRENTLY IF EXISTS {OLD_INDEX}",
                        f"ALTER INDEX {NEW_INDEX} RENAME TO {OLD_INDEX}",
                    ],
                    reverse_sql=[
                        TEXT_SEARCH_INDEX.format(name=NEW_INDEX, trigrams=", text gin_trgm_ops"),
                        f"DROP INDEX CONCURRENTLY IF EXISTS {OLD_INDEX}",
                        f"ALTER INDEX {NEW_INDEX} RENAME TO {OLD_INDEX}",
                    ],
                ),
            ],
            state_operations=[
                migrations.RemoveIndex(model_name="assetchunk", name=OLD_INDEX),
                migrations.AddIndex(
                    model_name="assetchunk",
                    index=django.contrib.postgres.indexes.GinIndex(
                        fields=["organization", "search_vector"],
                        name=OLD_INDEX,
                        opclasses=["uuid_ops", "tsvector_ops"],
                    ),
                ),
            ],
        ),
    ]
