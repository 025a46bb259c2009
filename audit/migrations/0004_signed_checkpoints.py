"""Signed chain heads (audit.checkpoints), and no TRUNCATE of the audit table.

The existing heads are signed here with the configured key: what the chain holds at the
upgrade is taken as it is (`verify_audit_chain` still checks its SHA-256 links).
The TRUNCATE trigger is statement-level, the only kind PostgreSQL allows for TRUNCATE;
row triggers do not fire on it, so without it one statement would empty the trail.
"""

from django.db import migrations, models
from django.utils import timezone

NO_TRUNCATE = """
CREATE TRIGGER audit_event_no_truncate
    BEFORE TRUNCATE ON audit_auditevent
    FOR EACH STATEMENT EXECUTE FUNCTION audit_event_append_only();
"""
ALLOW_TRUNCATE = "DROP TRIGGER IF EXISTS audit_event_no_truncate ON audit_auditevent;"


def sign_existing_heads(apps, schema_editor):  # type: ignore[no-untyped-def]
    from audit.checkpoints import chain_name, checkpoint_row

    AuditEvent = apps.get_model("audit", "AuditEvent")
    ChainCheckpoint = apps.get_model("audit", "ChainCheckpoint")
    organization_ids = AuditEvent.objects.values_list("organization_id", flat=True).distinct()
    for organization_id in organization_ids:
        head = AuditEvent.objects.filter(organization_id=organization_id).order_by("-id").first()
        chain, head_event_id, head_hash, signed_at, key_id, signature = checkpoint_row(
            chain=chain_name(organization_id),
            head_event_id=head.id,
            head_hash=head.hash,
            signed_at=timezone.now(),
        )
        ChainCheckpoint.objects.update_or_create(
            chain=chain,
            defaults={
                "head_event_id": head_event_id,
                "head_hash": head_hash,
                "signed_at": signed_at,
                "key_id": key_id,
                "signature": signature,
            },
        )


class Migration(migrations.Migration):
    dependencies = [("audit", "0003_append_function")]

    operations = [
        migrations.CreateModel(
            name="ChainCheckpoint",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("chain", models.CharField(max_length=64, unique=True)),
                ("head_event_id", models.BigIntegerField()),
                ("head_hash", models.CharField(max_length=64)),
                ("signed_at", models.DateTimeField()),
                ("key_id", models.CharField(max_length=32)),
                ("signature", models.CharField(max_length=128)),
            ],
        ),
        migrations.RunSQL(NO_TRUNCATE, ALLOW_TRUNCATE),
        migrations.RunPython(sign_existing_heads, migrations.RunPython.noop),
    ]
