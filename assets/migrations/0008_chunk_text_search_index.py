"""Two costs of every search at scale, removed.

1. One GIN index for full-text and trigram search, the organization first (btree_gin).
With the full-text index on ``search_vector`` alone, a query's words matched the chunks of
every organization; each match was fetched from the table before the organization filter
dropped it, and common words made that most of the table. Measured
(bench/bench_search.py, 100,000 chunks of 10 organizations, under load): the full-text
ranker of a query of common words took 45 ms (execution, p50) with the old index and 16 ms
with this one. One index, not two: PostgreSQL puts every condition an index can serve into
its scan, so the trigram ranker always scans with ``organization_id`` and ``<%`` together;
with a second organization-led index the planner could read all of an organization's
chunks through it and recheck each with ``word_similarity`` (seen in a plan on few rows;
180 ms for 1,240 chunks, assets/search.py).

2. Planning. The search passes its query to pg_trgm's ``<%`` as a constant, and that
operator's selectivity estimate (matchingsel) runs ``word_similarity`` over each value of
the column's statistics histogram when it has 10 entries or more: about 100 whole chunk
texts at the default statistics target, 9.4 ms of planning for every search (of 10 ms in
all), even when the trigram ranker does not run. The estimate is not needed (the search
chooses its indexes itself, assets/search.py): with a target of 5 the histogram stays
below 10 entries and planning takes 0.6 ms. ANALYZE replaces the statistics gathered
before.
"""

import django.contrib.postgres.indexes
from django.db import migrations

# Below 10 (PostgreSQL selfuncs.c: histogram_selectivity's min_hist_size for matchingsel).
TEXT_STATISTICS = 5


class Migration(migrations.Migration):
    dependencies = [("assets", "0007_chunk_trigram_index_by_organization")]

    operations = [
        migrations.RemoveIndex(model_name="assetchunk", name="asset_chunk_search_vector"),
        migrations.RemoveIndex(model_name="assetchunk", name="asset_chunk_org_text_trigram"),
        migrations.AddIndex(
            model_name="assetchunk",
            index=django.contrib.postgres.indexes.GinIndex(
                fields=["organization", "search_vector", "text"],
                name="asset_chunk_org_text_search",
                opclasses=["uuid_ops", "tsvector_ops", "gin_trgm_ops"],
            ),
        ),
        migrations.RunSQL(
            sql=[
                f"ALTER TABLE assets_assetchunk ALTER COLUMN text SET STATISTICS {TEXT_STATISTICS}",
                "ANALYZE assets_assetchunk (text)",
            ],
            reverse_sql=["ALTER TABLE assets_assetchunk ALTER COLUMN text SET STATISTICS -1"],
        ),
    ]
