from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("assets", "0004_chunk_search_fields")]

    operations = [
        migrations.AddField(
            model_name="asset",
            name="progress_chunks_done",
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.AddField(
            model_name="asset",
            name="progress_chunks_total",
            field=models.PositiveIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="asset",
            name="progress_started_at",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
    ]
