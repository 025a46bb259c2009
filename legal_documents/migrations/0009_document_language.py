"""The language a document is written in (issue 18); existing documents are English."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("legal_documents", "0008_register_sources")]

    operations = [
        migrations.AddField(
            model_name="legaldocument",
            name="language",
            field=models.CharField(db_index=True, default="en", max_length=5),
        ),
        migrations.AddField(
            model_name="historicallegaldocument",
            name="language",
            field=models.CharField(db_index=True, default="en", max_length=5),
        ),
    ]
