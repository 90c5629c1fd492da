"""The models of the tournaments room as an app of their own, on the tables the `leagues` app made
(`db_table` keeps their names): nothing in the database changes but the content types' label."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


MODELS = ('tournament', 'tournamententry', 'tournamentround', 'tournamentsitout', 'tournamenttable')
LABEL = 'tournaments'


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
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # The tables exist: the `leagues` app's migrations made them (its 0011 runs before
        # `clubs` 0001). Only Django's picture of the models moves.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Tournament',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=100, verbose_name='name')),
                        ('date', models.DateField(verbose_name='date')),
                        ('format', models.CharField(choices=[('rotating', 'Rotating partners, individual totals'), ('round_robin', 'Fixed pairs, round robin'), ('swiss', 'Fixed pairs, Swiss')], default='rotating', max_length=12, verbose_name='format')),
                        ('rounds', models.PositiveSmallIntegerField(default=4, verbose_name='rounds')),
                        ('round_end', models.CharField(choices=[('hands', 'A fixed number of hands'), ('target', 'Play to the target'), ('time', 'A time limit; the director closes the round')], default='hands', max_length=8, verbose_name='a round ends')),
                        ('hands_per_round', models.PositiveSmallIntegerField(default=10, verbose_name='hands per round')),
                        ('extra_hand_on_tie', models.BooleanField(default=True, verbose_name='one more hand on a tie')),
                        ('minutes_per_round', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='minutes per round')),
                        ('rules', models.JSONField(default=dict, verbose_name='rules')),
                        ('hands_need_confirmation', models.BooleanField(default=False, verbose_name='hands need confirming')),
                        ('movement', models.BooleanField(default=False, help_text='Seat each round by the standings instead of spreading partners.', verbose_name='winners up, losers down')),
                        ('sitout_score', models.CharField(choices=[('average', "the round's average"), ('fixed', 'a fixed score')], default='average', max_length=8, verbose_name='a sit-out scores')),
                        ('sitout_points', models.IntegerField(default=0, verbose_name='fixed sit-out score')),
                        ('status', models.CharField(choices=[('registration', 'Registration'), ('running', 'Running'), ('finished', 'Finished'), ('cancelled', 'Cancelled')], default='registration', max_length=12)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='tournaments', to='clubs.club')),
                        ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('season', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='tournaments', to='clubs.season')),
                    ],
                    options={
                        'verbose_name': 'tournament',
                        'verbose_name_plural': 'tournaments',
                        'db_table': 'leagues_tournament',
                        'ordering': ['-date', '-pk'],
                    },
                ),
                migrations.CreateModel(
                    name='TournamentEntry',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('pair_number', models.PositiveSmallIntegerField(blank=True, null=True)),
                        ('checked_in', models.BooleanField(default=False, verbose_name='checked in')),
                        ('first_round', models.PositiveSmallIntegerField(default=1)),
                        ('last_round', models.PositiveSmallIntegerField(blank=True, null=True)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='entries', to='clubs.player')),
                        ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='entries', to='tournaments.tournament')),
                    ],
                    options={
                        'db_table': 'leagues_tournamententry',
                        'ordering': ['tournament', 'pair_number', 'pk'],
                    },
                ),
                migrations.CreateModel(
                    name='TournamentRound',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('number', models.PositiveSmallIntegerField()),
                        ('status', models.CharField(choices=[('playing', 'Playing'), ('closed', 'Closed')], default='playing', max_length=8)),
                        ('drawn_at', models.DateTimeField(auto_now_add=True)),
                        ('closed_at', models.DateTimeField(blank=True, null=True)),
                        ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='round_set', to='tournaments.tournament')),
                    ],
                    options={
                        'db_table': 'leagues_tournamentround',
                        'ordering': ['tournament', 'number'],
                    },
                ),
                migrations.CreateModel(
                    name='TournamentSitOut',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('entry', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='sitouts', to='tournaments.tournamententry')),
                        ('round', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='sitouts', to='tournaments.tournamentround')),
                    ],
                    options={
                        'db_table': 'leagues_tournamentsitout',
                        'ordering': ['round', 'entry'],
                    },
                ),
                migrations.CreateModel(
                    name='TournamentTable',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('number', models.PositiveSmallIntegerField()),
                        ('game', models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='tournament_table', to='scorecards.game')),
                        ('round', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='tables', to='tournaments.tournamentround')),
                    ],
                    options={
                        'db_table': 'leagues_tournamenttable',
                        'ordering': ['round', 'number'],
                    },
                ),
                migrations.AddConstraint(
                    model_name='tournament',
                    constraint=models.CheckConstraint(condition=models.Q(('rounds__gte', 1), ('rounds__lte', 30)), name='tournament_rounds_range'),
                ),
                migrations.AddConstraint(
                    model_name='tournament',
                    constraint=models.CheckConstraint(condition=models.Q(('hands_per_round__gte', 1)), name='tournament_hands_positive'),
                ),
                migrations.AddConstraint(
                    model_name='tournament',
                    constraint=models.CheckConstraint(condition=models.Q(('format__in', ['rotating', 'round_robin', 'swiss'])), name='tournament_format_valid'),
                ),
                migrations.AddConstraint(
                    model_name='tournament',
                    constraint=models.CheckConstraint(condition=models.Q(('round_end__in', ['hands', 'target', 'time'])), name='tournament_round_end_valid'),
                ),
                migrations.AddConstraint(
                    model_name='tournament',
                    constraint=models.CheckConstraint(condition=models.Q(('status__in', ['registration', 'running', 'finished', 'cancelled'])), name='tournament_status_valid'),
                ),
                migrations.AddConstraint(
                    model_name='tournamententry',
                    constraint=models.UniqueConstraint(fields=('tournament', 'player'), name='entry_player_once_per_tournament'),
                ),
                migrations.AddConstraint(
                    model_name='tournamententry',
                    constraint=models.CheckConstraint(condition=models.Q(('first_round__gte', 1)), name='entry_first_round_positive'),
                ),
                migrations.AddConstraint(
                    model_name='tournamentround',
                    constraint=models.UniqueConstraint(fields=('tournament', 'number'), name='round_once'),
                ),
                migrations.AddConstraint(
                    model_name='tournamentround',
                    constraint=models.CheckConstraint(condition=models.Q(('number__gte', 1)), name='round_positive'),
                ),
                migrations.AddConstraint(
                    model_name='tournamentround',
                    constraint=models.CheckConstraint(condition=models.Q(('status', 'playing'), ('closed_at__isnull', False), _connector='OR'), name='round_closed_has_time'),
                ),
                migrations.AddConstraint(
                    model_name='tournamentsitout',
                    constraint=models.UniqueConstraint(fields=('round', 'entry'), name='sitout_once_per_round'),
                ),
                migrations.AddConstraint(
                    model_name='tournamenttable',
                    constraint=models.UniqueConstraint(fields=('round', 'number'), name='table_once_per_round'),
                ),
            ],
        ),
        migrations.RunPython(content_types_forward, content_types_back),
    ]
