"""Per-organization vector indexes instead of one HNSW graph for every organization.

The global ``asset_chunk_embedding_hnsw`` is dropped: a search walked the graph of every
organization's vectors until it had found enough of its own (iterative scan), which costs a
small organization among large ones far more than ranking its few chunks exactly
(bench/bench_search_tenants.py). From now on an organization with
``TENANT_VECTOR_INDEX_MIN_CHUNKS`` chunks or more has its own partial HNSW index, recorded in
``TenantVectorIndex`` and built CONCURRENTLY by ``assets.tenant_indexes`` (a task after an
ingestion, the periodic reconcile, ``manage.py tenant_vector_indexes``); the others are ranked
exactly through the (asset, index) unique index of their COMPLETED assets. An existing
deployment: the first reconcile (beat, within minutes of the start) builds the indexes of
the organizations above the threshold; until then their searches rank exactly.

Exact ranking reads the vector of every chunk of the organization: with the table's default
TOAST threshold (2 kB) a row of 384 dimensions and a chunk of text is too long, and the
vector (the largest value, stored ``external`` by pgvector) went out of line: three more
page reads per chunk, 14 microseconds each (measured: 8.2 ms for 600 chunks, 4,134 buffers).
``toast_tuple_target`` keeps rows of up to 8 kB whole in the table's pages; longer ones are
still toasted. Rows written before keep their layout until rewritten (a re-embedding, VACUUM
FULL, pg_repack).
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("assets", "0012_chunk_asset_index_removed"),
        ("organizations", "0003_client_company_details_json"),
    ]

    operations = [
        migrations.CreateModel(
            name="TenantVectorIndex",
            fields=[
                (
                    "organization",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="vector_index",
                        serialize=False,
                        to="organizations.organization",
                    ),
                ),
                ("index_name", models.CharField(max_length=63, unique=True)),
                (
                    "state",
                    models.CharField(
                        choices=[("BUILDING", "Building"), ("READY", "Ready")],
                        default="BUILDING",
                        max_length=10,
                    ),
                ),
                ("chunks_when_built", models.PositiveIntegerField(default=0)),
                ("build_seconds", models.FloatField(blank=True, null=True)),
                ("built_at", models.DateTimeField(blank=True, null=True)),
            ],
        ),
        migrations.RemoveIndex(model_name="assetchunk", name="asset_chunk_embedding_hnsw"),
        migrations.RunSQL(
            sql="ALTER TABLE assets_assetchunk SET (toast_tuple_target = 8160)",
            reverse_sql="ALTER TABLE assets_assetchunk RESET (toast_tuple_target)",
        ),
    ]
