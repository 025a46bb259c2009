"""Hybrid search: structured locations, a full-text column and a trigram index on chunks.

Existing chunks get their page/sheet/slide from ``location`` (the same rule as
``AssetChunk.location_fields``); the generated ``search_vector`` fills itself.
"""

import django.contrib.postgres.indexes
import django.contrib.postgres.operations
import django.contrib.postgres.search
from django.db import migrations, models

FILL_LOCATIONS = r"""
UPDATE assets_assetchunk SET page_number = substring(location FROM '^page ([0-9]{1,9})$')::integer
    WHERE location ~ '^page [0-9]{1,9}$';
UPDATE assets_assetchunk SET slide_number = substring(location FROM '^slide ([0-9]{1,9})$')::integer
    WHERE location ~ '^slide [0-9]{1,9}$';
UPDATE assets_assetchunk SET sheet_name = substring(location FROM 7)
    WHERE location LIKE 'sheet _%';
"""


class Migration(migrations.Migration):
    dependencies = [
        ("assets", "0003_asset_processing_attempts"),
        ("organizations", "0002_auditors_group"),
    ]

    operations = [
        django.contrib.postgres.operations.TrigramExtension(),
        migrations.AddField(
            model_name="assetchunk",
            name="page_number",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="assetchunk",
            name="search_vector",
            field=models.GeneratedField(
                db_persist=True,
                expression=django.contrib.postgres.search.SearchVector("text", config="simple"),
                output_field=django.contrib.postgres.search.SearchVectorField(),
            ),
        ),
        migrations.AddField(
            model_name="assetchunk",
            name="sheet_name",
            field=models.CharField(blank=True, default="", max_length=200),
        ),
        migrations.AddField(
            model_name="assetchunk",
            name="slide_number",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.RunSQL(FILL_LOCATIONS, migrations.RunSQL.noop),
        migrations.AddIndex(
            model_name="assetchunk",
            index=django.contrib.postgres.indexes.GinIndex(
                fields=["search_vector"], name="asset_chunk_search_vector"
            ),
        ),
        migrations.AddIndex(
            model_name="assetchunk",
            index=django.contrib.postgres.indexes.GinIndex(
                fields=["text"], name="asset_chunk_text_trigram", opclasses=["gin_trgm_ops"]
            ),
        ),
    ]
