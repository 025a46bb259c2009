"""Client company details become JSON: existing texts are kept, as JSON strings.

Django's own AlterField would cast the text to jsonb and fail on any text that is not JSON
already; `to_jsonb(text)` wraps each text into a JSON string instead (blank becomes {}).
"""

from django.db import migrations, models

FORWARD = """
ALTER TABLE organizations_clientcompany
    ALTER COLUMN details DROP DEFAULT,
    ALTER COLUMN details TYPE jsonb
        USING CASE WHEN details = '' THEN '{}'::jsonb ELSE to_jsonb(details) END;
"""
# Back to text: a JSON string becomes its text again, an object its JSON text.
BACKWARD = """
ALTER TABLE organizations_clientcompany
    ALTER COLUMN details TYPE text
        USING CASE
            WHEN jsonb_typeof(details) = 'string' THEN details #>> '{}'
            WHEN details = '{}'::jsonb THEN ''
            ELSE details::text
        END;
"""


class Migration(migrations.Migration):
    dependencies = [("organizations", "0002_auditors_group")]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunSQL(FORWARD, BACKWARD)],
            state_operations=[
                migrations.AlterField(
                    model_name="clientcompany",
                    name="details",
                    field=models.JSONField(blank=True, default=dict),
                )
            ],
        )
    ]
