"""The models of the standings room as an app of their own, on the tables the `leagues` app made
(`db_table` keeps their names): nothing in the database changes but the content types' label."""

import django.db.models.deletion
from django.db import migrations, models


MODELS = ('gamesummary', 'playerrating', 'ratingsnapshot', 'standingssnapshot', 'partnershipstanding', 'playerstanding', 'ratingpoint', 'rebuildfailure')
LABEL = 'standings'


def _relabel(apps, schema_editor, old: str, new: str) -> None:
    """Move this app's content types from the label `old` to `new`: the same rows, ids kept, so
    the admin's history and the permissions given to accounts follow the models."""
    content_type = apps.get_model("contenttypes", "ContentType")
    rows = content_type.objects.using(schema_editor.connection.alias)
    for model in MODELS:
        # A row under the new label already (a `migrate` of another app ran first and made
        # it): keep it and leave the old one, which `remove_stale_contenttypes` clears.
        if not rows.filter(app_label=new, model=model).exists():
            rows.filter(app_label=old, model=model).update(app_label=new)


def content_types_forward(apps, schema_editor) -> None:
    _relabel(apps, schema_editor, "leagues", LABEL)


def content_types_back(apps, schema_editor) -> None:
    _relabel(apps, schema_editor, LABEL, "leagues")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ('clubs', '0001_initial'),
        ('scorecards', '0005_rooms_are_apps'),
    ]

    operations = [
        # The tables exist: the `leagues` app's migrations made them (its 0011 runs before
        # `clubs` 0001). Only Django's picture of the models moves.
        migrations.SeparateDatabaseAndState(
            state_operations=[
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
                    options={
                        'db_table': 'leagues_gamesummary',
                    },
                ),
                migrations.CreateModel(
                    name='PlayerRating',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('mu', models.FloatField()),
                        ('sigma', models.FloatField()),
                        ('ordinal', models.FloatField(verbose_name='rating')),
                        ('games', models.PositiveIntegerField(default=0, verbose_name='games')),
                        ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='player_ratings', to='clubs.club')),
                        ('player', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='rating', to='clubs.player')),
                    ],
                    options={
                        'db_table': 'leagues_playerrating',
                        'ordering': ['-ordinal'],
                    },
                ),
                migrations.CreateModel(
                    name='RatingSnapshot',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('computed_at', models.DateTimeField()),
                        ('games', models.PositiveIntegerField(default=0)),
                        ('last_finished_at', models.DateTimeField(blank=True, null=True)),
                        ('last_game_id', models.PositiveBigIntegerField(blank=True, null=True)),
                        ('rated_players', models.PositiveIntegerField(default=0)),
                        ('club', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to='clubs.club')),
                    ],
                    options={
                        'db_table': 'leagues_ratingsnapshot',
                    },
                ),
                migrations.CreateModel(
                    name='StandingsSnapshot',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('computed_at', models.DateTimeField()),
                        ('games', models.PositiveIntegerField(default=0)),
                        ('hands', models.PositiveIntegerField(default=0)),
                        ('season', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='standings', to='clubs.season')),
                    ],
                    options={
                        'db_table': 'leagues_standingssnapshot',
                    },
                ),
                migrations.CreateModel(
                    name='PartnershipStanding',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('games', models.PositiveIntegerField(default=0, verbose_name='games')),
                        ('wins', models.PositiveIntegerField(default=0, verbose_name='wins')),
                        ('draws', models.PositiveIntegerField(default=0, verbose_name='draws')),
                        ('win_pct', models.FloatField(default=0, verbose_name='win %')),
                        ('points_for', models.IntegerField(default=0, verbose_name='points for')),
                        ('points_against', models.IntegerField(default=0, verbose_name='points against')),
                        ('hands', models.PositiveIntegerField(default=0, verbose_name='hands')),
                        ('avg_points', models.FloatField(default=0, verbose_name='avg points per hand')),
                        ('bids_made', models.PositiveIntegerField(default=0, verbose_name='bids made')),
                        ('bids_attempted', models.PositiveIntegerField(default=0, verbose_name='bids attempted')),
                        ('nt_bids_made', models.PositiveIntegerField(default=0, verbose_name='no-trump bids made')),
                        ('times_set', models.PositiveIntegerField(default=0, verbose_name='times set')),
                        ('kaisers', models.PositiveIntegerField(default=0, verbose_name='kaisers')),
                        ('streak', models.IntegerField(default=0, verbose_name='streak')),
                        ('first', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='clubs.player')),
                        ('season', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='partnership_standings', to='clubs.season')),
                        ('second', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='clubs.player')),
                    ],
                    options={
                        'db_table': 'leagues_partnershipstanding',
                        'ordering': ['-wins', 'first__name'],
                        'constraints': [models.UniqueConstraint(fields=('season', 'first', 'second'), name='standing_partnership_once'), models.CheckConstraint(condition=models.Q(('first__lt', models.F('second'))), name='partnership_ordered')],
                    },
                ),
                migrations.CreateModel(
                    name='PlayerStanding',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('games', models.PositiveIntegerField(default=0, verbose_name='games')),
                        ('wins', models.PositiveIntegerField(default=0, verbose_name='wins')),
                        ('draws', models.PositiveIntegerField(default=0, verbose_name='draws')),
                        ('win_pct', models.FloatField(default=0, verbose_name='win %')),
                        ('points_for', models.IntegerField(default=0, verbose_name='points for')),
                        ('points_against', models.IntegerField(default=0, verbose_name='points against')),
                        ('hands', models.PositiveIntegerField(default=0, verbose_name='hands')),
                        ('avg_points', models.FloatField(default=0, verbose_name='avg points per hand')),
                        ('bids_made', models.PositiveIntegerField(default=0, verbose_name='bids made')),
                        ('bids_attempted', models.PositiveIntegerField(default=0, verbose_name='bids attempted')),
                        ('nt_bids_made', models.PositiveIntegerField(default=0, verbose_name='no-trump bids made')),
                        ('times_set', models.PositiveIntegerField(default=0, verbose_name='times set')),
                        ('kaisers', models.PositiveIntegerField(default=0, verbose_name='kaisers')),
                        ('streak', models.IntegerField(default=0, verbose_name='streak')),
                        ('nights', models.PositiveIntegerField(default=0, verbose_name='nights')),
                        ('night_wins', models.PositiveIntegerField(default=0, verbose_name='night wins')),
                        ('pot_balance', models.IntegerField(default=0, verbose_name='pot balance')),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='standings', to='clubs.player')),
                        ('season', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='player_standings', to='clubs.season')),
                    ],
                    options={
                        'db_table': 'leagues_playerstanding',
                        'ordering': ['-wins', 'player__name'],
                        'constraints': [models.UniqueConstraint(fields=('season', 'player'), name='standing_player_once')],
                    },
                ),
                migrations.CreateModel(
                    name='RatingPoint',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('seq', models.PositiveIntegerField()),
                        ('mu', models.FloatField()),
                        ('sigma', models.FloatField()),
                        ('ordinal', models.FloatField()),
                        ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='scorecards.game')),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_points', to='clubs.player')),
                    ],
                    options={
                        'db_table': 'leagues_ratingpoint',
                        'ordering': ['player', 'seq'],
                        'constraints': [models.UniqueConstraint(fields=('player', 'game'), name='rating_point_once')],
                    },
                ),
                migrations.CreateModel(
                    name='RebuildFailure',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('standings', 'standings'), ('ratings', 'ratings')], max_length=10, verbose_name='kind')),
                        ('error', models.TextField(verbose_name='error')),
                        ('games_left_out', models.JSONField(blank=True, default=list, verbose_name='games left out')),
                        ('failed_at', models.DateTimeField(verbose_name='failed at')),
                        ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rebuild_failures', to='clubs.club')),
                        ('season', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='rebuild_failures', to='clubs.season')),
                    ],
                    options={
                        'db_table': 'leagues_rebuildfailure',
                        'ordering': ['-failed_at'],
                        'constraints': [models.UniqueConstraint(condition=models.Q(('kind', 'standings')), fields=('season',), name='rebuild_failure_once_per_season'), models.UniqueConstraint(condition=models.Q(('kind', 'ratings')), fields=('club',), name='rebuild_failure_once_per_club'), models.CheckConstraint(condition=models.Q(models.Q(('kind', 'standings'), ('season__isnull', False)), models.Q(('kind', 'ratings'), ('season__isnull', True)), _connector='OR'), name='rebuild_failure_kind_matches')],
                    },
                ),
            ],
        ),
        migrations.RunPython(content_types_forward, content_types_back),
    ]
