"""The trigram index of chunk texts, scoped to the organization (btree_gin).

Every search filters on the organization. With the trigram index on ``text`` alone, the
GIN scan proposed the matching chunks of every organization and each was rechecked with
``word_similarity`` over its whole text before the organization filter dropped it; with
``organization_id`` in the same GIN index only the organization's own candidates are
rechecked (bench/bench_search.py: about 9 in 10 rechecks saved with 10 organizations).
"""

import django.contrib.postgres.indexes
import django.contrib.postgres.operations
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("assets", "0006_embedding_models")]

    operations = [
        django.contrib.postgres.operations.BtreeGinExtension(),
        migrations.RemoveIndex(model_name="assetchunk", name="asset_chunk_text_trigram"),
        migrations.AddIndex(
            model_name="assetchunk",
            index=django.contrib.postgres.indexes.GinIndex(
                fields=["organization", "text"],
                name="asset_chunk_org_text_trigram",
                opclasses=["uuid_ops", "gin_trgm_ops"],
            ),
        ),
    ]
