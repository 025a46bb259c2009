"""An asset's processing moves onto the one lease of background work (common.background).

The lease columns (LeasedWork) replace the asset's own claim: ``processing_token`` becomes
``lease_token`` and ``processing_attempts`` becomes ``attempts``. Rows in flight keep their
place: an UPLOADED asset is queued (its task, sent or lost, is sent again by the sweeper
if it waits), a PROCESSING one is leased until its attempt's time budget and grace end
(measured from ``processing_started_at``, as the old take-over was), so that a running
attempt keeps writing and a lost one is taken over then. ``processing_started_at`` stays:
the admin shows it, the re-embedding reads it. The old columns go in 0010 (PostgreSQL
does not alter a table with the pending trigger events of this migration's updates).
"""

from django.conf import settings
from django.db import migrations, models
from django.db.models import F
from django.db.models.functions import Now

MIB = 1024 * 1024
# assets.time_budget.GRACE_SECONDS when this was written (a migration does not follow code).
GRACE_SECONDS = 60


def _lease_seconds(file_size):
    size = max(file_size or 0, 0)
    per_mb = settings.ASSET_PROCESSING_SECONDS_PER_MB
    return settings.ASSET_PROCESSING_TIMEOUT_SECONDS + -(-per_mb * size // MIB) + GRACE_SECONDS


def to_lease(apps, schema_editor):
    import datetime
    import uuid

    Asset = apps.get_model("assets", "Asset")
    Asset.objects.update(attempts=F("processing_attempts"))
    Asset.objects.filter(status="UPLOADED").update(lease_state="queued", due_at=Now())
    for asset in Asset.objects.filter(status="PROCESSING").only(
        "pk", "file_size", "processing_started_at", "processing_token", "updated_at"
    ):
        started = asset.processing_started_at or asset.updated_at
        Asset.objects.filter(pk=asset.pk).update(
            lease_state="leased",
            lease_token=asset.processing_token or uuid.uuid4(),
            lease_expires_at=started + datetime.timedelta(seconds=_lease_seconds(asset.file_size)),
        )


def from_lease(apps, schema_editor):
    Asset = apps.get_model("assets", "Asset")
    Asset.objects.update(processing_attempts=F("attempts"))
    Asset.objects.filter(status="PROCESSING").update(processing_token=F("lease_token"))


class Migration(migrations.Migration):
    dependencies = [
        ("assets", "0008_chunk_text_search_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="asset",
            name="attempts",
            field=models.PositiveSmallIntegerField(default=0, editable=False),
        ),
        migrations.AddField(
            model_name="asset",
            name="due_at",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="asset",
            name="last_error",
            field=models.TextField(blank=True, default="", editable=False),
        ),
        migrations.AddField(
            model_name="asset",
            name="lease_expires_at",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="asset",
            name="lease_state",
            field=models.CharField(
                choices=[("idle", "Idle"), ("queued", "Queued"), ("leased", "Leased")],
                default="idle",
                editable=False,
                max_length=8,
            ),
        ),
        migrations.AddField(
            model_name="asset",
            name="lease_token",
            field=models.UUIDField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(to_lease, from_lease),
    ]
