"""`audit_append`: lock the organization's chain, read its head, insert — one statement.

Recording an access is on the path of every API read; doing it in one round trip (instead
of begin, lock, read, insert, commit) keeps audited reads fast. The advisory lock is held
until the surrounding transaction ends, so two writers never claim the same predecessor.
"""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION audit_append(
    p_organization_id uuid, p_lock_key bigint, p_at timestamptz, p_actor varchar,
    p_actor_user_id integer, p_action varchar, p_object_type varchar, p_object_id varchar,
    p_outcome varchar, p_ip inet, p_details jsonb, p_content_hash text
) RETURNS TABLE (event_id bigint, event_previous_hash varchar, event_hash varchar) AS $$
DECLARE
    v_previous varchar(64);
BEGIN
    PERFORM pg_advisory_xact_lock(p_lock_key);
    IF p_organization_id IS NULL THEN
        SELECT e.hash INTO v_previous FROM audit_auditevent e
         WHERE e.organization_id IS NULL ORDER BY e.id DESC LIMIT 1;
    ELSE
        SELECT e.hash INTO v_previous FROM audit_auditevent e
         WHERE e.organization_id = p_organization_id ORDER BY e.id DESC LIMIT 1;
    END IF;
    v_previous := coalesce(v_previous, repeat('0', 64));
    RETURN QUERY
    INSERT INTO audit_auditevent AS e (
        organization_id, at, actor, actor_user_id, action, object_type, object_id, outcome,
        ip, details, previous_hash, hash
    ) VALUES (
        p_organization_id, p_at, p_actor, p_actor_user_id, p_action, p_object_type,
        p_object_id, p_outcome, p_ip, p_details, v_previous,
        encode(sha256(convert_to(v_previous || p_content_hash, 'UTF8')), 'hex')
    )
    RETURNING e.id, e.previous_hash, e.hash;
END;
$$ LANGUAGE plpgsql;
"""
DROP = "DROP FUNCTION IF EXISTS audit_append(uuid, bigint, timestamptz, varchar, integer, varchar, varchar, varchar, varchar, inet, jsonb, text);"


class Migration(migrations.Migration):
    dependencies = [("audit", "0002_append_only_trigger")]
    operations = [migrations.RunSQL(CREATE, DROP)]
