"""The lease of common.background on documents and packages (issue 27); work in flight queued."""

from django.db import migrations, models
from django.db.models import F
from django.db.models.functions import Coalesce, Now


def lease_the_work_in_flight(apps, schema_editor):
    """Documents and packages `processing` become queued work the one sweeper sends again.

    Due when their job started (or the package was requested): a job whose task is still
    in the broker claims it; one lost is sent again, or ends failed past its kind's
    `max_queued_seconds`, by the sweeper (legal_documents/work.py).
    """
    LegalDocument = apps.get_model("legal_documents", "LegalDocument")
    DocumentationPackage = apps.get_model("legal_documents", "DocumentationPackage")
    DocumentIteration = apps.get_model("legal_documents", "DocumentIteration")
    LegalDocument.objects.filter(status="processing").update(
        lease_state="queued", due_at=Coalesce(F("processing_started_at"), Now())
    )
    DocumentationPackage.objects.filter(status="processing").update(
        lease_state="queued", due_at=F("created_at")
    )
    # What the removed `finish_interrupted_iterations` sweep did: an iteration whose job has
    # ended without it is closed (the lease now ends both in one transaction).
    DocumentIteration.objects.filter(status="processing").exclude(
        document__status="processing"
    ).update(
        status="failed",
        response="The edit was interrupted before it finished; send the message again.",
        completed_at=Now(),
    )


class Migration(migrations.Migration):
    dependencies = [
        ("legal_documents", "0009_document_language"),
    ]

    operations = [
        migrations.AddField(
            model_name="documentationpackage",
            name="attempts",
            field=models.PositiveSmallIntegerField(default=0, editable=False),
        ),
        migrations.AddField(
            model_name="documentationpackage",
            name="due_at",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="documentationpackage",
            name="last_error",
            field=models.TextField(blank=True, default="", editable=False),
        ),
        migrations.AddField(
            model_name="documentationpackage",
            name="lease_expires_at",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="documentationpackage",
            name="lease_state",
            field=models.CharField(
                choices=[("idle", "Idle"), ("queued", "Queued"), ("leased", "Leased")],
                default="idle",
                editable=False,
                max_length=8,
            ),
        ),
        migrations.AddField(
            model_name="documentationpackage",
            name="lease_token",
            field=models.UUIDField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="legaldocument",
            name="attempts",
            field=models.PositiveSmallIntegerField(default=0, editable=False),
        ),
        migrations.AddField(
            model_name="legaldocument",
            name="due_at",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="legaldocument",
            name="last_error",
            field=models.TextField(blank=True, default="", editable=False),
        ),
        migrations.AddField(
            model_name="legaldocument",
            name="lease_expires_at",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="legaldocument",
            name="lease_state",
            field=models.CharField(
                choices=[("idle", "Idle"), ("queued", "Queued"), ("leased", "Leased")],
                default="idle",
                editable=False,
                max_length=8,
            ),
        ),
        migrations.AddField(
            model_name="legaldocument",
            name="lease_token",
            field=models.UUIDField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(lease_the_work_in_flight, migrations.RunPython.noop),
    ]
