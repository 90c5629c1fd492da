from django.db import migrations, models
from django.utils import timezone


def played_on_from_creation(apps, schema_editor):
    """Games stored before the day was kept were played the day they were started (an imported
    one the day of its import: the best the database knows)."""
    Game = apps.get_model("scorecards", "Game")
    for game in Game.objects.filter(played_on__isnull=True).only("pk", "created_at").iterator():
        day = timezone.localdate(game.created_at) if game.created_at else None
        Game.objects.filter(pk=game.pk).update(played_on=day)


class Migration(migrations.Migration):
    dependencies = [
        ("scorecards", "0003_game_table_habits_and_pot"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="played_on",
            field=models.DateField(blank=True, null=True, verbose_name="played on"),
        ),
        migrations.RunPython(played_on_from_creation, migrations.RunPython.noop),
    ]
