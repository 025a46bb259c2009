"""A signature (evidence key, see common/evidence.py) on every document version.

The versions that exist at the upgrade are signed here as they are stored: what they hold
then is taken as it is (`verify` still checks their SHA-256 chain).
"""

from django.db import migrations, models


def sign_existing_versions(apps, schema_editor):  # type: ignore[no-untyped-def]
    from legal_documents.versioning import version_signature

    DocumentVersion = apps.get_model("legal_documents", "DocumentVersion")
    unsigned = DocumentVersion.objects.filter(signature="").only(
        "pk", "document_id", "number", "chain_sha256"
    )
    for version in unsigned.iterator(chunk_size=1000):
        signature = version_signature(
            document_id=version.document_id,
            number=version.number,
            chain_sha256=version.chain_sha256,
        )
        DocumentVersion.objects.filter(pk=version.pk).update(
            signature=signature.value, signature_key_id=signature.key_id
        )


class Migration(migrations.Migration):
    dependencies = [
        ("legal_documents", "0006_finalize_questions"),
    ]

    operations = [
        migrations.AddField(
            model_name="documentversion",
            name="signature",
            field=models.CharField(blank=True, default="", max_length=128),
        ),
        migrations.AddField(
            model_name="documentversion",
            name="signature_key_id",
            field=models.CharField(blank=True, default="", max_length=32),
        ),
        migrations.RunPython(sign_existing_versions, migrations.RunPython.noop),
    ]
