"""On PostgreSQL, the database itself refuses a transaction that leaves an existing club with no
owner (a demotion or removal that raced past the service's club lock, a raw UPDATE in a shell).
A deferred constraint trigger, checked at commit: deleting a whole club (its memberships go with
it) still works, since the club row is gone by then. SQLite relies on the service's lock (one
writer at a time)."""

from django.db import migrations

CREATE = """
CREATE FUNCTION leagues_club_keeps_an_owner() RETURNS trigger AS $$
BEGIN
    IF OLD.role = 'owner'
       AND EXISTS (SELECT 1 FROM leagues_club WHERE id = OLD.club_id)
       AND NOT EXISTS (
           SELECT 1 FROM leagues_membership WHERE club_id = OLD.club_id AND role = 'owner'
       ) THEN
        RAISE EXCEPTION 'club % would be left without an owner', OLD.club_id
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE CONSTRAINT TRIGGER leagues_membership_keeps_an_owner
    AFTER UPDATE OF role OR DELETE ON leagues_membership
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION leagues_club_keeps_an_owner();
"""
DROP = """
DROP TRIGGER IF EXISTS leagues_membership_keeps_an_owner ON leagues_membership;
DROP FUNCTION IF EXISTS leagues_club_keeps_an_owner();
"""


def _create(apps, schema_editor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def _drop(apps, schema_editor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("leagues", "0003_invitation_uses")]

    operations = [migrations.RunPython(_create, _drop)]
