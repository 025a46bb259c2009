"""The chunks' ``search_vector`` reads '<' and '>' as spaces.

PostgreSQL's text parser takes "<" followed by a letter up to the next ">" for an HTML tag
and drops the words inside it: "<jane@example.org>" in an e-mail export, a Word field code
between "<<" and ">>" ("<followed by text … Odd-page section>" in
tests/corpus docx/page-breaks.docx) were in no index. The trigram ranker used to find such
words in the raw text; since typo queries go through the indexed words (migration 0014),
they must be indexed.

Django cannot alter a generated column's expression; PostgreSQL 17 can (``ALTER COLUMN ...
SET EXPRESSION``, a rewrite of the table under its lock, like a column added with a
default). The words of the rewritten vectors are added to the organizations' word tables
afterwards: the table's trigger fires on INSERT only.
"""

import importlib

import django.contrib.postgres.search
from django.db import migrations, models

_WORDS = importlib.import_module("assets.migrations.0014_chunk_words")


def set_expression(apps, schema_editor):  # type: ignore[no-untyped-def]
    chunk = apps.get_model("assets", "AssetChunk")
    field = chunk._meta.get_field("search_vector")
    expression, params = field.generated_sql(schema_editor.connection)
    schema_editor.execute(
        f"ALTER TABLE assets_assetchunk ALTER COLUMN search_vector SET EXPRESSION AS ({expression})",
        params,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("assets", "0014_chunk_words"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="assetchunk",
                    name="search_vector",
                    field=models.GeneratedField(
                        db_persist=True,
                        expression=django.contrib.postgres.search.SearchVector(
                            models.Func(
                                "text",
                                models.Value("<>"),
                                models.Value("  "),
                                function="translate",
                                output_field=models.TextField(),
                            ),
                            config="simple",
                        ),
                        output_field=django.contrib.postgres.search.SearchVectorField(),
                    ),
                ),
            ],
        ),
        # After the state's change: ``apps`` has the new expression.
        migrations.RunPython(set_expression, migrations.RunPython.noop),
        migrations.RunPython(_WORDS.backfill_words, migrations.RunPython.noop),
    ]
