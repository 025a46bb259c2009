"""The asset's OCR summary: whether pages were recognised, with what confidence (item 4 of
issue 29). Nullable: existing rows need no value and the table is not rewritten."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("assets", "0010_asset_processing_claim_removed"),
    ]

    operations = [
        migrations.AddField(
            model_name="asset",
            name="ocr",
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
    ]
