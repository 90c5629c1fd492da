"""Per-game summaries for the standings (derived data: a new, empty table that rebuilds fill;
reversible by dropping it)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('leagues', '0007_player_name_key'),
        ('scorecards', '0003_game_table_habits_and_pot'),
    ]

    operations = [
        migrations.CreateModel(
            name='GameSummary',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('version', models.CharField(max_length=100)),
                ('players', models.JSONField(default=list)),
                ('sides', models.JSONField(default=list)),
                ('winner', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('scores', models.JSONField(default=list)),
                ('hands', models.PositiveIntegerField(default=0)),
                ('seat_counts', models.JSONField(default=list)),
                ('side_counts', models.JSONField(default=list)),
                ('game', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='standings_summary', to='scorecards.game')),
            ],
        ),
    ]
