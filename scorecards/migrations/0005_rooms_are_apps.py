"""The seats and games point at the players, clubs and seasons of the `clubs` app: the same
tables and columns, so only Django's picture changes (no foreign key is dropped and remade)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0001_initial'),
        ('scorecards', '0004_game_played_on'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='game',
                    name='club',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='games', to='clubs.club'),
                ),
                migrations.AlterField(
                    model_name='game',
                    name='season',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='games', to='clubs.season'),
                ),
                migrations.AlterField(
                    model_name='seat',
                    name='player',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='seats', to='clubs.player'),
                ),
    
            ],
        ),
    ]
