"""Keyed links (audit.chain): the event's hash is made in Python, with the evidence key.

`audit_append` computed the link in SQL, where the key must never be. It is replaced by
`audit_chain_head`, which takes the chain's advisory lock and returns, in one round trip,
the id the new event will have (drawn under the lock, so ids grow along a chain), the
chain's head and its signed checkpoint. The caller checks the checkpoint against the head
before it signs a new one (audit.services), computes the keyed link and inserts the event
with its new signed head in a second statement, in the same transaction.

Existing events keep their SHA-256 hashes (`link_key_id` empty): nothing is rewritten, and
the first keyed event of each chain covers them (see audit.chain).
"""

from django.db import migrations, models

HEAD = """
CREATE OR REPLACE FUNCTION audit_chain_head(
    p_organization_id uuid, p_lock_key bigint, p_chain varchar
) RETURNS TABLE (
    r_next_event_id bigint, r_head_event_id bigint, r_head_hash varchar,
    r_checkpoint_event_id bigint, r_checkpoint_hash varchar, r_checkpoint_signed_at timestamptz,
    r_checkpoint_key_id varchar, r_checkpoint_signature varchar
) AS $$
DECLARE
    v_head_id bigint;
    v_head_hash varchar(64);
BEGIN
    PERFORM pg_advisory_xact_lock(p_lock_key);
    IF p_organization_id IS NULL THEN
        SELECT e.id, e.hash INTO v_head_id, v_head_hash FROM audit_auditevent e
         WHERE e.organization_id IS NULL ORDER BY e.id DESC LIMIT 1;
    ELSE
        SELECT e.id, e.hash INTO v_head_id, v_head_hash FROM audit_auditevent e
         WHERE e.organization_id = p_organization_id ORDER BY e.id DESC LIMIT 1;
    END IF;
    RETURN QUERY
    SELECT nextval(pg_get_serial_sequence('audit_auditevent', 'id')), v_head_id, v_head_hash,
           c.head_event_id, c.head_hash, c.signed_at, c.key_id, c.signature
      FROM (SELECT 1) AS one
      LEFT JOIN audit_chaincheckpoint c ON c.chain = p_chain;
END;
$$ LANGUAGE plpgsql;
DROP FUNCTION IF EXISTS audit_append(uuid, bigint, timestamptz, varchar, integer, varchar, varchar, varchar, varchar, inet, jsonb, text);
"""
DROP_HEAD = "DROP FUNCTION IF EXISTS audit_chain_head(uuid, bigint, varchar);"


def _restore_append(apps, schema_editor):  # type: ignore[no-untyped-def]
    from importlib import import_module

    schema_editor.execute(import_module("audit.migrations.0003_append_function").CREATE)


class Migration(migrations.Migration):
    dependencies = [("audit", "0004_signed_checkpoints")]

    operations = [
        migrations.AddField(
            model_name="auditevent",
            name="link_key_id",
            field=models.CharField(blank=True, default="", max_length=32),
        ),
        migrations.RunSQL(HEAD, DROP_HEAD),
        migrations.RunPython(migrations.RunPython.noop, _restore_append),
    ]
