"""The asset's own claim columns, replaced by the lease (0009), and the sweeper's index."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("assets", "0009_asset_processing_lease"),
    ]

    operations = [
        migrations.RemoveField(
            model_name="asset",
            name="processing_attempts",
        ),
        migrations.RemoveField(
            model_name="asset",
            name="processing_token",
        ),
        migrations.AddIndex(
            model_name="asset",
            index=models.Index(
                condition=models.Q(("lease_state", "idle"), _negated=True),
                fields=["lease_state"],
                name="asset_lease_active",
            ),
        ),
    ]
