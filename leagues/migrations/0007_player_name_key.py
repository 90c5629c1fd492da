"""Players' names compared by a normalised, case-folded key (the same on SQLite and
PostgreSQL) instead of SQL LOWER: the key is added, filled for existing players, then made
unique per club in place of the old constraint."""

import unicodedata

from django.db import migrations, models


def _key(name: str) -> str:
    # A copy of leagues.models.name_key as it is today: a migration must not change meaning
    # if that function does later.
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold()).strip()


def fill_keys(apps, schema_editor):
    Player = apps.get_model("leagues", "Player")
    players = list(Player.objects.only("pk", "club_id", "name"))
    seen: dict[tuple[int, str], int] = {}
    for player in players:
        key = _key(player.name)
        if (player.club_id, key) in seen:
            # Two names LOWER told apart but the key does not ("Élise"/"élise" on SQLite): the
            # later one gets its id appended rather than failing the upgrade; the club can merge.
            key = f"{key} #{player.pk}"
        seen[(player.club_id, key)] = player.pk
        player.name_key = key
    Player.objects.bulk_update(players, ["name_key"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("leagues", "0006_rebuild_failures")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(default="", editable=False, max_length=400),
            preserve_default=False,
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.RemoveConstraint(model_name="player", name="player_name_unique_in_club"),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                fields=("club", "name_key"), name="player_name_key_unique"
            ),
        ),
    ]
